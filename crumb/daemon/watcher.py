"""Turn file-system activity under a CRUMB root into a queue of "this file is complete" events.

What is watched (folders, never files):

    root/                            → (inbox/ or sessions/ made again: watched again, rescanned)
    root/inbox/                      → pitch_file   (a complete, non-ignored file; folders are skipped)
    root/sessions/                   → session_dir  (a session folder that is now watched)
    root/sessions/<id>/              → transcript   (transcript.jsonl grew)
    root/sessions/<id>/inbox/        → steer_file
    root/sessions/<id>/artifacts/    → spec_edit    (spec.md saved)

A file counts as complete when it was closed after writing, or renamed onto its name (atomic
save). Creation alone is not enough: the writer may still be writing (symlinks and FIFOs are the
exception: they are reported on creation, so the daemon can reject them). Names that editors use
for swap, lock, backup and temp files are ignored (files.is_ignored), and so are folders inside an
inbox (the daemon keeps rejected files there). Files found by a rescan (at start, for a new folder,
after the kernel's queue overflowed) and everything the polling backend sees have no close event,
so they are emitted once their size and mtime stay put for `settle_ms`, and only when that state
(size, mtime, inode) was not reported already.

Events are hints, not messages: repeats for one path are coalesced while queued, and a consumer
must still read the file (files.read_inbox_file) and archive what it consumed.

A session's inbox files reported before its transcript existed could not be consumed (there was
no session yet); when the transcript appears they are reported once more (transcript_appeared).

Backends: crumb.daemon.inotify (watchdog's inotify layer: one reader thread for all folders, one
kernel watch per folder: measured +6 MB and ~0 % CPU idle over 1,000 sessions) or crumb.daemon.poller
(`poll=True`, or automatically when inotify cannot be used; `backend` says which and why), which stats
each inbox folder, the files in it, and each transcript and spec.md, more often in active sessions than
in quiet ones (see its docstring): ~0.5 % of a core idle over 1,000 sessions at the default 1 s interval.
Both report through hooks the Watcher implements (inotify.InotifyReports, poller.PollReports).
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from crumb.daemon.files import is_ignored, is_regular
from crumb.daemon.inotify import ARTIFACTS, INBOX, SESSIONS, SPEC, TRANSCRIPT, Inotify
from crumb.daemon.poller import FileKind, Poller
from crumb.store.filesig import signature, signature_of

__all__ = ["WatchEvent", "WatchKind", "Watcher"]

log = logging.getLogger(__name__)

WatchKind = Literal[FileKind, "transcript", "session_dir"]
_FILE_KINDS = frozenset({"pitch_file", "steer_file", "spec_edit"})
_REMEMBER = 20_000  # emitted file states kept to skip repeats found by rescans


class WatchEvent(BaseModel):
    """Something the daemon should look at. It says where, not what: the daemon reads the file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: WatchKind
    path: Path
    session: str | None = None


class Watcher:
    """Watches a CRUMB root and queues WatchEvents; thread-safe; coalesces repeats per path."""

    def __init__(
        self,
        root: Path,
        *,
        poll: bool = False,
        settle_ms: int = 50,
        poll_interval: float = 1.0,
    ) -> None:
        self.root = Path(root).absolute()
        self.inbox = self.root / INBOX
        self.sessions = self.root / SESSIONS
        self.backend: str = "poll" if poll else "inotify"
        self.settle_s = max(settle_ms, 0) / 1000
        self.poll_interval = poll_interval
        self.overflows = 0
        #: problems worth showing a person (e.g. the inotify watch limit), newest last
        self.problems: list[str] = []

        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)  # get() waits here
        self._work = threading.Condition(self._lock)  # the settle/rescan worker waits here
        self._queue: OrderedDict[tuple[str, Path], WatchEvent] = OrderedDict()
        self._settling: dict[tuple[str, Path], tuple[WatchEvent, tuple[int, int, int], float]] = {}
        self._emitted: OrderedDict[tuple[str, Path], tuple[int, int, int]] = OrderedDict()
        self._rescan_wanted = False
        self._started = False
        self._stopped = False

        self._wlock = threading.RLock()  # watch bookkeeping
        self._sessions_known: set[Path] = set()
        self._inotify: Inotify | None = None
        self._poller: Poller | None = None
        self._worker: threading.Thread | None = None

    # ------------------------------------------------------------ public API

    def start(self) -> None:
        """Create inbox/ and sessions/ if missing, start watching, then rescan what is already there."""
        if self._started:
            return
        self._started = True
        self.inbox.mkdir(parents=True, exist_ok=True)
        self.sessions.mkdir(parents=True, exist_ok=True)
        if self.backend == "inotify":
            try:
                self._inotify = Inotify(self, self._wlock)
                self._inotify.watch("root", self.root, None, strict=True)  # to see inbox/ or sessions/ made again
                self._inotify.watch(INBOX, self.inbox, None, strict=True)
                self._inotify.watch(SESSIONS, self.sessions, None, strict=True)
            except (OSError, ImportError) as exc:
                self._close_inotify()
                self.backend = f"poll (inotify unavailable: {exc})"
                log.warning("watcher: inotify unavailable (%s); polling every %.1fs instead", exc, self.poll_interval)
        if self.backend.startswith("poll"):
            self._poller = Poller(self, self.inbox, self.sessions, self.poll_interval)
            self._poller.start()  # records what is there first: the rescan below reports it
        self._worker = threading.Thread(target=self._run_worker, name="crumb-watcher-settle", daemon=True)
        self._worker.start()
        self.rescan()

    def get(self, timeout: float | None = None) -> WatchEvent | None:
        """The oldest pending event; None after `timeout` seconds or once stopped."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._ready:
            while not self._queue or self._stopped:
                if self._stopped:
                    return None
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._ready.wait(remaining)
            return self._queue.popitem(last=False)[1]

    def rescan(self, *, force: bool = False) -> None:
        """Look at everything again: emits complete files already present, watches new folders.

        Needed at start, after the kernel dropped events (queue overflow), and for a new folder
        whose first files may have been written before its watch existed. A file whose size, mtime
        and inode were already emitted is not emitted again unless `force`.
        """
        if self._stopped:
            return
        if force:
            with self._lock:
                self._emitted.clear()
        self._scan_inbox(self.inbox, None)
        for entry in _scandir(self.sessions):
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
                self._add_session(Path(entry.path))

    def stop(self) -> None:
        """Stop watching; get() returns None from now on. Safe to call twice."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            self._ready.notify_all()
            self._work.notify_all()
        self._close_inotify()
        if self._poller is not None:
            self._poller.stop()
        if self._worker is not None and self._worker is not threading.current_thread():
            self._worker.join(timeout=10)

    def __enter__(self) -> Watcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def stopped(self) -> bool:
        """True once stop() was called."""
        return self._stopped

    @property
    def polls(self) -> int:
        """Poll rounds started (poll backend only)."""
        return self._poller.rounds if self._poller is not None else 0

    def pending(self) -> int:
        """Events queued plus files still settling (for tests and status lines)."""
        with self._lock:
            return len(self._queue) + len(self._settling)

    # ------------------------------------------------------------ emitting

    def _emit(self, kind: WatchKind, path: Path, session: str | None, *, settled: tuple[int, int, int] | None = None) -> None:
        """Queue an event, unless it is already queued; `settled` (a file's size, mtime, inode) is
        given for files found by looking rather than by a close/rename, and skips a state already
        emitted, so a rescan does not repeat a save that was reported."""
        key = (kind, path)
        sig = settled if settled is not None else signature(path)
        if sig is not None and sig[0] == 0 and kind in _FILE_KINDS and is_regular(path):
            return  # an empty file is an editor between truncate and write, or a `touch`: not a message yet
        with self._lock:
            if self._stopped:
                return
            self._settling.pop(key, None)  # a close/rename beats a settle check in progress
            if settled is not None and self._emitted.get(key) == settled:
                return
            if sig is not None:
                self._emitted[key] = sig
                self._emitted.move_to_end(key)
                if len(self._emitted) > _REMEMBER:
                    self._emitted.popitem(last=False)
            if key not in self._queue:
                self._queue[key] = WatchEvent(kind=kind, path=path, session=session)
                self._ready.notify()

    def _settle(self, kind: WatchKind, path: Path, session: str | None) -> None:
        """Emit `path` once it has not changed for settle_s (there is no close event to wait for)."""
        try:
            st = os.lstat(path)
        except OSError:
            return
        sig = signature_of(st)
        if stat.S_ISDIR(st.st_mode):
            return  # folders inside an inbox are the daemon's (e.g. inbox/rejected/)
        if not stat.S_ISREG(st.st_mode) or time.time_ns() - st.st_mtime_ns >= self.settle_s * 1e9:
            self._emit(kind, path, session, settled=sig)  # not a file (to be rejected), or quiet long enough
            return
        key = (kind, path)
        with self._lock:
            if self._stopped or key in self._queue:
                return
            self._settling[key] = (
                WatchEvent(kind=kind, path=path, session=session),
                sig,
                time.monotonic() + self.settle_s,
            )
            self._work.notify()

    def _run_worker(self) -> None:
        """Finish settle checks when due and run requested rescans; sleeps while there is nothing to do."""
        while True:
            with self._lock:
                while not self._stopped and not self._rescan_wanted:
                    due = [item[2] for item in self._settling.values()]
                    now = time.monotonic()
                    if due and min(due) <= now:
                        break
                    self._work.wait(None if not due else min(due) - now)
                if self._stopped:
                    return
                rescan, self._rescan_wanted = self._rescan_wanted, False
                now = time.monotonic()
                ripe = [(key, item) for key, item in self._settling.items() if item[2] <= now]
                for key, _ in ripe:
                    del self._settling[key]
            if rescan:
                self.rescan()
            for _key, (event, seen, _due) in ripe:
                try:
                    st = os.lstat(event.path)
                except OSError:
                    continue  # gone: nothing to read
                if signature_of(st) == seen:
                    self._emit(event.kind, event.path, event.session, settled=seen)
                else:
                    self._settle(event.kind, event.path, event.session)

    # ------------------------------------------------------------ scanning

    def _scan_inbox(self, folder: Path, session: str | None) -> None:
        kind: WatchKind = "pitch_file" if session is None else "steer_file"
        for entry in _scandir(folder):
            if not is_ignored(entry.name) and not entry.is_dir(follow_symlinks=False):
                self._settle(kind, Path(entry.path), session)

    def _scan_session(self, sdir: Path) -> None:
        sid = sdir.name
        transcript = sdir / TRANSCRIPT
        sig = signature(transcript)
        if sig is not None and transcript.is_file() and not transcript.is_symlink():
            self._emit("transcript", transcript, sid, settled=sig)  # only if it changed since last reported
        spec = sdir / ARTIFACTS / SPEC
        if os.path.lexists(spec):
            self._settle("spec_edit", spec, sid)
        self._scan_inbox(sdir / INBOX, sid)

    def _add_session(self, sdir: Path, *, scan: bool = True) -> None:
        """Watch a session folder (once) and announce it; then look at what it already holds."""
        with self._wlock:
            new = sdir not in self._sessions_known
            self._sessions_known.add(sdir)
            if self._inotify is not None:
                self._inotify.watch_session(sdir)
        if new:
            self._emit("session_dir", sdir, sdir.name)
        if scan:
            self._scan_session(sdir)

    def _close_inotify(self) -> None:
        backend, self._inotify = self._inotify, None
        if backend is not None:
            backend.close()

    # ------------------------------------------------------------ what the inotify backend reports (inotify.InotifyReports)

    def file_complete(self, kind: FileKind, path: Path, session: str | None) -> None:
        self._emit(kind, path, session)

    def session_made(self, sdir: Path) -> None:
        self._add_session(sdir)

    def rescan_session(self, sdir: Path) -> None:
        self._scan_session(sdir)

    def overflowed(self) -> None:
        with self._lock:
            if not self._rescan_wanted:
                self.overflows += 1
                log.warning("watcher: the kernel's event queue overflowed; rescanning %s", self.root)
            self._rescan_wanted = True
            self._work.notify()

    def problem(self, text: str) -> None:
        self.problems.append(text)

    # ------------------------------------------------------------ what the polling backend reports (poller.PollReports; both: session_gone, transcript_*)

    def file_seen(self, kind: FileKind, path: Path, session: str | None) -> None:
        """A file the poller found new or changed: emitted once it has settled, like a rescan's."""
        self._settle(kind, path, session)

    def transcript_changed(self, path: Path, session: str) -> None:
        """A transcript the poller saw change: emitted at once (the daemon reads it from where it was)."""
        self._emit("transcript", path, session)

    def session_found(self, sdir: Path) -> None:
        """A session folder the poller found: announced; the poller reports its files itself."""
        self._add_session(sdir, scan=False)

    def session_gone(self, sdir: Path) -> None:
        """The session folder went away: if it is made again, it is announced again."""
        with self._wlock:
            self._sessions_known.discard(sdir)

    def transcript_appeared(self, sdir: Path) -> None:
        """A session's transcript was just created: report again the files of its inbox that were
        reported before it existed, since nobody could consume them then (no session to steer).

        Only files whose current state was already reported: the others get their own event."""
        sid = sdir.name
        for entry in _scandir(sdir / INBOX):
            if is_ignored(entry.name) or entry.is_dir(follow_symlinks=False):
                continue
            path = Path(entry.path)
            key: tuple[str, Path] = ("steer_file", path)
            sig = signature(path)
            with self._lock:
                if self._stopped:
                    return
                if sig is not None and self._emitted.get(key) == sig and key not in self._queue:
                    self._queue[key] = WatchEvent(kind="steer_file", path=path, session=sid)
                    self._ready.notify()


def _scandir(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return list(it)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return []


