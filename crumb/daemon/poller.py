"""The polling backend of the Watcher: a few stats per session per round instead of a tree snapshot.

Used with `crumb watch --poll` and wherever inotify cannot be used (network drives, some containers).
It reports what the inotify backend reports (through `PollReports`, hooks the Watcher implements, so
settling, the exactly-once bookkeeping and the half-written-file rule are the Watcher's, not redone
here), and it only looks at what can change something:

- each inbox folder's own stat (its mtime moves when a file is created, renamed in or removed); the
  folder is listed only when that changed, plus one more time while its mtime is within RACY_NS of
  now (two changes inside one clock tick leave the mtime equal), plus every FULL_EVERY rounds;
- each file currently in an inbox (usually none: the daemon archives what it reads), for in-place
  rewrites that do not touch the folder;
- each session's transcript.jsonl and artifacts/spec.md (size, mtime, inode).

The root inbox, and every session where something changed in the last HOT_S seconds, are checked
every round. A quiet session (finished, or waiting for a person) has its inbox checked every
COLD_INBOX_EVERY rounds and its transcript and spec.md every COLD_EVERY rounds, spread evenly over
the rounds; any change makes it active again. So at the default 1 s interval a save is seen within
1 s in an active session and within 2 s in a quiet one, and an idle daemon over 1,000 sessions does
about 1,000 stats a second instead of a tree snapshot (bench/inbox_latency.py: ~0.5 % of a core, where watchdog's PollingObserver takes ~7-9 %).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISDIR
from typing import Literal, Protocol

from crumb.daemon.files import is_ignored
from crumb.store import paths
from crumb.store.filesig import FileSig, signature

__all__ = ["FileKind", "Poller", "PollReports"]

log = logging.getLogger(__name__)

RACY_NS = 1_000_000_000  # list a folder again while its mtime is this recent: same-tick changes keep the mtime
FULL_EVERY = 30  # rounds between listings of every folder, whatever their stat says (clock skew on network drives)
HOT_S = 60.0  # a session with a change this recent is checked in full every round
COLD_INBOX_EVERY = 2  # otherwise its inbox every this many rounds
COLD_EVERY = 4  # and its transcript and spec.md every this many (a multiple of COLD_INBOX_EVERY)

FileKind = Literal["pitch_file", "steer_file", "spec_edit"]


class PollReports(Protocol):
    """Where the poller reports what it saw (the Watcher): the same hooks the inotify backend ends in."""

    def file_seen(self, kind: FileKind, path: Path, session: str | None) -> None:
        """A file is new or changed, with no close event to say it is complete: report it once settled."""
        ...

    def transcript_changed(self, path: Path, session: str) -> None:
        """A session's transcript.jsonl changed (it is read from the last position, so no settling)."""
        ...

    def session_found(self, sdir: Path) -> None:
        """A session folder appeared: announce it (its files are reported one by one after)."""
        ...

    def session_gone(self, sdir: Path) -> None:
        """A session folder went away (or was made again under its name)."""
        ...

    def transcript_appeared(self, sdir: Path) -> None:
        """A session's transcript was just created: its inbox's earlier files can be consumed now."""
        ...


def _dir_sig(path: str) -> tuple[int, int] | None:
    """The folder's (inode, mtime_ns), or None when it is not there (or not a folder)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns) if S_ISDIR(st.st_mode) else None


@dataclass
class _Listing:
    """What one watched folder held when last listed, and each of its files' last seen state."""

    path: str
    sig: tuple[int, int] | None = None
    racy: bool = False
    files: dict[str, FileSig | None] = field(default_factory=dict)

    def changed(self, full: bool, *, dirs: bool = False) -> list[str] | None:
        """Names added since the last listing (None when the folder was not listed this round).

        Listing keeps non-ignored files (or, with `dirs`, folders not starting with a dot); names
        that went away are dropped."""
        sig = _dir_sig(self.path)
        if sig == self.sig and not self.racy and not full:
            return None  # the common case, kept cheap: one lstat
        if sig is None:
            self.sig, self.racy = None, False
            self.files.clear()
            return []
        listed_at = time.time_ns()
        recreated = self.sig is not None and sig[0] != self.sig[0]
        self.sig = sig
        self.racy = sig[1] >= listed_at - RACY_NS
        names = set()
        try:
            with os.scandir(self.path) as it:
                for entry in it:
                    if dirs:
                        if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
                            names.add(entry.name)
                    elif not is_ignored(entry.name) and not entry.is_dir(follow_symlinks=False):
                        names.add(entry.name)
        except OSError:
            pass  # gone between the stat and the listing: the next round sees that
        if recreated:
            self.files.clear()
        for name in [n for n in self.files if n not in names]:
            del self.files[name]
        added = [n for n in sorted(names) if n not in self.files]
        for name in added:
            self.files[name] = None
        return added


@dataclass
class _Session:
    """One session folder: its paths (made once: building paths each round costs more than the stats)."""

    path: Path
    ino: int
    slot: int
    hot_until: float
    sid: str = field(init=False)
    inbox: _Listing = field(init=False)
    transcript_path: str = field(init=False)
    spec_path: str = field(init=False)
    transcript: FileSig | None = None
    spec: FileSig | None = None

    def __post_init__(self) -> None:
        self.sid = self.path.name
        self.inbox = _Listing(os.path.join(self.path, paths.INBOX))
        self.transcript_path = os.path.join(self.path, paths.TRANSCRIPT)
        self.spec_path = os.path.join(self.path, paths.ARTIFACTS, paths.SPEC_MD)


class Poller:
    """Runs poll rounds on a thread over a root's inbox/ and sessions/, and tells `reports` what changed."""

    def __init__(self, reports: PollReports, inbox: Path, sessions: Path, interval: float) -> None:
        self.reports = reports
        self.interval = max(interval, 0.01)
        #: poll rounds started
        self.rounds = 0
        self._inbox = _Listing(str(inbox))
        self._sessions_dir = _Listing(str(sessions))
        self._sessions: dict[str, _Session] = {}
        self._next_slot = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Record what is there now without reporting it (the Watcher's start-up rescan does), then poll."""
        self._round(report=False)
        self._thread = threading.Thread(target=self._run, name="crumb-watcher-poll", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self._round(report=True)
            except Exception:  # a bug here must not end polling: log it, poll again next round
                log.exception("watcher: poll round failed")

    def _round(self, *, report: bool) -> None:
        self.rounds += 1
        full = not report or self.rounds % FULL_EVERY == 0  # the first round records everything
        now = time.monotonic()
        self._check_inbox(self._inbox, None, full, report)
        self._check_sessions(full, now, report)
        cold_slot, cold_inbox_slot = self.rounds % COLD_EVERY, self.rounds % COLD_INBOX_EVERY
        lstat = os.lstat
        for sess in list(self._sessions.values()):
            hot = full or sess.hot_until > now
            deep = hot or sess.slot % COLD_EVERY == cold_slot
            inbox = sess.inbox
            if not deep and not inbox.racy and not inbox.files and inbox.sig is not None:
                if sess.slot % COLD_INBOX_EVERY != cold_inbox_slot:
                    continue  # a quiet session's inbox, not due this round
                try:  # the usual case, inlined: one lstat says this quiet session's inbox is as it was
                    st = lstat(inbox.path)
                    if (st.st_ino, st.st_mtime_ns) == inbox.sig:
                        continue
                except OSError:
                    pass
            if self._stop.is_set():
                return
            if self._check_session(sess, deep, full, report) and report:
                sess.hot_until = time.monotonic() + HOT_S

    def _check_inbox(self, listing: _Listing, session: str | None, full: bool, report: bool) -> bool:
        """Look for new and rewritten files in one inbox; True when anything changed."""
        added = listing.changed(full)
        changed = bool(added)
        kind: FileKind = "pitch_file" if session is None else "steer_file"
        for name, seen in list(listing.files.items()):
            path = os.path.join(listing.path, name)
            sig = signature(path)
            if sig == seen:
                continue
            listing.files[name] = sig
            if sig is not None:
                changed = True
                if report:
                    self.reports.file_seen(kind, Path(path), session)
        return changed

    def _check_sessions(self, full: bool, now: float, report: bool) -> None:
        """Notice session folders made, removed or made again (a new inode under the same name)."""
        if self._sessions_dir.changed(full, dirs=True) is None:
            return
        present = self._sessions_dir.files
        for name in list(self._sessions):
            sess = self._sessions[name]
            if name not in present or _ino(sess.path) != sess.ino:
                del self._sessions[name]
                self.reports.session_gone(sess.path)
        for name in present:
            if name in self._sessions:
                continue
            sdir = Path(self._sessions_dir.path) / name
            ino = _ino(sdir)
            if ino is None:
                continue
            # found at start: cold until something changes; made while we run: hot (a new session)
            self._sessions[name] = _Session(sdir, ino, self._next_slot, hot_until=now + HOT_S if report else 0.0)
            self._next_slot += 1
            if report:
                self.reports.session_found(sdir)  # announced before its files

    def _check_session(self, sess: _Session, deep: bool, full: bool, report: bool) -> bool:
        reports = self.reports
        sid = sess.sid
        changed = False
        if deep:
            sig = signature(sess.transcript_path)
            if sig != sess.transcript:
                appeared = sess.transcript is None
                sess.transcript, changed = sig, True
                transcript = Path(sess.transcript_path)
                if report and sig is not None and transcript.is_file() and not transcript.is_symlink():
                    reports.transcript_changed(transcript, sid)
                    if appeared:
                        reports.transcript_appeared(sess.path)
            sig = signature(sess.spec_path)
            if sig != sess.spec:
                sess.spec, changed = sig, True
                if report and sig is not None:
                    reports.file_seen("spec_edit", Path(sess.spec_path), sid)
        return self._check_inbox(sess.inbox, sid, full, report) or changed


def _ino(path: Path) -> int | None:
    try:
        return os.lstat(path).st_ino
    except OSError:
        return None
