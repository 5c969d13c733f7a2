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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

#: thread id -> (seconds run on a CPU, seconds ready to run but waiting for one), since the thread started
Sched = dict[int, tuple[float, float]]


@dataclass(frozen=True)
class Counts:
    """The browser's threads, where a game's code runs (a hung game's thread is one of them), and QA's
    own (its event loop and game servers in this process, Playwright's driver), which only wait."""

    browser: Sched
    qa: Sched


#: what the counts are now (the runner's; None where QA runs without one: wall time rules)
Sampler = Callable[[], Counts]

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


def _counts(path: str) -> tuple[float, float] | None:
    try:
        with open(path, "rb") as fh:
            run_ns, wait_ns = fh.read().split()[:2]
    except (OSError, ValueError):
        return None
    return int(run_ns) / 1e9, int(wait_ns) / 1e9


def judge_late(before: Counts, after: Counts, elapsed_s: float, limit_s: float) -> Literal["hang", "starved"]:
    """A step still running `elapsed_s` after `before` was read, now `after`: hung, or starved of CPU?
    Only the browser's threads can be the hung one (QA's own event loop keeps working while it waits,
    and a long wait adds its work up); a thread that appeared in between counts from its start."""
    def most(now: Sched, then: Sched, field: int) -> float:
        return max((counts[field] - then.get(tid, (0.0, 0.0))[field] for tid, counts in now.items()), default=0.0)

    if most(after.browser, before.browser, 0) >= HANG_SHARE * limit_s:
        return "hang"
    waited = max(most(after.browser, before.browser, 1), most(after.qa, before.qa, 1))
    return "starved" if waited >= STARVED_SHARE * elapsed_s else "hang"
