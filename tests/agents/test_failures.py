"""Failures a real CLI meets at its model server become one clear ActorError each, quickly: a refused
key, a rate limit with Retry-After, a server error, a stream cut off mid-event. Claude's own retries are
bounded and shown as progress."""

from __future__ import annotations

import time

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness.claude import MAX_RETRIES
from tests.agents.test_roles import run
from tests.harness.conftest import Progress
from tests.wait import wait_until

#: per harness and fault, what the error must say (each CLI words it its own way)
WORDS = {
    ("claude", "401"): r"API failure|401|authentication",
    ("claude", "429"): r"API failure|429|rate",
    ("claude", "500"): r"API failure|500",
    ("claude", "malformed"): r"claude planner:",
    ("codex", "401"): r"exit 1: .*401",
    ("codex", "429"): r"exit 1: .*(429|rate|Too Many)",
    ("codex", "500"): r"exit 1: .*(500|Internal|high demand)",
    ("codex", "malformed"): r"exit 1: .*(stream|disconnected|decode|pars)",
    ("gemini", "401"): r"exit 145 \(API error: HTTP 401, unauthorized",
    ("gemini", "429"): r"exit 173 \(API error: HTTP 429, rate limited",
    ("gemini", "500"): r"exit 244 \(API error: HTTP 500, server error",
    ("gemini", "malformed"): r"gemini planner: exit",
}


@pytest.mark.parametrize("fault", ["401", "429", "500", "malformed"])
def test_a_server_fault_is_one_clear_error(vendor, fault, tmp_path):
    vendor.script.always = fault
    vendor.script.retry_after_s = 0
    started = time.monotonic()
    with pytest.raises(ActorError, match=WORDS[(vendor.harness, fault)]) as err:
        run(vendor, "planner", tmp_path)
    print(f"{vendor.harness} {fault}: {time.monotonic() - started:.1f} s, {len(vendor.server.role_requests())} requests: {err.value}")
    assert err.value.usage is not None and err.value.usage.harness == vendor.harness


def test_claude_retries_are_bounded_and_shown_as_progress(claude, tmp_path, monkeypatch):
    monkeypatch.delenv("CLAUDE_CODE_MAX_RETRIES")  # CRUMB's bound applies, not the CLI's 10
    claude.script.always = "500"
    progress = Progress()
    with pytest.raises(ActorError, match="API failure"):
        run(claude, "planner", tmp_path, progress=progress)
    assert len(claude.server.role_requests()) == MAX_RETRIES + 1
    retries = [u.message for u in progress.updates if u.tool == "api_retry"]
    assert retries and "500" in retries[-1], progress.updates


def test_claude_structured_output_comes_back_through_its_tool(claude, tmp_path):
    binding = Binding(harness="claude", options={"structured": True})
    result, _, _ = run(claude, "verifier", tmp_path, binding=binding)
    assert result.payload["judge"]["verdict"] == "PASS"
    sent = claude.server.role_requests("verifier")[0].body
    assert "StructuredOutput" in [t.get("name") for t in sent["tools"]]


def test_a_server_that_never_answers_hits_the_idle_limit_and_the_cli_is_gone(vendor, tmp_path):
    vendor.script.always = "hang"
    with pytest.raises(ActorError, match="idle limit"):
        # gemini (Node) can be silent for several seconds while it starts on a loaded machine
        run(vendor, "planner", tmp_path, idle_s=20 if vendor.harness == "gemini" else 6)
    assert vendor.server.role_requests("planner"), ("the CLI was killed before it asked the model", [(r.path, r.role, r.fault) for r in vendor.server.requests])
    assert wait_until(lambda: not vendor.processes(), 10, "the CLI's processes to be gone")
