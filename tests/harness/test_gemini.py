"""Gemini CLI harness against the stand-in `gemini`, including each documented exit code."""

from __future__ import annotations

import json
import threading

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.protocol.game import JudgeScore, Spec

from .conftest import make_request

GEMINI = Binding(harness="gemini", provider="google", model="gemini-2.5-pro", origin="test")


def run(role, tmp_path, progress, binding=GEMINI, work=None):
    work = work or tmp_path / "work"
    work.mkdir(exist_ok=True)
    req = make_request(role, work, binding, log_path=tmp_path / "logs" / f"{role}.log")
    return get_adapter("gemini").run(req, progress, threading.Event())


@pytest.mark.parametrize(
    "kind, code, words",
    [
        ("auth", 41, "auth error.*security.auth.selectedType"),
        ("input", 42, "bad input"),
        ("sandbox", 44, "sandbox"),
        ("config", 52, "configuration"),
        ("turn_limit", 53, "turn limit"),
        ("tool", 54, "tool error"),
        ("untrusted", 55, "untrusted workspace"),
        ("cancelled", 130, "cancelled"),
        ("general", 1, "general error"),
    ],
)
def test_each_documented_exit_code(standins, tmp_path, progress, kind, code, words):
    standins.set(mode=f"error:{kind}")
    with pytest.raises(ActorError, match=rf"gemini planner: exit {code} \(.*{words}"):
        run("planner", tmp_path, progress)


def test_without_skip_trust_the_folder_is_untrusted(standins, tmp_path, progress):
    binding = GEMINI.model_copy(update={"options": {"skip_trust": False}})
    with pytest.raises(ActorError, match="exit 55"):
        run("planner", tmp_path, progress, binding=binding)


def test_garbage(standins, tmp_path, progress):
    standins.set(mode="garbage")
    with pytest.raises(ActorError, match="no result line"):
        run("planner", tmp_path, progress)


def test_hang_hits_idle_limit(standins, tmp_path, progress):
    standins.set(mode="hang_silent")
    (tmp_path / "w").mkdir()
    req = make_request("planner", tmp_path / "w", GEMINI, idle_s=0.5)
    with pytest.raises(ActorError, match="idle limit"):
        get_adapter("gemini").run(req, progress, threading.Event())
