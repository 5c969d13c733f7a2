"""Who played, and a session that waits for a person, as a user's script sees them: real `crumb`
processes, real `command:` agents (a builder that always fails, a verifier that answers PARTIAL),
the circuit breaker swapping to the embedded studio, real QA. Output is parsed the way a script would:
exit codes, `--json`, the columns of `crumb ls`."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from crumb.daemon.lock import daemon_status
from tests.daemon.conftest import crumb, start_watch, state, stop_watch
from tests.wait import wait_until

pytestmark = pytest.mark.timeout(900)  # several sessions with real QA on a loaded 2-core machine

FEEDBACK = "plays, but the snake is too slow to be fun"


def tool(root: Path, name: str, body: str) -> str:
    """An executable in the project's tools/, bound as `command:./tools/NAME` (the contract's own way)."""
    path = root / "tools" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(body)
    path.chmod(0o755)
    return f"command:./tools/{name}"


def failing_builder(root: Path) -> str:
    return tool(root, "builder", "#!/bin/sh\necho 'no model server here' >&2\nexit 1\n")


def partial_verifier(root: Path) -> str:
    answer = {"payload": {"judge": {"verdict": "PARTIAL", "total": 3.0, "feedback": FEEDBACK, "evidence": []}},
              "usage": {"model": "judge-1"}}
    return tool(root, "verifier", f"#!{sys.executable}\nimport json, sys\njson.load(sys.stdin)\n"
                                  f"print(json.dumps({answer!r}))\n")


def ls_columns(root: Path) -> dict[str, list[str]]:
    """`crumb ls` as a script reads it: session id → its whitespace-separated columns."""
    out = crumb(root, "ls")
    assert out.returncode == 0, out.stderr
    return {line.split()[0]: line.split() for line in out.stdout.splitlines() if line.strip()}


def test_a_builder_the_circuit_swapped_is_named_by_run_wait_ls_and_status_and_exits_4(root):
    ran = crumb(root, "run", "--json", "60-second snake", "--role", f"builder={failing_builder(root)}", timeout=600)
    assert ran.returncode == 4, ran.stderr  # PASS, but not the bound builder's
    got = json.loads(ran.stdout)
    sid = got["session"]
    assert (got["done"], got["verdict"], got["exit"], got["fallback"]) == ("pass", "PASS", 4, True)
    builder = got["played"]["builder"]
    assert (builder["harness"], builder["fallback"], builder["index"], builder["bound"]) == ("local", True, 1, "command")
    assert got["played"]["planner"]["fallback"] is False and got["played"]["verifier"]["fallback"] is False
    [swap] = got["fallbacks"]
    assert (swap["actor"], swap["before"], swap["after"], swap["failures"]) == ("builder", "command", "local", 3)
    assert "no model server here" in swap["error"]
    assert "fallback: builder played by local" in got["detail"] and "after command failed 3×" in got["detail"]
    summary = ran.stderr.splitlines()
    assert any(line.startswith(f"{sid}: done (pass, fallback) PASS") for line in summary), summary
    assert any("builder=local" in line and "(fallback; bound command)" in line for line in summary), summary

    waited = crumb(root, "wait", sid, "--json")
    assert waited.returncode == 4 and json.loads(waited.stdout) == got  # a finished session says it forever

    plain = crumb(root, "run", "--json", "60-second snake", timeout=600)  # every role on the embedded studio, as bound
    assert plain.returncode == 0, plain.stderr
    bound = json.loads(plain.stdout)
    assert bound["fallback"] is False and bound["fallbacks"] == [] and bound["exit"] == 0
    assert "fallback" not in bound["detail"]

    columns = ls_columns(root)
    assert columns[sid][1:5] == ["done", "PASS", "pass", "fallback:builder"]
    assert columns[bound["session"]][1:5] == ["done", "PASS", "pass", "bound"]
    listed = {s["session"]: s for s in map(json.loads, crumb(root, "ls", "--json").stdout.splitlines())}
    assert listed[sid]["fallback"] is True and listed[bound["session"]]["fallback"] is False
    assert listed[sid]["played"]["builder"] == builder

    status = crumb(root, "status", sid).stdout.splitlines()
    assert any(line.startswith("done      pass (fallback): PASS") for line in status), status
    role_lines = {line.split()[1]: line for line in status if line.startswith("played ")}
    assert set(role_lines) == {"planner", "builder", "verifier"}
    assert "— fallback after command failed 3× (" in role_lines["builder"]
    assert "fallback" not in role_lines["planner"] and "fallback" not in role_lines["verifier"]
    assert json.loads(crumb(root, "status", sid, "--json").stdout)["played"]["builder"] == builder


def test_run_and_wait_return_at_once_when_a_person_must_decide_and_the_session_resumes(root):
    verifier = partial_verifier(root)
    ran = crumb(root, "run", "--json", "--timeout", "600", "60-second snake", "--role", f"verifier={verifier}",
                timeout=600)
    assert ran.returncode == 3, ran.stderr  # not 2: it returned when the session began to wait, not at the timeout
    got = json.loads(ran.stdout)
    sid = got["session"]
    assert (got["phase"], got["done"], got["verdict"], got["waiting_for"]) == ("waiting", None, "PARTIAL", "approval")
    assert FEEDBACK in got["feedback"] and got["fallback"] is False
    assert got["played"]["verifier"]["harness"] == "command" and got["played"]["verifier"]["model"] == "judge-1"
    approve, veto = got["next"]
    assert approve == f"crumb --root {root} approve {sid}" and veto == f'crumb --root {root} veto {sid} "why"'
    said = ran.stderr
    assert f"{sid}: waiting for a person — PARTIAL at round 1" in said and FEEDBACK in said
    assert f"approve: {approve}" in said and f"veto:    {veto}" in said
    assert not daemon_status(root)["running"]  # the in-process daemon stopped with the session waiting

    waited = crumb(root, "wait", sid, "--timeout", "120")
    assert waited.returncode == 3 and "waiting for a person" in waited.stderr  # at once, with no daemon at all
    assert ls_columns(root)[sid][1:3] == ["waiting", "PARTIAL"]

    proc = start_watch(root)  # a later `crumb watch` picks the session up where it stopped
    try:
        again = crumb(root, "pitch", "--wait", "--json", "pong to 5 points", "--role", f"verifier={verifier}",
                      timeout=600)
        assert again.returncode == 3, again.stderr
        second = json.loads(again.stdout)
        assert second["phase"] == "waiting" and second["next"][0].endswith(f"approve {second['session']}")

        go_on = [sys.executable, "-m", "crumb"]  # the printed commands, run as a script would run them
        assert subprocess.run(go_on + shlex.split(approve)[1:], capture_output=True, timeout=60).returncode == 0
        done = crumb(root, "wait", sid, "--json", "--timeout", "120")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["done"] == "approved" and state(root, sid).done["reason"] == "approved"

        vetoed = shlex.split(second["next"][1])[1:-1] + ["make the ball bigger"]
        assert subprocess.run(go_on + vetoed, capture_output=True, timeout=60).returncode == 0
        wait_until(lambda: state(root, second["session"]).round == 2, 300, "the fix round the veto asked for")
        fixed = crumb(root, "wait", second["session"], "--json", "--timeout", "300")
        assert fixed.returncode == 3 and json.loads(fixed.stdout)["round"] == 2  # fixed, judged, waiting again
    finally:
        stop_watch(proc)
