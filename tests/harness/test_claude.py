"""Claude Code harness against the stand-in `claude` (flags, output formats and failures as documented)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.protocol.game import JudgeScore, Spec

from .conftest import make_request

CLAUDE = Binding(harness="claude", provider="anthropic", model="sonnet", origin="test")


def run(role, tmp_path, progress, **kw):
    work = kw.pop("work", tmp_path / "work")
    work.mkdir(exist_ok=True)
    req = make_request(role, work, kw.pop("binding", CLAUDE), log_path=tmp_path / "logs" / f"{role}.log", **kw)
    return get_adapter("claude").run(req, progress, threading.Event())


def test_structured_output_mode_passes_a_shape_only_schema(standins, tmp_path, progress):
    binding = CLAUDE.model_copy(update={"options": {"structured": True}})
    result = run("verifier", tmp_path, progress, binding=binding)
    assert result.payload["judge"]["verdict"] == "PASS"
    argv = standins.last()["argv"]
    schema = argv[argv.index("--json-schema") + 1]
    assert '"judge"' in schema and '"verdict"' in schema
    assert '"maximum"' not in schema and '"minLength"' not in schema and '"pattern"' not in schema


def test_usage_and_measured_cost_are_recorded(standins, tmp_path, progress):
    standins.set(usage={"input_tokens": 1000, "cache_read_input_tokens": 200, "output_tokens": 50, "cost_usd": 0.5})
    usage = run("planner", tmp_path, progress).usage
    assert (usage.tokens_in, usage.tokens_out, usage.cost_usd) == (1200, 50, 0.5)
    assert usage.cost_estimated is False and usage.harness == "claude" and usage.provider == "anthropic"


def test_runs_inside_another_claude_code_session(standins, tmp_path, progress, monkeypatch):
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "cli")
    result = run("planner", tmp_path, progress)
    assert "spec" in result.payload
    assert "CLAUDECODE" not in standins.last()["env"]


def test_bypass_mode_as_root_sets_is_sandbox(standins, tmp_path, progress):
    binding = CLAUDE.model_copy(update={"options": {"permission_mode": "bypassPermissions"}})
    run("builder", tmp_path, progress, binding=binding)
    env = standins.last()["env"]
    if os.geteuid() == 0:
        assert env.get("IS_SANDBOX") == "1"
    else:
        assert "IS_SANDBOX" not in env


@pytest.mark.parametrize(
    "kind, words",
    [
        ("max_turns", "error_max_turns"),
        ("execution", "error_during_execution"),
        ("budget", "error_max_budget_usd"),
        ("api", "API failure"),
        ("auth", "Please run /login"),
    ],
)
def test_each_documented_error_result_is_an_actor_error(standins, tmp_path, progress, kind, words):
    standins.set(mode=f"error:{kind}")
    with pytest.raises(ActorError, match=words) as err:
        run("planner", tmp_path, progress)
    assert err.value.usage.harness == "claude"


def test_garbage_output_is_a_clear_error(standins, tmp_path, progress):
    standins.set(mode="garbage")
    with pytest.raises(ActorError, match=r"without a result object .*non-JSON"):
        run("planner", tmp_path, progress)


@pytest.mark.parametrize("structured", [False, True])
def test_an_answer_that_is_not_the_role_schema_is_refused(standins, tmp_path, progress, structured):
    standins.set(reply={"spec": {"title": "no genre"}})
    binding = CLAUDE.model_copy(update={"options": {"structured": structured}})
    with pytest.raises(ActorError, match=r"planner schema at spec.genre"):
        run("planner", tmp_path, progress, binding=binding)


def test_missing_cli_names_the_fix(tmp_path, progress, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ActorError, match=r"'claude' not found on PATH.*crumb doctor"):
        run("planner", tmp_path, progress)


def test_standin_call_sequence_fails_then_succeeds(standins, tmp_path, progress):
    """What circuit-breaker tests use: the stand-in fails the first calls, then recovers."""
    standins.set(calls=[{"mode": "error:api"}, {"mode": "error:api"}, {}])
    for _ in range(2):
        with pytest.raises(ActorError, match="API failure"):
            run("planner", tmp_path, progress)
    assert "spec" in run("planner", tmp_path, progress).payload
