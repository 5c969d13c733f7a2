"""The kernel's own view of processes, read from /proc: one reader for everything that asks.

Linux only; where there is no /proc every reader finds nothing, and its callers fall back to what the
OS API alone can tell (a process sweep does nothing, wall time judges a late step)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple


class ProcStat(NamedTuple):
    """A process's (or a thread's) line of /proc/<pid>/stat that CRUMB reads."""

    pid: int
    state: str  # R running or ready to run, S sleeping, D in the disk, Z zombie, X dead, ...
    ppid: int
    pgid: int

    @property
    def alive(self) -> bool:
        return self.state not in ("Z", "X")


def stat(pid: int, tid: int | None = None) -> ProcStat | None:
    """The process `pid` (or its thread `tid`), None once it is gone."""
    fields = _stat_fields(f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat")
    if fields is None:
        return None
    try:
        return ProcStat(pid if tid is None else tid, fields[0].decode("ascii", "replace"), int(fields[1]), int(fields[2]))
    except (ValueError, IndexError):
        return None


def _stat_fields(path: str) -> list[bytes] | None:
    """A stat file's fields after the command name (state, ppid, pgrp, ...), None once it is gone. The
    name, in parentheses, may hold anything (spaces, parentheses): read past its last ")"."""
    try:
        with open(path, "rb") as fh:
            text = fh.read()
        return text[text.rindex(b")") + 2:].split()
    except (OSError, ValueError):
        return None


def schedstat(pid: int, tid: int) -> tuple[float, float] | None:
    """Seconds the thread ran on a CPU, and seconds it was ready to run but waited for one, since it
    started (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as fh:
            run_ns, wait_ns = fh.read().split()[:2]
        return int(run_ns) / 1e9, int(wait_ns) / 1e9
    except (OSError, ValueError):
        return None


def cpu_s(pid: int) -> float | None:
    """CPU seconds the process and its reaped children used, user and system (None once it is gone)."""
    fields = _stat_fields(f"/proc/{pid}/stat")
    if fields is None:
        return None
    try:
        return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
    except (ValueError, IndexError):
        return None


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    found = stat(pid)
    return found is not None and found.alive


def processes() -> Iterator[ProcStat]:
    """Every process there is now (zombies too)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    for name in names:
        if name.isdigit() and (found := stat(int(name))) is not None:
            yield found


def threads(pid: int) -> list[int]:
    """The thread ids of `pid` (empty once it is gone)."""
    try:
        return [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def children() -> dict[int, list[int]]:
    """Parent pid -> its children's pids, of every process there is now."""
    out: dict[int, list[int]] = {}
    for proc in processes():
        out.setdefault(proc.ppid, []).append(proc.pid)
    return out


def descendants(pid: int) -> list[int]:
    """Every process below `pid`."""
    below = children()
    out, todo = [], [pid]
    while todo:
        for child in below.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cmdline(pid: int) -> bytes:
    """The process's command line, NUL-separated: empty once it is gone, and also for a moment during an
    exec, after Popen has returned (measured: 3 in 300 reads), so read it only of a process that has
    shown it runs."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""
