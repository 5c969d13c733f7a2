"""`crumb fork`: a real finished session (embedded studio, real daemon, real Chromium QA) forked at its
spec with another binding and at its build; the fork reaches PASS, its copied prefix is the original's
re-stamped, its replay equals the live daemon's state, and the bad cuts are refused in one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from crumb.cli import main
from crumb.daemon.fork import ForkProblem, cut
from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.replay import replay_file
from crumb.store import paths
from tests.daemon.conftest import events, sessions, wait_done
from tests.wait import wait_until


def _cli(root: Path, *args: str) -> Any:
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)


def _original(root: Path) -> str:
    (root / "inbox" / "pitch.txt").write_text("60-second snake\n", encoding="utf-8")
    sid = wait_until(lambda: sessions(root) and sessions(root)[0], 30, "the session")
    assert wait_done(root, sid).done["reason"] == "pass"
    return sid


def _fork(root: Path, sid: str, *args: str) -> str:
    res = _cli(root, "fork", sid, *args)
    assert res.exit_code == 0, res.output
    return res.output.strip().splitlines()[-1]


def _same_as_live(daemon: Any, root: Path, sid: str) -> None:
    replayed = replay_file(paths.transcript_path(root, sid), validate=True)
    live = wait_until(lambda: daemon.daemon.sessions.get(sid), 30, "the daemon to load the fork")
    wait_until(lambda: live.state.last_seq == replayed.last_seq, 30, "the daemon to reduce every line")
    assert live.state.state_hash() == replayed.state_hash()


def test_fork_at_spec_with_another_binding_continues_to_pass_and_replays(root, daemon):
    sid = _original(root)
    original = events(root, sid)
    c = cut(root, sid, "spec")
    fid = _fork(root, sid, "--at", "spec", "--preset", "cross-local")
    state = wait_done(root, fid, timeout=300)  # two rounds of real QA, the first checked twice: minutes when loaded
    assert state.done["reason"] == "pass"
    assert state.round == 2  # cross-local broke the first build on purpose: the fix loop ran in the fork
    got = events(root, fid)
    # the prefix: the original's lines, re-stamped (session, ids), seq and kinds kept, references rewritten
    ids = {}
    for old, new in zip(original[: c.seq], got[: c.seq], strict=True):
        assert (new["seq"], new["kind"], new["from"]) == (old["seq"], old["kind"], old["from"])
        assert new["session"] == fid and new["id"] != old["id"]
        ids[old["id"]] = new["id"]
        if old.get("parent"):
            assert new["parent"] == ids[old["parent"]]
        if old.get("effect"):
            eid, _, n = old["effect"].partition(".")
            assert new["effect"] == f"{ids[eid]}.{n}"
        assert sid not in json.dumps(new)
    fork = got[c.seq]
    assert fork["kind"] == "session.fork"
    assert fork["data"]["forked_from"] == {"session": sid, "seq": c.seq, "event": original[c.seq - 1]["id"]}
    assert fork["data"]["fault"] == "noinput" and fork["data"]["preset"] == "cross-local"
    # the builder's run pending at the cut is issued again by the fork line, under the new binding
    started = [e for e in got[c.seq + 1:] if e["kind"] == "effect.started"]
    assert started[0]["effect"] == f"{fork['id']}.1" and started[0]["data"]["actor"] == "builder"
    assert (paths.spec_md_path(root, fid)).read_text() == (paths.spec_md_path(root, sid)).read_text()
    assert not [e for e in got if e["kind"] == "spec.update"]  # the rendered spec.md is not taken for an edit
    assert events(root, sid) == original  # the original is only read
    _same_as_live(daemon, root, fid)
    res = _cli(root, "replay", "--strict", fid)
    assert res.exit_code == 0, res.output


def test_fork_at_build_copies_the_game_and_runs_qa_on_it(root, daemon):
    sid = _original(root)
    fid = _fork(root, sid, "--at", "build", "--role", "builder=local")
    state = wait_done(root, fid)
    assert state.done["reason"] == "pass"
    build = [e for e in events(root, fid) if e["kind"] == "build"]
    assert len(build) == 1  # nothing built again: QA and the Verifier ran on the copied game
    for entry in build[0]["data"]["manifest"]["files"]:
        data = (paths.game_dir(root, fid) / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    _same_as_live(daemon, root, fid)


def test_bad_cuts_are_one_line_errors(root, daemon):
    sid = _original(root)
    last = events(root, sid)[-1]["seq"]
    res = _cli(root, "fork", sid, "--at", str(last + 5))
    assert res.exit_code == 1 and res.output.count("\n") == 1
    assert f"--at {last + 5} is out of range: session {sid} has events 1..{last}" in res.output
    res = _cli(root, "fork", sid, "--at", "nowhere")
    assert res.exit_code == 1 and "is not a seq" in res.output
    # the game changed since the build (what a running session's next build does): refused, not copied wrong
    index = paths.game_dir(root, sid) / "index.html"
    index.write_text(index.read_text() + "<!-- changed -->")
    res = _cli(root, "fork", sid, "--at", "build")
    assert res.exit_code == 1 and "changed" in res.output and res.output.count("\n") == 1
    assert not list((root / "inbox").glob("fork*"))


def test_pending_effects_at_any_cut_are_issued_again_under_the_fork(root, daemon):
    """Cut at every line of a real session: the fork's state after its fork line has, for each run
    pending at the cut, one pending run of the same actor under an id of the fork line (pure reducer)."""
    sid = _original(root)
    evs = events(root, sid)
    for seq in range(1, len(evs) + 1):
        c = cut(root, sid, str(seq))
        before = {e.actor for e in c.state.pending.values() if type(e).__name__ != "Record"}
        state = c.state.copy()
        fork_line = {"v": 1, "seq": seq + 1, "id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "ts": evs[seq - 1]["ts"], "session": sid,
                     "kind": "session.fork", "from": "daemon", "data": {"forked_from": {"session": sid, "seq": seq,
                     "event": evs[seq - 1]["id"]}, "bindings": {"builder": [{"harness": "local", "origin": "flag"}]}}}
        effects = apply(state, fork_line)
        after = {e.actor for e in state.pending.values() if type(e).__name__ != "Record"}
        assert before == after
        assert all(e.id.startswith("01ZZZZZZZZZZZZZZZZZZZZZZZZ.") for e in effects)
        if state.done is None:
            assert state.bindings["builder"][0]["origin"] == "flag"
    try:
        cut(root, sid, "0")
    except ForkProblem as err:
        assert "out of range" in str(err)
    else:
        raise AssertionError("seq 0 was accepted")
    assert initial_state(sid).forked_from is None
