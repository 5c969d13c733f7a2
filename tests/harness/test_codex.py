"""Codex CLI harness against the stand-in `codex exec`."""

from __future__ import annotations

import json
import threading

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.protocol.game import JudgeScore, Spec

from .conftest import make_request

CODEX = Binding(harness="codex", provider="openai", model="gpt-5-codex", origin="test")


def run(role, tmp_path, progress, binding=CODEX, work=None):
    work = work or tmp_path / "work"
    work.mkdir(exist_ok=True)
    req = make_request(role, work, binding, log_path=tmp_path / "logs" / f"{role}.log")
    return get_adapter("codex").run(req, progress, threading.Event())


def test_bad_sandbox_option_is_named(standins, tmp_path, progress):
    binding = CODEX.model_copy(update={"options": {"sandbox": "none"}})
    with pytest.raises(ActorError, match="sandbox='none' is not one of"):
        run("builder", tmp_path, progress, binding=binding)


@pytest.mark.parametrize(
    "mode, words",
    [("error:turn", "stream disconnected"), ("error:auth", "401 Unauthorized"), ("error:config", "Error loading config.toml")],
)
def test_documented_failures(standins, tmp_path, progress, mode, words):
    standins.set(mode=mode)
    with pytest.raises(ActorError, match=f"codex planner: exit 1: .*{words}"):
        run("planner", tmp_path, progress)


def test_garbage_output(standins, tmp_path, progress):
    standins.set(mode="garbage")
    with pytest.raises(ActorError, match="no JSON events on stdout"):
        run("planner", tmp_path, progress)


def test_many_tool_calls_are_throttled(standins, tmp_path, progress):
    standins.set(tools=200)
    run("planner", tmp_path, progress)
    assert 1 <= len(progress.updates) <= 5
    assert "more)" in progress.updates[-1].message
