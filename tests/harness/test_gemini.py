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


def test_planner_spec(standins, tmp_path, progress):
    result = run("planner", tmp_path, progress)
    assert Spec.model_validate(result.payload["spec"]).numbers.time_limit_s == 30
    rec = standins.last()
    argv = rec["argv"]
    assert argv[argv.index("--output-format") + 1] == "stream-json" and "--skip-trust" in argv
    assert argv[argv.index("--approval-mode") + 1] == "default"
    assert rec["stdin"].startswith("# CRUMB role: planner") and len(argv[argv.index("-p") + 1]) < 200


def test_builder_needs_and_gets_auto_edit(standins, tmp_path, progress):
    result = run("builder", tmp_path, progress)
    assert "__crumb" in (tmp_path / "work" / "index.html").read_text()
    assert result.files == ["index.html"] and "index.html" in progress.files
    argv = standins.last()["argv"]
    assert argv[argv.index("--approval-mode") + 1] == "auto_edit"


def test_verifier_judge(standins, tmp_path, progress):
    work = tmp_path / "v"
    work.mkdir()
    (work / "input.json").write_text(json.dumps({"qa": {"id": "Q2"}}))
    assert JudgeScore.model_validate(run("verifier", tmp_path, progress, work=work).payload["judge"]).evidence == ["Q2"]


def test_usage_estimated(standins, tmp_path, progress):
    standins.set(usage={"input_tokens": 2_000_000, "output_tokens": 0})
    usage = run("planner", tmp_path, progress).usage
    assert usage.tokens_in == 2_000_000 and usage.cost_estimated and usage.cost_usd == pytest.approx(2.5)


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


@pytest.mark.parametrize("harness", ["claude", "codex", "gemini"])
def test_researcher_returns_evidence(standins, tmp_path, progress, harness):
    (tmp_path / "r").mkdir()
    req = make_request("researcher", tmp_path / "r", Binding(harness=harness))
    result = get_adapter(harness).run(req, progress, threading.Event())
    assert result.payload["evidence"]["items"][0]["id"] == "r1"
    assert standins.last()["stdin"].startswith("# CRUMB role: researcher")
