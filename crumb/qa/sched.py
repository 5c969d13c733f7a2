"""A late step: a game that hangs, or a machine that starves QA? Asked of the kernel's scheduler.

QA's step limits are wall time, but a page's work is CPU time. On a machine shared with other jobs a
good game's renderer can wait for a CPU for longer than a step's limit, and a wall clock alone would
blame the game for a hang: a false FAIL. The scheduler counts, for every thread, the time it ran and
the time it was ready to run but waited for a CPU (/proc/<pid>/task/<tid>/schedstat). A step past its
limit is a hang when one of the browser's threads ran for most of the limit (an endless loop burns a
CPU); while QA's threads wait for CPUs they do not get, the step is given more time; a step that
neither ran nor waited gets a few times its limit. The check's own budget bounds it all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from crumb import procfs

#: thread id -> (seconds run on a CPU, seconds ready to run but waiting for one), since the thread started
Sched = dict[int, tuple[float, float]]


@dataclass(frozen=True)
class Counts:
    """The browser's threads, where a game's code runs (a hung game's thread is one of them), and QA's
    own (its event loop and game servers in this process, Playwright's driver), which only wait; and how
    many of all of them are ready to run right now (the kernel adds a wait to a thread's count only once
    the thread gets a CPU, so a thread starved at this moment shows only here)."""

    browser: Sched
    qa: Sched
    runnable: int = 0


#: what the counts are now (the runner's; None where QA runs without one: wall time rules)
Sampler = Callable[[], Counts]

#: a step is hung once one thread ran this share of its limit without the step finishing
HANG_SHARE = 0.8
#: QA is starved when its threads together waited for a CPU this share of the time looked at
STARVED_SHARE = 0.25
#: a step that neither ran nor waited for a CPU is a hang once this many times its limit has passed
IDLE_LIMITS = 4


def read_sched(pids: Iterable[int]) -> tuple[Sched, int]:
    """The counts of every thread of `pids` that still exist, by thread id, and how many of them are
    ready to run (Linux; elsewhere nothing, and wall time rules). Every thread: a screenshot's work is
    on compositor threads, with the main one idle."""
    out: Sched = {}
    runnable = 0
    for pid in pids:
        for tid in procfs.threads(pid):
            counts = procfs.schedstat(pid, tid)
            if counts is not None:
                out[tid] = counts
                found = procfs.stat(pid, tid)
                if found is not None and found.state == "R":
                    runnable += 1
    return out, runnable


def judge_late(before: Counts, after: Counts, elapsed_s: float, limit_s: float) -> Literal["hang", "starved"]:
    """A step still running `elapsed_s` after `before` was read, now `after`: hung, or starved of CPU?

    Only one of the browser's threads can be the hung one (QA's own event loop keeps working while it
    waits, and a long wait adds its work up). The waits are summed: a step's work hops from thread to
    thread (renderer, compositor, browser, driver, QA), each waiting its turn; a thread ready to run
    now is waiting too. A step that neither ran nor waited is stuck outside the CPU (a disk or memory
    stall of the machine: a game's code cannot block a page without running), and gets IDLE_LIMITS times
    its limit before it is a hang. A thread that appeared in between counts from its start."""
    ran = max((run - before.browser.get(tid, (0.0, 0.0))[0] for tid, (run, _) in after.browser.items()), default=0.0)
    if ran >= HANG_SHARE * limit_s:
        return "hang"
    waited = sum(wait - then.get(tid, (0.0, 0.0))[1] for now, then in ((after.browser, before.browser), (after.qa, before.qa))
                 for tid, (_, wait) in now.items())
    if waited >= STARVED_SHARE * elapsed_s or after.runnable > 0:
        return "starved"
    if after.browser and elapsed_s < IDLE_LIMITS * limit_s:
        return "starved"
    return "hang"
