"""Codex CLI harness against the real `codex exec` (pinned, `make agents`) and a fake Responses server:
option checks, the failures codex documents, a program that is not codex, progress throttling."""

from __future__ import annotations

import pytest

from crumb.actors.base import ActorError, Binding
from tests.agents.conftest import Offline, codex, throwaway_home  # noqa: F401  (fixtures)
from tests.agents.test_roles import run

CODEX = Binding(harness="codex", provider="openai", origin="test")


def test_bad_sandbox_option_is_named(codex, tmp_path):  # noqa: F811
    binding = CODEX.model_copy(update={"options": {"sandbox": "none"}})
    with pytest.raises(ActorError, match="sandbox='none' is not one of"):
        run(codex, "builder", tmp_path, binding=binding)
    assert codex.server.requests == []  # refused before codex ran


def break_config(codex) -> None:  # noqa: F811
    config = codex.home / ".codex" / "config.toml"
    config.write_text(config.read_text() + '\n[features]\nweb_search_request = "x"\n')


@pytest.mark.parametrize(
    "how, words",
    [({"always": "malformed"}, "stream disconnected"), ({"always": "401"}, "401 Unauthorized"),
     (break_config, "Error loading config.toml")],
    ids=["turn", "auth", "config"],
)
def test_documented_failures(codex, tmp_path, how, words):  # noqa: F811
    if callable(how):
        how(codex)
    else:
        for key, value in how.items():
            setattr(codex.script, key, value)
    with pytest.raises(ActorError, match=f"codex planner: exit 1: .*{words}"):
        run(codex, "planner", tmp_path, binding=CODEX)


def test_a_program_that_is_not_codex_is_a_clear_error(tmp_path):
    """A `bin` that prints plain text (here the system's `echo`) ends in one error naming the output."""
    binding = CODEX.model_copy(update={"options": {"bin": "/bin/echo"}})
    with pytest.raises(ActorError, match=r"no JSON events on stdout \(1 line\(s\) of other output\)"):
        run(Offline("codex"), "planner", tmp_path, binding=binding)


def test_many_tool_calls_are_throttled(codex, tmp_path):  # noqa: F811
    """50 shell commands in one turn (codex runs each) become a few progress updates, the rest counted."""
    codex.script.tool_turns, codex.script.tool_calls = 1, 50
    result, progress, _ = run(codex, "planner", tmp_path, binding=CODEX)
    assert "spec" in result.payload
    ran = result_commands(tmp_path)
    assert ran == 50, f"codex ran {ran} of the 50 commands"
    seconds = result.usage.duration_ms / 1000
    assert 1 <= len(progress.updates) <= seconds + 2  # about one a second, whatever the pace
    assert len(progress.updates) < ran and "more)" in progress.updates[-1].message  # fewer than the calls, the rest counted


def result_commands(tmp_path) -> int:
    """How many shell commands the run log shows codex starting."""
    import json

    lines = (tmp_path / "logs" / "planner.log").read_text().splitlines()
    events = [json.loads(line) for line in lines if line.startswith("{")]
    return sum(1 for e in events if e.get("type") == "item.started" and (e.get("item") or {}).get("type") == "command_execution")
