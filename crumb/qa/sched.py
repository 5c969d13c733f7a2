"""A late step: a game that hangs, or a machine that starves QA? Asked of the kernel's scheduler.

QA's step limits are wall time, but a page's work is CPU time. On a machine shared with other jobs a
good game's renderer can wait for a CPU for longer than a step's limit, and a wall clock alone would
blame the game for a hang: a false FAIL. The scheduler counts, for every thread, the time it ran and
the time it was ready to run but waited for a CPU (/proc/<pid>/task/<tid>/schedstat). A step past its
limit is a hang when one of QA's threads (the driver's, the browser's, the renderers', QA's event
loop) ran for most of the limit (an endless loop burns a CPU), or when none of them even waited for
one (a page stuck without working); while they wait for CPUs they do not get, the step is given more
time (the check's own budget still bounds it).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from typing import Literal

#: thread id -> (seconds run on a CPU, seconds ready to run but waiting for one), since the thread started
Sched = dict[int, tuple[float, float]]
#: what QA's threads' counts are now (the runner's; None where QA runs without one: wall time rules)
Sampler = Callable[[], Sched]

#: a step is hung once one thread ran this share of its limit without the step finishing
HANG_SHARE = 0.8
#: QA is starved when one of its threads waited for a CPU this share of the time looked at
STARVED_SHARE = 0.25


def read_sched(pids: Iterable[int]) -> Sched:
    """The counts of every thread of `pids` that still exist, by thread id (Linux; elsewhere nothing, and
    wall time rules). Every thread: a screenshot's work is on compositor threads, with the main one idle."""
    out: Sched = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            counts = _counts(f"/proc/{pid}/task/{tid}/schedstat")
            if counts is not None:
                out[int(tid)] = counts
    return out


def own_sched() -> Sched:
    """The calling thread's counts (QA's event loop reads them on its own thread)."""
    counts = _counts("/proc/thread-self/schedstat")
    return {} if counts is None else {threading.get_native_id(): counts}


def _counts(path: str) -> tuple[float, float] | None:
    try:
        with open(path, "rb") as fh:
            run_ns, wait_ns = fh.read().split()[:2]
    except (OSError, ValueError):
        return None
    return int(run_ns) / 1e9, int(wait_ns) / 1e9


def judge_late(before: Sched, after: Sched, elapsed_s: float, limit_s: float) -> Literal["hang", "starved"]:
    """A step still running `elapsed_s` after `before` was read, now `after`: hung, or starved of CPU?
    A thread that appeared in between counts from its start."""
    ran = waited = 0.0
    for tid, (run, wait) in after.items():
        run0, wait0 = before.get(tid, (0.0, 0.0))
        ran, waited = max(ran, run - run0), max(waited, wait - wait0)
    if ran >= HANG_SHARE * limit_s:
        return "hang"
    return "starved" if waited >= STARVED_SHARE * elapsed_s else "hang"
