"""Gemini CLI harness against the real `gemini` (pinned, `make agents`) and a fake Gemini server: each
documented exit code the CLI can be brought to, named as what it means; the rest through the table."""

from __future__ import annotations

import json

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness.gemini import exit_meaning
from tests.agents.conftest import Offline, gemini, throwaway_home  # noqa: F401  (fixtures)
from tests.agents.test_roles import run

GEMINI = Binding(harness="gemini", provider="google", origin="test")


def settings(gemini, value: dict) -> None:  # noqa: F811
    """The user's ~/.gemini/settings.json (CRUMB copies it into each run's private home)."""
    folder = gemini.home / ".gemini"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(value))


def no_key(gemini, monkeypatch) -> None:  # noqa: F811
    monkeypatch.delenv("GEMINI_API_KEY")


def no_sandbox(gemini, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("GEMINI_SANDBOX", "no-such-sandbox")


def bad_setting(gemini, monkeypatch) -> None:  # noqa: F811
    settings(gemini, {"telemetry": {"target": "bogus"}})


def one_turn(gemini, monkeypatch) -> None:  # noqa: F811
    settings(gemini, {"model": {"maxSessionTurns": 1}})
    gemini.script.tool_turns = 3  # the model wants more turns than allowed


@pytest.mark.parametrize(
    "cause, code, words",
    [
        (no_key, 41, r"auth error.*security.auth.selectedType"),
        (no_sandbox, 44, r"sandbox error\): .*Invalid sandbox command 'no-such-sandbox'"),
        (bad_setting, 52, r"configuration error: check ~/.gemini/settings.json\): .*telemetry"),
        (one_turn, 53, r"turn limit reached\): Reached max session turns"),
    ],
    ids=["auth", "sandbox", "config", "turn_limit"],
)
def test_each_documented_exit_code_the_cli_can_be_brought_to(gemini, tmp_path, monkeypatch, cause, code, words):  # noqa: F811
    cause(gemini, monkeypatch)
    with pytest.raises(ActorError, match=rf"gemini planner: exit {code} \({words}"):
        run(gemini, "planner", tmp_path, binding=GEMINI)


@pytest.mark.parametrize("code, words", [
    (1, "general error"), (41, "security.auth.selectedType"), (42, "bad input"), (44, "sandbox"),
    (52, "configuration"), (53, "turn limit"), (54, "tool error"), (55, "untrusted workspace"), (130, "cancelled"),
    (145, "HTTP 401, unauthorized"), (173, "HTTP 429, rate limited"), (244, "HTTP 500, server error"), (7, "failed"),
])
def test_every_exit_code_is_named(code, words):
    """The codes no server or setting provokes (42 input, 54 tool, 130 cancelled) are named too."""
    assert words in exit_meaning(code)


def test_without_skip_trust_the_folder_is_untrusted(gemini, tmp_path):  # noqa: F811
    settings(gemini, {"security": {"folderTrust": {"enabled": True}}})  # a user who turned folder trust on
    untrusted = GEMINI.model_copy(update={"options": {"skip_trust": False}})
    with pytest.raises(ActorError, match=r"exit 55 \(untrusted workspace"):
        run(gemini, "planner", tmp_path, binding=untrusted)
    assert "spec" in run(gemini, "planner", tmp_path, binding=GEMINI)[0].payload  # CRUMB's default skips it


def test_a_program_that_is_not_gemini_is_a_clear_error(tmp_path):
    """A `bin` that prints plain text (here the system's `echo`) ends in one error naming the output."""
    binding = GEMINI.model_copy(update={"options": {"bin": "/bin/echo"}})
    with pytest.raises(ActorError, match=r"no result line on stdout \(1 line\(s\) of non-JSON output\)"):
        run(Offline("gemini"), "planner", tmp_path, binding=binding)
