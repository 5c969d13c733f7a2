"""What the watcher reports, when, and what it never reports: real watchdog on temporary folders."""

from __future__ import annotations

import errno
import os
import random
import threading
import time
from pathlib import Path

import pytest

import crumb.daemon.inotify as inotify_module
from crumb.daemon.files import ARCHIVE, REJECTED, InboxRead, InboxReject, archive, drop_inbox_file, read_inbox_file
from crumb.daemon.poller import COLD_EVERY
from crumb.daemon.watcher import Watcher
from tests.wait import wait_until

from .helpers import SAVERS, events_until_sentinel, next_event, wait_for


def test_half_written_file_is_reported_only_once_closed(tmp_path: Path) -> None:
    with Watcher(tmp_path, settle_ms=50) as w:
        inbox = tmp_path / "inbox"
        target = inbox / "pitch.txt"
        with open(target, "w") as fh:
            fh.write("60-second sn")
            fh.flush()
            os.fsync(fh.fileno())
            assert events_until_sentinel(w, inbox) == []  # written, still open: not complete
            fh.write("ake\n")
        assert [e.path for e in events_until_sentinel(w, inbox)] == [target]
        got = read_inbox_file(target, max_bytes=1000)
        assert isinstance(got, InboxRead) and got.text == "60-second snake\n"


def test_poll_backend_holds_back_a_file_that_keeps_changing(tmp_path: Path) -> None:
    with Watcher(tmp_path, poll=True, settle_ms=1000, poll_interval=0.05) as w:
        target = tmp_path / "inbox" / "slow.txt"
        done = threading.Event()

        def slow_writer() -> None:
            with open(target, "w") as fh:
                for i in range(60):  # a byte every 10 ms: never quiet for the 1 s settle time
                    fh.write(str(i % 10))
                    fh.flush()
                    os.utime(target)
                    done.wait(0.01)
            done.set()

        writer = threading.Thread(target=slow_writer)
        writer.start()
        early = []
        while writer.is_alive():
            ev = w.get(timeout=0.05)
            if ev is not None:
                early.append(ev)
        writer.join()
        assert early == []
        ev = next_event(w)
        assert ev.path == target
        got = read_inbox_file(target, max_bytes=1000)
        assert isinstance(got, InboxRead) and len(got.text) == 60


def test_symlinks_and_fifos_are_reported_so_they_can_be_rejected_and_kept(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    secret = watcher.root / "secret.txt"
    secret.write_text("not for the inbox\n")
    os.symlink(secret, inbox / "link.txt")
    os.mkfifo(inbox / "pipe.txt")
    events = events_until_sentinel(watcher, inbox)
    assert sorted(e.path.name for e in events) == ["link.txt", "pipe.txt"]
    for ev in events:
        started = time.monotonic()
        got = read_inbox_file(ev.path, max_bytes=65_536)
        assert time.monotonic() - started < 5  # a FIFO never blocks the reader
        assert isinstance(got, InboxReject) and got.source is None
        kept = archive(ev.path, session / ARCHIVE / REJECTED)
        assert kept.parent == session / ARCHIVE / REJECTED and os.path.lexists(kept)
    assert os.path.islink(session / ARCHIVE / REJECTED / "link.txt")  # the link itself, moved
    assert secret.read_text() == "not for the inbox\n"  # its target untouched
    assert events_until_sentinel(watcher, inbox) == []  # moving them out is not news


def test_new_session_folders_are_watched_and_rescanned_once(watcher: Watcher) -> None:
    names = [f"S{i:02d}" for i in range(20)]
    for name in names:  # what the daemon does: folder, inbox, a file straight away
        sdir = watcher.root / "sessions" / name
        (sdir / "inbox").mkdir(parents=True)
        (sdir / "artifacts").mkdir()
        (sdir / "inbox" / "first.txt").write_text(f"hello {name}\n")

    def complete(evs: list) -> bool:  # type: ignore[type-arg]
        return {(e.kind, e.session) for e in evs} >= {(k, n) for n in names for k in ("session_dir", "steer_file")}

    events = wait_for(watcher, complete)
    events += events_until_sentinel(watcher, watcher.root / "inbox")
    for name in names:
        mine = [e.kind for e in events if e.session == name]
        assert mine == ["session_dir", "steer_file"], (name, mine)
    # and the new folders stay watched
    later = watcher.root / "sessions" / "S07" / "inbox" / "later.txt"
    later.write_text("/status\n")
    assert [e.path for e in events_until_sentinel(watcher, later.parent)] == [later]


def test_transcript_appends_are_reported_and_coalesced(watcher: Watcher, session: Path) -> None:
    transcript = session / "transcript.jsonl"
    transcript.write_text('{"seq": 1}\n')  # made: its inbox's earlier files are reported again, the sentinels too
    assert {e.kind for e in events_until_sentinel(watcher, session / "inbox")} == {"transcript"}
    with open(transcript, "a") as fh:  # a writer that keeps the file open
        for i in range(200):
            fh.write(f'{{"seq": {i + 2}}}\n')
            fh.flush()
    # A consumer that takes events while the appends are still being reported gets as many events
    # as it takes turns (how many depends on the scheduler); one that was busy meanwhile finds them
    # coalesced. Be that busy consumer: take nothing until a file written after the appends is queued.
    (session / "inbox" / "zz-sentinel-after-appends.txt").write_text("sentinel\n")
    wait_until(lambda: watcher.pending() >= 2, 15, "the appends and the file after them to be queued")
    if watcher.backend.startswith("poll"):
        # a round may have looked at the transcript mid-append and at the inbox after the last append (CI, loaded):
        # a round started after both were queued that looks at the transcript (a quiet session's every COLD_EVERY
        # rounds) sees the final file, which the queued event takes in
        rounds = watcher.polls + COLD_EVERY + 1
        wait_until(lambda: watcher.polls >= rounds, 15, "a poll round to start after the appends were queued")
    events = events_until_sentinel(watcher, session / "inbox")
    assert [(e.kind, e.path, e.session) for e in events] == [("transcript", transcript, "S1")]  # 200 appends, one event


def test_spec_md_saves_are_spec_edits_and_other_artifacts_are_not(watcher: Watcher, session: Path) -> None:
    artifacts = session / "artifacts"
    (artifacts / "game").mkdir()
    (artifacts / "game" / "index.html").write_text("<canvas id=game>")
    (artifacts / "notes.md").write_text("builder notes")
    SAVERS["atomic_dot_tmp"](artifacts / "spec.md", "# Spec\n")
    events = events_until_sentinel(watcher, session / "inbox")
    assert [(e.kind, e.path, e.session) for e in events] == [("spec_edit", artifacts / "spec.md", "S1")]


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "poll"])
def test_start_reports_what_is_already_there(tmp_path: Path, poll: bool) -> None:
    sdir = tmp_path / "sessions" / "01ABC"
    (sdir / "inbox").mkdir(parents=True)
    (sdir / "artifacts").mkdir()
    (sdir / "transcript.jsonl").write_text('{"seq": 1}\n')
    (sdir / "artifacts" / "spec.md").write_text("# Spec\n")
    (sdir / "inbox" / "steer.md").write_text("/approve\n")
    (sdir / "inbox" / ".steer.md.swp").write_text("swap")
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "pitch.txt").write_text("snake\n")
    (tmp_path / "inbox" / "pitch.txt~").write_text("old snake\n")
    with Watcher(tmp_path, poll=poll, poll_interval=0.05) as w:
        got = wait_for(w, lambda evs: len(evs) >= 5)
        got += events_until_sentinel(w, tmp_path / "inbox")
    assert sorted((e.kind, e.path.name) for e in got) == [
        ("pitch_file", "pitch.txt"),
        ("session_dir", "01ABC"),
        ("spec_edit", "spec.md"),
        ("steer_file", "steer.md"),
        ("transcript", "transcript.jsonl"),
    ]


def test_a_deleted_and_recreated_session_folder_is_watched_again(watcher: Watcher, session: Path) -> None:
    for f in (session / "inbox").iterdir():
        f.unlink()
    (session / "inbox").rmdir()
    (session / "artifacts").rmdir()
    session.rmdir()
    assert events_until_sentinel(watcher, watcher.root / "inbox") == []
    (session / "inbox").mkdir(parents=True)
    ev = next_event(watcher)
    assert (ev.kind, ev.session) == ("session_dir", "S1")
    (session / "inbox" / "again.txt").write_text("/status\n")
    assert [e.path.name for e in events_until_sentinel(watcher, session / "inbox")] == ["again.txt"]


def test_inbox_and_sessions_folders_removed_and_made_again_are_watched_again(watcher: Watcher) -> None:
    import shutil

    shutil.rmtree(watcher.root / "inbox")
    shutil.rmtree(watcher.root / "sessions")
    (watcher.root / "sessions" / "S9" / "inbox").mkdir(parents=True)
    (watcher.root / "inbox").mkdir()
    (watcher.root / "inbox" / "pitch.txt").write_text("snake\n")
    got = wait_for(watcher, lambda evs: {e.kind for e in evs} >= {"pitch_file", "session_dir"})
    assert sorted((e.kind, e.path.name) for e in got) == [("pitch_file", "pitch.txt"), ("session_dir", "S9")]
    (watcher.root / "sessions" / "S9" / "inbox" / "steer.txt").write_text("/status\n")
    assert [e.path.name for e in events_until_sentinel(watcher, watcher.root / "sessions" / "S9" / "inbox")] == [
        "steer.txt"
    ]


def test_falls_back_to_polling_when_inotify_is_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_inotify() -> None:
        raise OSError(errno.EMFILE, "inotify instance limit reached")

    monkeypatch.setattr(inotify_module, "_inotify", no_inotify)
    with Watcher(tmp_path, poll_interval=0.05) as w:
        assert w.backend.startswith("poll") and "inotify instance limit reached" in w.backend
        (tmp_path / "inbox" / "pitch.txt").write_text("snake\n")
        assert [e.path.name for e in events_until_sentinel(w, tmp_path / "inbox")] == ["pitch.txt"]


def test_doctor_names_the_backend_the_daemon_really_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    """`crumb doctor` asks a real Watcher: inotify here, and polling (with why) where the daemon would poll."""
    from click.testing import CliRunner

    from crumb.cli import main as cli

    def watch_line() -> str:
        out = CliRunner().invoke(cli, ["doctor"]).output
        return next(line for line in out.splitlines() if line.startswith("watch:"))

    assert "inotify" in watch_line() and "poll" not in watch_line()

    def no_inotify() -> None:
        raise OSError(errno.EMFILE, "inotify instance limit reached")

    monkeypatch.setattr(inotify_module, "_inotify", no_inotify)
    assert "poll (inotify unavailable: [Errno 24] inotify instance limit reached)" in watch_line()


def test_a_real_kernel_queue_overflow_is_followed_by_a_rescan(tmp_path: Path) -> None:
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 40_000:
        pytest.skip(f"max_queued_events is {limit}: too many files to overflow it in a test")
    from watchdog.observers.inotify_c import DEFAULT_NUM_EVENTS

    with Watcher(tmp_path) as w:
        inbox = tmp_path / "inbox"
        # 2 events each (create, close): more than the kernel queues, plus the one buffer of events
        # watchdog's reader may take before it stops (it drains the kernel into its own unbounded
        # queue, so only a stalled reader lets the kernel's queue overflow, as on a starved machine)
        count = limit // 2 + DEFAULT_NUM_EVENTS // 2 + 500
        assert w._inotify is not None
        with w._inotify._fd._lock:  # watchdog's reader takes this lock between two reads: it stalls
            for i in range(count):
                fd = os.open(inbox / f"f{i:05d}.txt", os.O_WRONLY | os.O_CREAT, 0o644)
                os.write(fd, b"x")
                os.close(fd)
        names: set[str] = set()
        deadline = time.monotonic() + 60
        while len(names) < count and (ev := w.get(timeout=max(0.0, deadline - time.monotonic()))) is not None:
            names.add(ev.path.name)
        assert w.overflows >= 1
        assert len(names) == count and names == {f"f{i:05d}.txt" for i in range(count)}
        (inbox / "after.txt").write_text("the watcher still hears the kernel\n")  # no rescan finds this one
        assert next_event(w, deadline=60).path.name == "after.txt"


def test_a_hard_link_needs_a_rescan_and_a_rescan_finds_it(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("linked in\n")
    with Watcher(tmp_path) as w:
        os.link(outside, tmp_path / "inbox" / "linked.txt")  # IN_CREATE only: no close, no rename
        assert events_until_sentinel(w, tmp_path / "inbox") == []
        w.rescan()
        assert [e.path.name for e in events_until_sentinel(w, tmp_path / "inbox")] == ["linked.txt"]
        w.rescan()  # the same state is not reported twice ...
        assert events_until_sentinel(w, tmp_path / "inbox") == []
        w.rescan(force=True)  # ... unless asked
        assert [e.path.name for e in events_until_sentinel(w, tmp_path / "inbox")] == ["linked.txt"]


def test_stop_ends_get_and_the_threads(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    w = Watcher(tmp_path)
    w.start()
    got: list = []  # type: ignore[type-arg]
    waiter = threading.Thread(target=lambda: got.append(w.get(timeout=None)))
    waiter.start()
    w.stop()
    waiter.join(timeout=10)
    assert not waiter.is_alive() and got == [None]
    w.stop()  # twice is fine
    assert w.get(timeout=0) is None
    assert {t for t in threading.enumerate() if t.is_alive()} - before == set()


def test_drop_inbox_file_is_one_complete_event(watcher: Watcher, session: Path) -> None:
    path = drop_inbox_file(session / "inbox", "/veto the colours clash\n", stem="steer")
    assert path.parent == session / "inbox" and path.name.startswith("steer-") and path.suffix == ".txt"
    assert [e.path for e in events_until_sentinel(watcher, session / "inbox")] == [path]
    assert [p.name for p in (session / "inbox").iterdir() if p.name.startswith(".")] == []
    got = read_inbox_file(path, max_bytes=1000)
    assert isinstance(got, InboxRead) and got.text == "/veto the colours clash\n"


def test_every_message_is_consumed_exactly_once_under_concurrent_saves(watcher: Watcher, session: Path) -> None:
    """A consumer like the daemon's (read, record, archive) sees each save's text exactly once."""
    folders = {"pitch_file": watcher.root / "inbox", "steer_file": session / "inbox"}
    savers = ["plain_write", "atomic_dot_tmp", "python_tempfile", "jetbrains", "emacs", "vscode_in_place", "moved_in"]
    expected: set[str] = set()
    lock = threading.Lock()

    def producer(n: int) -> None:
        rng = random.Random(n)
        for i in range(15):
            kind = rng.choice(sorted(folders))
            text = f"message {n}-{i} via {rng.choice(savers)}\n"
            with lock:
                expected.add(text)
            SAVERS[text.split(" via ")[1].strip()](folders[kind] / f"m-{n}-{i}.txt", text)

    threads = [threading.Thread(target=producer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    recorded: list[str] = []
    deadline = time.monotonic() + 60
    while (any(t.is_alive() for t in threads) or len(recorded) < len(expected)) and time.monotonic() < deadline:
        ev = watcher.get(timeout=0.1)
        if ev is None or ev.path.name.startswith("zz-sentinel-"):
            continue
        got = read_inbox_file(ev.path, max_bytes=65_536)
        if isinstance(got, InboxRead):
            recorded.append(got.text)
            archive(ev.path, ev.path.parent / ARCHIVE)
        else:
            assert got is None, got
    for t in threads:
        t.join()
    for folder in folders.values():
        for ev in events_until_sentinel(watcher, folder):
            assert read_inbox_file(ev.path, max_bytes=65_536) is None, ev  # nothing new after the archive
    assert sorted(recorded) == sorted(expected)
    archived = sorted(p.read_text() for f in folders.values() for p in (f / ARCHIVE).iterdir())
    assert archived == sorted(expected)
