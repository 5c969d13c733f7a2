"""Whole sessions via the daemon, with real QA: through an OpenAI-compatible server and commands; the
circuit breaker (the real CLIs, each with its fake model server scripted to fail or answer) swapping to
the next adapter, and ending the session (circuit_open) when the embedded studio at the end of the chain
fails too (`--fault crash`); /cancel killing a hung agent and the command it started.
Also: a command speaking the JSON contract, bound with arguments and by a path relative to the project
root while the daemon runs from another folder, and /reset-circuit and /swap sent by a person while a
session runs. Whole sessions through the real claude, codex and gemini CLIs are in tests/agents/."""

from __future__ import annotations

import sys

from crumb.store import paths
from tests.agents.conftest import codex, gemini, throwaway_home, vendors  # noqa: F401  (fixtures)
from tests.daemon.conftest import crumb, drop, events, start_watch, state, stop_watch, wait_done
from tests.harness.conftest import JSON_AGENT, openai_server  # noqa: F401  (fixtures)
from tests.wait import wait_until


def test_a_whole_session_through_an_openai_compatible_server(root, daemon, openai_server):  # noqa: F811
    binding = f"openai:ollama/fake-model@{openai_server.base_url}"
    out = crumb(root, "pitch", "tap the dot for 30 seconds", *[f"--role={r}={binding}" for r in ("planner", "builder", "verifier")])
    sid = out.stdout.strip()
    final = wait_done(root, sid, timeout=240)
    assert final.done["reason"] == "pass", final.errors
    assert events(root, sid, "build")[0]["meta"]["harness"] == "openai"
    assert events(root, sid, "build")[0]["meta"].get("cost_estimated") in (True, None)


def test_a_whole_session_through_a_command_speaking_the_json_contract(root, daemon, tmp_path):
    agent = tmp_path / "my-agent"  # any executable: here a shell script around the example tool
    agent.write_text(f"#!/bin/sh\nexec {sys.executable} {JSON_AGENT} \"$@\"\n")
    agent.chmod(0o755)
    tool = f"command:{agent}"
    out = crumb(root, "pitch", "tap the dot for 30 seconds", *[f"--role={r}={tool}" for r in ("planner", "builder", "verifier")])
    sid = out.stdout.strip()
    final = wait_done(root, sid, timeout=240)
    assert final.done["reason"] == "pass", final.errors
    for kind in ("spec", "build", "judge.score"):
        meta = events(root, sid, kind)[0]["meta"]
        assert (meta["harness"], meta["model"], meta["cost_usd"]) == ("command", "my-model", 0.01), (kind, meta)
    assert final.cost_usd >= 0.03 and final.tokens >= 45  # what the command reported counts against the budgets


def test_a_relative_command_with_arguments_runs_from_the_project_root_whatever_the_daemons_folder(
        root, tmp_path, monkeypatch):
    tool = root / "tools" / "agent"  # the project's own tool, bound as ./tools/agent with an argument
    tool.parent.mkdir()
    tool.write_text(f"#!/bin/sh\nexec {sys.executable} {JSON_AGENT} \"$@\"\n")
    tool.chmod(0o755)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tools").mkdir(parents=True)  # no agent here: a cwd-relative lookup would miss it
    monkeypatch.chdir(elsewhere)
    proc = start_watch(root)  # `crumb --root ROOT watch`, started from another folder
    try:
        sid = crumb(root, "pitch", "tap the dot for 30 seconds", "--role", "all=command:./tools/agent ok").stdout.strip()
        final = wait_done(root, sid, timeout=240)
    finally:
        stop_watch(proc)
    recorded = events(root, sid, "session.start")[0]["data"]["bindings"]
    assert {role: chain[0]["options"] for role, chain in recorded.items()} == {
        role: {"command": "./tools/agent ok"} for role in ("planner", "builder", "verifier", "researcher")
    }  # `all` and a command with arguments reached the session as given
    assert events(root, sid, "effect.failed") == [], [e["data"]["error"] for e in events(root, sid, "effect.failed")]
    assert final.done["reason"] == "pass"
    for kind in ("spec", "build", "judge.score"):
        assert events(root, sid, kind)[0]["meta"]["harness"] == "command", kind


def test_when_every_adapter_in_the_chain_fails_the_session_ends_circuit_open(root, daemon, codex):  # noqa: F811
    """codex fails 3 times → its circuit opens → local takes over and, told to crash, fails 3 times
    too → the chain is exhausted → done: circuit_open, with every step recorded."""
    codex.script.always = "malformed"  # every stream is cut off: codex's turn fails
    out = crumb(root, "pitch", "60-second snake", "--role", "builder=codex", "--fault", "crash")
    assert out.returncode == 0, out.stderr
    final = wait_done(root, out.stdout.strip(), timeout=240)
    sid = final.session
    assert final.done["reason"] == "circuit_open", final.done
    assert "builder" in final.done["detail"]
    failed = [(e["data"]["adapter"], e["data"]["attempt"]) for e in events(root, sid, "effect.failed")]
    assert failed == [("codex", 1), ("codex", 2), ("codex", 3), ("local", 1), ("local", 2), ("local", 3)]
    assert "failed on purpose (fault 'crash')" in events(root, sid, "effect.failed")[-1]["data"]["error"]
    assert all("stream disconnected" in e["data"]["error"] for e in events(root, sid, "effect.failed")[:3])
    assert len(codex.server.role_requests("builder")) >= 3
    opened = [(e["data"]["actor"], e["data"]["adapter"], e["data"]["failures"]) for e in events(root, sid, "circuit.opened")]
    assert opened == [("builder", "codex", 3), ("builder", "local", 3)]
    swapped = [(e["data"]["before"], e["data"]["after"]) for e in events(root, sid, "adapter.swapped")]
    assert swapped == [("codex", "local")]
    assert events(root, sid, "build") == [] and state(root, sid).pending == {}
    assert [e["kind"] for e in events(root, sid)][-1] == "done"


PARTIAL = {"judge": {"verdict": "PARTIAL", "total": 3.0, "feedback": "plays, but the dot is tiny", "evidence": []}}


def test_reset_circuit_and_swap_work_live(root, daemon, vendors):  # noqa: F811
    """The builder's codex fails until its circuit opens (local takes over); a person then sends
    /reset-circuit (the next build is codex's again) and /swap builder=gemini (the next is gemini's)."""
    vendors["codex"].script.always = "malformed"
    vendors["claude"].script.reply = PARTIAL  # the verifier: plays, but asks for approval
    sid = crumb(root, "pitch", "tap the dot for 30 seconds", "--role", "builder=codex", "--role", "verifier=claude").stdout.strip()
    waiting = lambda n: len(events(root, sid, "judge.score")) >= n and state(root, sid).waiting_for == "approval"  # noqa: E731
    wait_until(lambda: waiting(1), 240, "the first PARTIAL verdict")
    assert events(root, sid, "circuit.opened")[0]["data"]["adapter"] == "codex"
    builds = events(root, sid, "build")
    assert [b["meta"]["harness"] for b in builds] == ["local"]

    vendors["codex"].script.always = None  # codex's model answers now
    drop(paths.session_inbox(root, sid), "reset.txt", "/reset-circuit builder\n/veto make the dot bigger\n")
    wait_until(lambda: waiting(2), 240, "the second PARTIAL verdict")
    assert events(root, sid, "build")[-1]["meta"]["harness"] == "codex"

    drop(paths.session_inbox(root, sid), "swap.txt", "/swap builder=gemini\n/veto bigger still\n")
    wait_until(lambda: waiting(3), 240, "the third PARTIAL verdict")
    assert [b["meta"]["harness"] for b in events(root, sid, "build")] == ["local", "codex", "gemini"]
    drop(paths.session_inbox(root, sid), "ok.txt", "/approve\n")
    assert wait_done(root, sid, timeout=60).done["reason"] == "approved"


def test_cancel_kills_a_hung_agent_and_its_children(root, daemon, gemini):  # noqa: F811
    """The planner's model has gemini run a command that never ends; /cancel ends the session, and
    neither gemini nor that command is left (gemini starts it in a session of its own)."""
    gemini.script.command = "exec sleep 600"
    (root / "crumb.toml").write_text('[roles.planner]\nharness = "gemini"\noptions = { approval_mode = "yolo" }\n')
    sid = crumb(root, "pitch", "snake").stdout.strip()
    wait_until(lambda: any(cmd.startswith("sleep 600") for cmd in gemini.processes().values()), 120,
               "gemini running the command")
    drop(paths.session_inbox(root, sid), "stop.txt", "/cancel\n")
    final = wait_done(root, sid, timeout=60)
    assert final.done["reason"] == "cancelled"
    wait_until(lambda: not gemini.processes(), 30, "no process of gemini's left")
    assert state(root, sid).pending == {}
