"""Claude Code harness against the real `claude` (pinned, `make agents`) and a fake Anthropic server:
structured output, usage and Claude's own dollars, nested sessions, bypass mode as root, each error
result the CLI ends with, and an answer that is not the role's schema."""

from __future__ import annotations

import json
import os
import re

import pytest

from crumb.actors.base import ActorError, Binding
from tests.agents.conftest import Offline, claude, throwaway_home  # noqa: F401  (fixtures)
from tests.agents.test_roles import run
from tests.harness.conftest import Progress

CLAUDE = Binding(harness="claude", provider="anthropic", model="sonnet", origin="test")


def with_options(**options) -> Binding:
    return CLAUDE.model_copy(update={"options": options})


def logged_argv(tmp_path, role: str) -> str:
    return (tmp_path / "logs" / f"{role}.log").read_text().splitlines()[0]


def result_line(tmp_path, role: str) -> dict:
    """The CLI's own result object, as the run log has it."""
    lines = [json.loads(line) for line in (tmp_path / "logs" / f"{role}.log").read_text().splitlines()
             if line.startswith('{"type":"result"')]
    assert lines, "the CLI printed no result object"
    return lines[-1]


def test_structured_output_mode_passes_a_shape_only_schema(claude, tmp_path):  # noqa: F811
    result, _, _ = run(claude, "verifier", tmp_path, binding=with_options(structured=True))
    assert result.payload["judge"]["verdict"] == "PASS"
    schema = re.search(r"--json-schema (\{.*\})", logged_argv(tmp_path, "verifier")).group(1)
    assert '"judge"' in schema and '"verdict"' in schema
    assert '"maximum"' not in schema and '"minLength"' not in schema and '"pattern"' not in schema
    offered = {t["name"]: t for t in claude.server.role_requests("verifier")[0].body["tools"]}
    assert "judge" in json.dumps(offered["StructuredOutput"]["input_schema"])  # the CLI took the schema


def test_usage_and_measured_cost_are_recorded(claude, tmp_path):  # noqa: F811
    claude.script.usage = {"input": 1000, "cached": 200, "output": 50}
    usage = run(claude, "planner", tmp_path, binding=CLAUDE)[0].usage
    reported = result_line(tmp_path, "planner")
    assert (usage.tokens_in, usage.tokens_out) == (1200, 50)  # input + cache reads, as the server counted them
    assert usage.cost_usd == reported["total_cost_usd"] > 0  # Claude Code's own dollars, not CRUMB's estimate
    assert usage.cost_estimated is False and usage.harness == "claude" and usage.provider == "anthropic"
    assert usage.model in reported["modelUsage"]


def test_runs_inside_another_claude_code_session(claude, tmp_path, monkeypatch):  # noqa: F811
    """Started from inside Claude Code, the child CLI must not see the parent's session variables."""
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "cli")
    claude.script.callers = True
    result, _, _ = run(claude, "planner", tmp_path, binding=CLAUDE)
    assert "spec" in result.payload
    seen = claude.server.role_requests("planner")[0]
    assert seen.env is not None, "the process that called the server was not found"
    assert "CLAUDECODE" not in seen.env and "CLAUDE_CODE_ENTRYPOINT" not in seen.env


def test_bypass_mode_as_root_sets_is_sandbox(claude, tmp_path):  # noqa: F811
    """As root the real CLI refuses bypassPermissions without IS_SANDBOX=1: the build runs all the same."""
    claude.script.callers = True
    result, _, work = run(claude, "builder", tmp_path, binding=with_options(permission_mode="bypassPermissions"))
    assert result.files == ["index.html"] and (work / "index.html").is_file()
    env = claude.server.role_requests("builder")[0].env
    assert env is not None, "the process that called the server was not found"
    if os.geteuid() == 0:
        assert env.get("IS_SANDBOX") == "1"
    else:
        assert "IS_SANDBOX" not in env


#: how the fake server and the binding make the real CLI end with each documented error result
ERROR_RESULTS = {
    "max_turns": ({"tool_turns": 10}, {"max_turns": 2}, r"error_max_turns: .*raise the binding option max_turns"),
    "budget": ({"tool_turns": 3, "usage": {"input": 1_000_000, "cached": 0, "output": 1000}}, {"max_budget_usd": 0.01},
               r"error_max_budget_usd: .*raise the binding option max_budget_usd"),
    "api": ({"always": "500"}, {}, r"success \(API failure\): .*500"),
    "auth": ({"always": "401"}, {}, r"success \(API failure\): Failed to authenticate.*401"),
}


@pytest.mark.parametrize("kind", list(ERROR_RESULTS))
def test_each_documented_error_result_is_an_actor_error(claude, tmp_path, kind):  # noqa: F811
    script, options, words = ERROR_RESULTS[kind]
    for key, value in script.items():
        setattr(claude.script, key, value)
    with pytest.raises(ActorError, match=words) as err:
        run(claude, "planner", tmp_path, binding=with_options(**options))
    assert err.value.usage.harness == "claude"
    assert result_line(tmp_path, "planner")["is_error"] is True  # the CLI's own verdict, not a CRUMB guess


def test_non_json_output_is_counted_not_parsed(tmp_path):
    """What a program that is not Claude Code's stream-json prints (a banner, HTML from a proxy) is
    counted as garbage for the error, never taken for events."""
    from crumb.actors.harness.claude import _Stream

    stream = _Stream(tmp_path, Progress())
    for line in ("Welcome! \x1b[32m✓\x1b[0m loading…", "{not json at all", "<html>502 Bad Gateway</html>", "[1, 2]", ""):
        stream(line)
    assert stream.garbage == 4 and stream.result is None


def test_a_program_that_is_not_claude_is_a_clear_error(tmp_path):
    """A `bin` that prints plain text (here the system's `echo`) ends in one error naming the output."""
    binding = with_options(bin="/bin/echo")
    with pytest.raises(ActorError, match=r"exited 0 without a result object \(1 line\(s\) of non-JSON output\)"):
        run(Offline("claude"), "planner", tmp_path, binding=binding)


@pytest.mark.parametrize("structured, words", [
    (False, r"planner schema at spec.genre"),  # CRUMB checks the final text's JSON
    (True, r"error_max_structured_output_retries: .*set the binding option structured = false"),  # the CLI does
])
def test_an_answer_that_is_not_the_role_schema_is_refused(claude, tmp_path, structured, words):  # noqa: F811
    claude.script.reply = {"spec": {"title": "no genre"}}
    with pytest.raises(ActorError, match=words):
        run(claude, "planner", tmp_path, binding=with_options(structured=structured))
    if structured:
        told = json.dumps([r.body["messages"] for r in claude.server.role_requests("planner")])
        assert "required property 'genre'" in told  # the CLI's schema check refused each StructuredOutput call


def test_missing_cli_names_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ActorError, match=r"'claude' not found on PATH.*crumb doctor"):
        run(Offline("claude"), "planner", tmp_path, binding=CLAUDE)


def test_failures_then_a_success(claude, tmp_path):  # noqa: F811
    """What circuit-breaker tests rely on: two failing calls, then the same CLI answers."""
    claude.script.faults = ["500", "500"]
    for _ in range(2):
        with pytest.raises(ActorError, match="API failure"):
            run(claude, "planner", tmp_path, binding=CLAUDE)
    assert "spec" in run(claude, "planner", tmp_path, binding=CLAUDE)[0].payload
    assert [r.fault for r in claude.server.role_requests("planner")] == ["500", "500", None]
