"""The `crumb` commands a person scripts with, run as real processes against a real daemon: the
session commands' output and exit codes, the steering shortcuts, progress only on a terminal,
`crumb run` doing a whole pitch in one process, `--json` on pitch, steer, wait and run, and `crumb pitch`
refusing (exit 2, nothing written) a binding, preset or fault the daemon would refuse or ignore."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from ulid import ULID

from crumb.daemon.lock import daemon_status
from crumb.store import paths
from tests.agents.conftest import gemini, throwaway_home  # noqa: F401  (fixtures)
from tests.daemon.conftest import crumb, events, state, wait_done
from tests.wait import wait_until


def test_pitch_wait_ls_status_tail_and_wait_exit_codes(root, daemon, gemini):  # noqa: F811
    passed = crumb(root, "pitch", "60-second snake", "--wait")
    assert passed.returncode == 0, passed.stderr
    sid = passed.stdout.strip()
    assert "done (pass)" in passed.stderr and "planning" not in passed.stderr  # piped: no progress lines

    listed = [json.loads(line) for line in crumb(root, "ls", "--json").stdout.splitlines()]
    assert [(s["session"], s["phase"]) for s in listed] == [(sid, "done")]
    assert sid in crumb(root, "ls").stdout
    status = json.loads(crumb(root, "status", sid[-6:], "--json").stdout)
    assert status["done"]["reason"] == "pass" and status["pending"] == []
    last_two = [json.loads(line) for line in crumb(root, "tail", sid, "-n", "2", "--json").stdout.splitlines()]
    assert [e["kind"] for e in last_two] == ["audit", "done"]
    followed = crumb(root, "tail", sid, "-f", "-n", "1", timeout=60)  # -f ends once the session is done
    assert followed.returncode == 0 and "done" in followed.stdout

    assert crumb(root, "wait", sid).returncode == 0
    gemini.script.always = "hang"  # a planner whose model never answers: the session surely still runs when cancelled
    cancelled = crumb(root, "pitch", "breakout with 3 lives", "--role", "planner=gemini").stdout.strip()
    wait_until(lambda: gemini.server.role_requests("planner"), 120, "the second session's planner to ask its model")
    assert crumb(root, "cancel", cancelled).returncode == 0
    assert crumb(root, "wait", cancelled).returncode == 1  # done, but not with PASS
    never = str(ULID())  # an id nothing will ever run
    late = crumb(root, "wait", never, "--timeout", "0.5")
    assert late.returncode == 2 and "still" in late.stderr


def test_steering_shortcuts_write_inbox_files_that_become_user_events(root, daemon):
    sid = crumb(root, "pitch", "pong to 5 points").stdout.strip()
    wait_done(root, sid)
    for args in (["pause", sid, "builder"], ["resume", sid, "@builder"], ["veto", sid, "too", "slow"],
                 ["approve", sid], ["steer", sid, "@builder", "make it red"]):
        out = crumb(root, *args)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"sessions/{sid}/inbox/steer-")  # the file it dropped, like any tool would
    wait_until(lambda: events(root, sid, "user.intervene"), 30, "the last message")
    got = [(e["kind"], e["data"].get("actor") or e["data"].get("reason")) for e in events(root, sid)
           if e["kind"].startswith("user.")]
    assert got == [("user.pause", "builder"), ("user.resume", "builder"), ("user.veto", "too slow"),
                   ("user.approve", None), ("user.intervene", "builder")]
    assert all(e["data"]["source"]["name"].startswith("steer-") for e in events(root, sid) if e["kind"].startswith("user."))


def test_wait_shows_progress_on_a_terminal(root, daemon):
    sid = crumb(root, "pitch", "flappy bird with 3 lives").stdout.strip()
    main, side = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "wait", sid],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=side)
    os.close(side)
    shown = b""
    while chunk := _read(main):
        shown += chunk
    os.close(main)
    assert proc.wait(timeout=60) == 0
    lines = shown.decode().splitlines()
    assert any(line.strip().endswith("done · round 1") for line in lines), lines
    assert any("done (pass)" in line for line in lines)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # EIO: the other side closed
        return b""


def test_run_does_one_pitch_in_this_process_and_prints_the_game(root):
    out = crumb(root, "run", "60-second whack-a-mole", timeout=300)
    assert out.returncode == 0, out.stderr
    game = Path(out.stdout.strip())
    assert game.name == "index.html" and game.is_file()
    sid = game.parent.parent.parent.name
    assert state(root, sid).done["reason"] == "pass"
    assert not daemon_status(root)["running"]  # the in-process daemon is gone with it


def test_waiting_with_no_daemon_says_how_to_start_one_and_keeps_the_pitch(root):
    out = crumb(root, "pitch", "60-second snake", "--wait", "--timeout", "1")
    assert out.returncode == 2
    hint = [line for line in out.stderr.splitlines() if "no crumb daemon is watching" in line]
    assert len(hint) == 1 and f"crumb --root {root} watch" in hint[0]
    assert [p.name.startswith("pitch-") for p in (root / "inbox").iterdir()] == [True]  # kept for when one starts
    again = crumb(root, "wait", out.stdout.strip(), "--timeout", "0.5")
    assert again.returncode == 2 and "no crumb daemon is watching" in again.stderr


BAD_CHOICES = [
    (["--role", "builder=nosuch"], "unknown harness 'nosuch'"),
    (["--role", "builder=command"], "builder=command names no command"),
    (["--role", "everyone=codex"], "ROLE one of planner, builder, verifier, researcher or all"),
    (["--role", "builder=command:./a\nseed: 3"], "cannot go on one front matter line"),
    (["--preset", "nosuch"], "no preset 'nosuch'"),
    (["--fault", "nosuch"], "unknown fault 'nosuch'"),
]


def test_pitch_refuses_a_choice_the_daemon_would_refuse_or_ignore_before_writing_anything(root):
    for args, words in BAD_CHOICES:
        out = crumb(root, "pitch", *args, "60-second snake")
        assert out.returncode == 2, (args, out.stderr)
        errors = [line for line in out.stderr.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1 and words in errors[0], (args, out.stderr)
        assert out.stdout == "" and list((root / "inbox").iterdir()) == []  # no session id, no file


def test_role_flags_reach_the_session_as_given_command_arguments_and_all_included(root):
    """What `crumb pitch --role` writes is exactly what the daemon reads and binds (no daemon needed:
    the daemon's own grammar and session start are run on the file)."""
    from crumb.daemon.grammar import parse_pitch
    from crumb.daemon.session_start import session_start_data

    out = crumb(root, "pitch", "--role", "builder=command:./tools/agent --fast 'two words'", "--role", "all=codex",
                "--role", "verifier=command:./judge # not a comment", "--allow-fallback", "--json", "60-second snake")
    assert out.returncode == 0, out.stderr  # none of them exists here: --allow-fallback lets it start anyway
    dropped = json.loads(out.stdout)
    assert dropped["file"].startswith("inbox/pitch-") and len(dropped["session"]) == 26
    req = parse_pitch((root / dropped["file"]).read_text())
    assert req.session == dropped["session"] and req.fallback == "allow"
    assert req.bindings == {"builder": "command:./tools/agent --fast 'two words'", "all": "codex",
                            "verifier": "command:./judge # not a comment"}
    data, warnings = session_start_data(root, req)
    assert warnings == []
    first = {role: chain[0] for role, chain in data["bindings"].items()}
    assert first["builder"]["options"] == {"command": "./tools/agent --fast 'two words'"}
    assert first["verifier"]["options"] == {"command": "./judge # not a comment"}
    assert (first["planner"]["harness"], first["researcher"]["harness"]) == ("codex", "codex")
    assert {chain[0]["origin"] for chain in data["bindings"].values()} == {"flag"}
    assert data["fallback"] == "allow" and data["unrunnable"]["builder"]["reason"] == f"{root}/tools/agent does not exist"


def test_json_output_of_pitch_steer_and_wait(root, daemon):
    dropped = json.loads(crumb(root, "pitch", "--json", "60-second snake").stdout)
    sid = dropped["session"]
    assert set(dropped) == {"session", "file"} and dropped["file"].startswith("inbox/pitch-")
    waited = crumb(root, "wait", sid, "--json")
    assert waited.returncode == 0, waited.stderr
    got = json.loads(waited.stdout)  # exactly one JSON object on stdout
    game = paths.artifacts_dir(root, sid) / "game" / "index.html"
    local = {"harness": "local", "provider": "crumb", "model": "crumb-local-1", "origin": got["played"]["planner"]["origin"],
             "index": 0, "fallback": False, "bound": "local"}
    assert got == {"session": sid, "phase": "done", "done": "pass", "detail": got["detail"], "verdict": "PASS",
                   "round": 1, "game": str(game), "played": {r: local for r in ("planner", "builder", "verifier")},
                   "fallback": False, "fallbacks": [], "waiting_for": None, "feedback": None, "next": [], "exit": 0}
    assert game.is_file() and "PASS" in got["detail"]

    for args in (["steer", sid, "@builder", "make it red"], ["approve", sid], ["pause", sid, "builder"]):
        out = crumb(root, *args, "--json")
        assert out.returncode == 0, out.stderr
        sent = json.loads(out.stdout)
        assert sent["session"] == sid and sent["file"].startswith(f"sessions/{sid}/inbox/steer-"), sent

    both = crumb(root, "pitch", "--wait", "--json", "pong to 5 points")
    assert both.returncode == 0, both.stderr
    done = json.loads(both.stdout)
    assert (done["done"], done["verdict"], done["exit"]) == ("pass", "PASS", 0) and Path(done["game"]).is_file()

    never = str(ULID())
    late = crumb(root, "wait", never, "--timeout", "0.5", "--json")
    assert late.returncode == 2
    assert json.loads(late.stdout) == {"session": never, "phase": "new", "done": None, "detail": None,
                                       "verdict": None, "round": 0, "game": None, "played": {}, "fallback": False,
                                       "fallbacks": [], "waiting_for": None, "feedback": None, "next": [], "exit": 2}


def test_run_json_says_how_the_session_ended(root):
    out = crumb(root, "run", "--json", "--fault", "crash", "60-second snake", timeout=300)
    assert out.returncode == 1, out.stderr  # done, but not with PASS
    got = json.loads(out.stdout)
    assert (got["done"], got["verdict"], got["game"], got["exit"]) == ("circuit_open", None, None, 1)
    assert state(root, got["session"]).done["reason"] == "circuit_open"
