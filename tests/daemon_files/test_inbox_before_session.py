"""A file saved into sessions/<id>/inbox/ before that session has a transcript is read once it has one."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from ulid import ULID

from crumb.daemon.daemon import Daemon
from crumb.settings import Settings
from crumb.store import paths
from crumb.store.reader import read_events
from crumb.store.writer import TranscriptWriter
from tests.wait import wait_until

from .helpers import SAVERS, events_until_sentinel

#: a guard against a file never read, not a measure of how soon: beside the other worker's browser tests the
#: polling backend's rounds were seen to stand still for 7-12 s, and a fresh-clone CI run timed out at 20 s.
#: Not the poller's doing: every thread was asleep in the kernel (py-spy), and two unrelated processes,
#: vmstat among them, missed the same 3-8 s, while a hung game's renderers spun (2026-12-05)
HANG_S = 90


def start_paused_session(root: Path, sid: str) -> None:
    """What `crumb`'s writer leaves for a session that waits for a person: a transcript, paused."""
    w = TranscriptWriter(paths.transcript_path(root, sid), sid, fsync="never")
    w.append("session.start", {"settings": Settings().to_data()}, from_="daemon")
    w.append("user.pause", {}, from_="user")


def notes(root: Path, sid: str) -> list[str]:
    path = paths.transcript_path(root, sid)
    return [e["data"]["text"] for e in read_events(path) if e["kind"] == "user.note"] if path.exists() else []


@contextmanager
def running_daemon(root: Path, *, poll: bool) -> Iterator[Daemon]:
    daemon = Daemon(root, poll=poll, echo=False, workers=2)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    wait_until(lambda: daemon.ready.is_set() or not thread.is_alive(), HANG_S, "daemon ready")
    assert thread.is_alive(), "the daemon did not start"
    try:
        yield daemon
    finally:
        daemon.stop()
        thread.join(timeout=60)


def steer_and_wait(root: Path, sid: str, text: str) -> None:
    """Steer a session and wait until it is recorded: everything the watcher reported before is handled."""
    SAVERS["atomic_dot_tmp"](paths.session_inbox(root, sid) / f"{ULID()}.txt", f"/note {text}\n")
    wait_until(lambda: text in notes(root, sid), HANG_S, f"note {text!r} in {sid}")


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "poll"])
def test_a_file_saved_before_the_transcript_is_read_once_the_transcript_appears(tmp_path: Path, poll: bool) -> None:
    root = tmp_path
    early, other = str(ULID()), str(ULID())
    for sid in (early, other):
        for sub in ("inbox", "artifacts"):
            paths.session_dir(root, sid).joinpath(sub).mkdir(parents=True)
    start_paused_session(root, other)
    saved = paths.session_inbox(root, early) / "steer.txt"
    saved.write_text("/note the early bird\n")
    old = time.time() - 60  # saved a while ago: the start-up scan reports it at once, not after settling
    os.utime(saved, (old, old))

    with running_daemon(root, poll=poll):
        steer_and_wait(root, other, "after the start-up scan")  # the early file's event has been handled
        assert saved.exists() and not paths.transcript_path(root, early).exists()  # no session to steer yet

        start_paused_session(root, early)  # e.g. another process using crumb's writer
        wait_until(lambda: notes(root, early) == ["the early bird"] and not saved.exists(), HANG_S,
                   "the early file read and archived")
        steer_and_wait(root, early, "later")
        assert notes(root, early) == ["the early bird", "later"]
        assert [p.read_text() for p in (paths.session_dir(root, early) / "archive").iterdir()
                if p.name == "steer.txt"] == ["/note the early bird\n"]

    with running_daemon(root, poll=poll):  # a restart finds nothing left to read: still exactly once
        steer_and_wait(root, early, "after the restart")
        assert notes(root, early) == ["the early bird", "later", "after the restart"]


def test_the_watcher_reports_such_a_file_again_when_the_transcript_appears(watcher, session: Path) -> None:  # type: ignore[no-untyped-def]
    inbox = session / "inbox"
    (inbox / "steer.txt").write_text("/note hello\n")
    assert [e.path.name for e in events_until_sentinel(watcher, inbox)] == ["steer.txt"]  # no transcript yet
    (session / "transcript.jsonl").write_text('{"seq": 1}\n')
    got = events_until_sentinel(watcher, inbox)
    assert [e.path.name for e in got if e.kind == "steer_file"] == ["steer.txt"]  # once more, once
    assert {e.kind for e in got} == {"steer_file", "transcript"}
    assert got[0].kind == "transcript"  # the session is there before its inbox is reported again
    with open(session / "transcript.jsonl", "a") as fh:  # a transcript growing is not news for the inbox
        fh.write('{"seq": 2}\n')
    assert {e.kind for e in events_until_sentinel(watcher, inbox)} == {"transcript"}
