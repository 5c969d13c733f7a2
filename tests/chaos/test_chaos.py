"""Chaos: sessions run while steering files keep arriving and the daemon is SIGKILLed at random moments.

`make test` runs the short form (6 sessions, 3 kills); `make chaos` the long one (24 sessions, 32
kills; CRUMB_CHAOS_KILLS, CRUMB_CHAOS_SESSIONS, CRUMB_CHAOS_SEED change it). Afterwards every session is finished, every dropped file was recorded exactly once,
every transcript is valid with contiguous seq, replay equals the live daemon's state, and no browser
or agent process outlived the daemon that started it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
import uuid
from pathlib import Path

import pytest

from crumb.store import paths
from crumb.store.reader import read_events
from tests.daemon.conftest import RunningDaemon, crumb, drop, start_watch, state, tagged_processes
from tests.wait import wait_until

FIGURES = Path(os.environ.get("CRUMB_CHAOS_FIGURES", Path(__file__).resolve().parents[2] / "bench" / "out"))


def report(form: str, figures: dict) -> None:
    """Print the figures and keep them in bench/out/chaos-<form>.json (the README quotes the last run)."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"chaos-{form}.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nchaos {form}:", json.dumps(figures))


PITCHES = [
    "60-second snake", "breakout with 3 lives", "flappy bird", "endless runner in the desert", "space shooter",
    "platform jumper", "whack-a-mole for 30 seconds", "memory cards", "2048", "falling blocks", "cookie clicker",
    "match-3 with combo bonus", "pong to 7", "dodge the cars", "simon says", "stacker tower",
    "neon snake with 5 lives", "pastel breakout", "90-second match-3", "underwater shooter", "red runner",
    "simon with 4 colours", "snake in space", "whack a mole with 2 lives",
]


def crash(proc) -> None:
    """SIGKILL the daemon process alone (not its group): its children must not outlive it."""
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def run_chaos(root: Path, qa_runner, *, sessions: int, kills: int, seed: int) -> dict:
    rng = random.Random(seed)
    (root / "inbox").mkdir(parents=True, exist_ok=True)
    pitches = [PITCHES[i % len(PITCHES)] for i in range(sessions)]
    expected_notes: dict[str, list[str]] = {}
    ids: list[str] = []
    orphans = 0
    kills_done = 0
    drops = 0
    tag = {"CRUMB_CHAOS_TAG": uuid.uuid4().hex}
    proc = start_watch(root, tag)
    try:
        actions = ["pitch"] * sessions + ["steer"] * (sessions * 2) + ["kill"] * kills
        rng.shuffle(actions)
        actions.insert(0, actions.pop(actions.index("pitch")))  # a pitch first, so no steering file is drawn for nothing
        # every session's pitch comes before its notes: steer only sessions that exist
        for action in actions:
            if action == "pitch" and len(ids) < sessions:
                out = crumb(root, "pitch", pitches[len(ids)], "--seed", str(len(ids) + 1))
                assert out.returncode == 0, out.stderr
                ids.append(out.stdout.strip())
                drops += 1
            elif action == "steer" and ids:
                sid = rng.choice(ids)
                text = f"chaos note {drops}"
                drop(paths.session_inbox(root, sid), f"note-{drops}.txt", f"/note {text}\n")
                expected_notes.setdefault(sid, []).append(text)
                drops += 1
            elif action == "kill":
                time.sleep(rng.uniform(0.0, 0.8))  # a random moment, not a synchronisation
                crash(proc)
                kills_done += 1
                orphans += left_behind(tag["CRUMB_CHAOS_TAG"])
                proc = start_watch(root, tag)
        crash(proc)
        orphans += left_behind(tag["CRUMB_CHAOS_TAG"])
    finally:
        if proc.poll() is None:
            crash(proc)

    # a last, in-process daemon finishes whatever is left, so its live state can be compared with replay
    with RunningDaemon(root, qa_runner) as final:
        for sid in ids:
            try:
                wait_until(lambda sid=sid: state(root, sid).done is not None and not any(
                    p.is_file() for p in paths.session_inbox(root, sid).iterdir()), 300, f"{sid} finished")
            except AssertionError as err:
                raise AssertionError(f"{err}; {where_it_stands(root, sid)}") from None
        for sid in ids:  # the file has the last line before the daemon has reduced it
            wait_until(lambda sid=sid: final.daemon.sessions[sid].state.last_seq == state(root, sid).last_seq, 60,
                       f"{sid} reduced to its last line")
        live = {sid: final.daemon.sessions[sid].state.state_hash() for sid in ids}

    recorded_once = 0
    for sid in ids:
        events = list(read_events(paths.transcript_path(root, sid), validate=True))
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), f"{sid}: seq not contiguous"
        goals = [e for e in events if e["kind"] == "goal"]
        assert len(goals) == 1, f"{sid}: {len(goals)} goals"
        notes = [e["data"]["text"] for e in events if e["kind"] == "user.note"]
        assert sorted(notes) == sorted(expected_notes.get(sid, [])), f"{sid}: notes lost or doubled"
        recorded_once += len(notes) + 1
        assert state(root, sid).state_hash() == live[sid], f"{sid}: replay differs from the live state"
        assert state(root, sid).done is not None
    assert not [p for p in (root / "inbox").iterdir() if p.is_file()], "a pitch was left in the inbox"
    assert orphans == 0, f"{orphans} daemon(s) left processes behind"
    return {"sessions": len(ids), "kills": kills_done, "files_dropped": drops, "recorded_exactly_once": recorded_once,
            "orphans": orphans, "seed": seed}


def where_it_stands(root: Path, sid: str) -> str:
    """What a session that did not finish was doing: its last events, what is pending, what is unread
    (pytest's temporary folders do not outlive other runs for long, so the failure message must say it)."""
    last = [f"#{e['seq']} {e['kind']} {e.get('body', '')[:60]}"
            for e in read_events(paths.transcript_path(root, sid))][-8:]
    pending = [f"{e['kind']} {e.get('actor') or ''} attempt {e.get('attempt', 1)}"
               for e in state(root, sid).pending.values()]
    unread = sorted(p.name for p in paths.session_inbox(root, sid).iterdir() if p.is_file())
    return f"last events {last}; pending {pending}; unread in its inbox {unread}"


def left_behind(tag: str, timeout: float = 30) -> int:
    """How many processes a killed daemon left running (browser, agents); they are then killed."""
    try:
        wait_until(lambda: not tagged_processes(tag), timeout, "the killed daemon's children to exit")
        return 0
    except AssertionError:
        stray = tagged_processes(tag)
        for pid in stray:
            try:
                os.kill(pid, signal.SIGKILL)  # do not let one failure poison the rest of the run
            except ProcessLookupError:
                pass
        return len(stray)


@pytest.mark.timeout(1200)
def test_chaos_short(tmp_path: Path, qa_runner) -> None:
    figures = run_chaos(tmp_path / "root", qa_runner, sessions=6, kills=3, seed=int(os.environ.get("CRUMB_CHAOS_SEED", 7)))
    report("short", figures)
    assert figures["files_dropped"] == 6 * 3, figures  # every pitch and every steering file was dropped
    assert figures["recorded_exactly_once"] == figures["files_dropped"]


@pytest.mark.chaos_long
@pytest.mark.timeout(5400)
def test_chaos_long(tmp_path: Path, qa_runner) -> None:
    figures = run_chaos(tmp_path / "root", qa_runner, sessions=int(os.environ.get("CRUMB_CHAOS_SESSIONS", 24)),
                        kills=int(os.environ.get("CRUMB_CHAOS_KILLS", 32)), seed=int(os.environ.get("CRUMB_CHAOS_SEED", 11)))
    report("long", figures)
    assert figures["recorded_exactly_once"] == figures["files_dropped"] and figures["kills"] >= 30
