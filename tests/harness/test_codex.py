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


def test_planner_spec_outside_a_git_repo(standins, tmp_path, progress):
    result = run("planner", tmp_path, progress)
    assert Spec.model_validate(result.payload["spec"]).genre == "clicker"
    argv = standins.last()["argv"]
    assert argv[:2] == ["exec", "--json"] and "--skip-git-repo-check" in argv
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert argv[-1] == "-" and standins.last()["stdin"].startswith("# CRUMB role: planner")


def test_builder_writes_with_workspace_write_sandbox(standins, tmp_path, progress):
    result = run("builder", tmp_path, progress)
    assert "__crumb" in (tmp_path / "work" / "index.html").read_text()
    assert result.files == ["index.html"] and "index.html" in progress.files
    argv = standins.last()["argv"]
    assert argv[argv.index("--sandbox") + 1] == "workspace-write"
    assert argv[argv.index("--cd") + 1] == str(tmp_path / "work")


def test_read_only_sandbox_build_is_an_actor_failure(standins, tmp_path, progress):
    binding = CODEX.model_copy(update={"options": {"sandbox": "read-only"}})
    with pytest.raises(ActorError, match="index.html is not in the game folder.*sandbox"):
        run("builder", tmp_path, progress, binding=binding)
    assert not (tmp_path / "work" / "index.html").exists()


def test_bad_sandbox_option_is_named(standins, tmp_path, progress):
    binding = CODEX.model_copy(update={"options": {"sandbox": "none"}})
    with pytest.raises(ActorError, match="sandbox='none' is not one of"):
        run("builder", tmp_path, progress, binding=binding)


def test_verifier_judge(standins, tmp_path, progress):
    work = tmp_path / "v"
    work.mkdir()
    (work / "input.json").write_text(json.dumps({"qa": {"id": "Q9"}}))
    judge = JudgeScore.model_validate(run("verifier", tmp_path, progress, work=work).payload["judge"])
    assert judge.evidence == ["Q9"]


def test_tokens_recorded_and_cost_estimated(standins, tmp_path, progress):
    standins.set(usage={"input_tokens": 1_000_000, "output_tokens": 100_000})
    usage = run("planner", tmp_path, progress).usage
    assert (usage.tokens_in, usage.tokens_out) == (1_000_000, 100_000)
    assert usage.cost_estimated is True and usage.cost_usd == pytest.approx(1.25 + 1.0)


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
