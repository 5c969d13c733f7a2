"""The polling backend: cheap when idle over many sessions, and still misses nothing."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import crumb.daemon.poller as poller_module
from crumb.daemon.watcher import Watcher
from tests.wait import wait_until

from .helpers import SAVERS, events_until_sentinel, next_event, wait_for


def make_sessions(root: Path, n: int) -> None:
    for i in range(n):
        sdir = root / "sessions" / f"S{i:04d}"
        (sdir / "inbox").mkdir(parents=True)
        (sdir / "artifacts").mkdir()
        (sdir / "transcript.jsonl").write_text('{"seq": 1}\n')
        (sdir / "artifacts" / "spec.md").write_text("# Spec\n")


class FsCalls:
    """Counts the stats and listings the poll thread makes (a round's cost, without timing anything)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.counting = False
        real_lstat, real_scandir = os.lstat, os.scandir

        def lstat(path, *a, **k):  # type: ignore[no-untyped-def]
            self._count()
            return real_lstat(path, *a, **k)

        def scandir(path=".", *a, **k):  # type: ignore[no-untyped-def]
            self._count()
            return real_scandir(path, *a, **k)

        monkeypatch.setattr(poller_module.os, "lstat", lstat)
        monkeypatch.setattr(poller_module.os, "scandir", scandir)

    def _count(self) -> None:
        if self.counting and threading.current_thread().name == "crumb-watcher-poll":
            self.calls += 1


def walk_calls(root: Path) -> int:
    """What one round of a tree-snapshot poller does: list every watched folder, stat every entry."""
    calls = 0
    folders = [root / "inbox", root / "sessions"]
    for sdir in (root / "sessions").iterdir():
        folders += [sdir, sdir / "inbox", sdir / "artifacts"]
    for folder in folders:
        calls += 1 + sum(1 for _ in os.scandir(folder))
    return calls


@pytest.fixture
def quiet_root(tmp_path: Path) -> Path:
    make_sessions(tmp_path, 1000)
    (tmp_path / "inbox").mkdir()
    return tmp_path


def test_an_idle_poll_round_over_1000_sessions_costs_a_fraction_of_one_walk_of_the_tree(
        quiet_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Idle over 1,000 sessions a round makes far fewer file-system calls than one walk of the tree
    (watchdog's snapshot poller walks it every round: ~7 % of a core, bench/inbox_latency.py)."""
    fs = FsCalls(monkeypatch)
    with Watcher(quiet_root, poll=True, poll_interval=0.01) as w:
        while w.get(timeout=1.0) is not None:  # the start-up scan
            pass
        first = w.polls
        fs.counting = True
        wait_until(lambda: w.polls >= first + 60, 60, "60 poll rounds")
        fs.counting = False
        rounds = w.polls - first
    per_round, walk = fs.calls / rounds, walk_calls(quiet_root)
    assert per_round <= walk / 4, f"an idle poll round made {per_round:.0f} file-system calls; one walk makes {walk}"


@pytest.fixture
def cold_watcher(quiet_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Watcher]:
    """A polling watcher where every session is "cold" (nothing changed lately): the cheapest checks."""
    monkeypatch.setattr(poller_module, "HOT_S", 0.0)
    with Watcher(quiet_root, poll=True, poll_interval=0.02) as w:
        while w.get(timeout=1.0) is not None:
            pass
        yield w


def test_cold_sessions_still_report_steering_transcripts_and_spec_edits(cold_watcher: Watcher) -> None:
    sdir = cold_watcher.root / "sessions" / "S0421"
    SAVERS["vscode_in_place"](sdir / "inbox" / "steer.txt", "/approve\n")
    with open(sdir / "transcript.jsonl", "a") as fh:
        fh.write('{"seq": 2}\n')
    SAVERS["vscode_in_place"](sdir / "artifacts" / "spec.md", "# Spec\n\nbigger snake\n")
    got = wait_for(cold_watcher, lambda evs: len({e.kind for e in evs}) == 3)  # quiet sessions: a few rounds
    got += events_until_sentinel(cold_watcher, sdir / "inbox")
    assert sorted((e.kind, e.path.name, e.session) for e in got) == [
        ("spec_edit", "spec.md", "S0421"),
        ("steer_file", "steer.txt", "S0421"),
        ("transcript", "transcript.jsonl", "S0421"),
    ]
    SAVERS["plain_write"](sdir / "inbox" / "steer.txt", "/approve\n/note and quickly\n")  # rewritten in place
    assert [e.path.name for e in events_until_sentinel(cold_watcher, sdir / "inbox")] == ["steer.txt"]


@pytest.mark.parametrize("age_s", [0, 3600], ids=["same-clock-tick", "clock-skewed-server"])
def test_a_file_added_without_moving_the_folder_mtime_is_still_reported(cold_watcher: Watcher, age_s: int) -> None:
    """Two saves inside one tick of the file system's clock leave the folder's mtime as it was, and a
    network drive stamps folders with the server's clock: the folder is listed again anyway."""
    inbox = cold_watcher.root / "sessions" / "S0007" / "inbox"
    stamp = time.time_ns() - age_s * 1_000_000_000
    os.utime(inbox, ns=(stamp, stamp))
    first = cold_watcher.polls
    wait_until(lambda: cold_watcher.polls >= first + 2, 30, "the folder's new mtime seen")
    (inbox / "second.txt").write_text("/note same tick\n")
    os.utime(inbox, ns=(stamp, stamp))
    # a skewed folder is listed again by the full round (every FULL_EVERY rounds): wait in rounds, not seconds,
    # since on a loaded machine a round over this many sessions takes its time
    written = cold_watcher.polls
    wait_until(lambda: cold_watcher.polls >= written + 2 * poller_module.FULL_EVERY + 2, 300, "two full rounds")
    ev = next_event(cold_watcher)
    assert (ev.kind, ev.path.name) == ("steer_file", "second.txt")
