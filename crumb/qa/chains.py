"""Probes that can be judged on one page, one after another: a probe whose steps go on from where an
earlier probe's steps stopped does not need a page of its own.

Pure. Under QA's fake clock a page's game is a function of the inputs and the game time it was given,
so [start, wait 62 s] judged after [start, wait 1.5 s] was judged is [start, wait 1.5 s] followed by
[wait 60.5 s]: the same game at the same moment, without a second page load, settle and start. Each
probe's expectations still compare its own "after" with the page's state once it settled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crumb.protocol.game import Criterion, ProbeStep


@dataclass(frozen=True)
class Link:
    """One probe of a chain: its place among the criteria and the steps left after the previous link."""

    index: int
    criterion: Criterion
    steps: tuple[ProbeStep, ...]


def continuation(done: Sequence[ProbeStep], steps: Sequence[ProbeStep]) -> tuple[ProbeStep, ...] | None:
    """The steps that take a page from `done` to `steps`, or None when `steps` does not go on from `done`
    (it differs before `done` ends, or its matching wait is shorter)."""
    if not done:
        return tuple(steps)
    if len(steps) < len(done) or list(steps[:len(done) - 1]) != list(done[:len(done) - 1]):
        return None
    last, same = done[-1], steps[len(done) - 1]
    if last == same:
        return tuple(steps[len(done):])
    if last.do == same.do == "wait" and (last.ms or 0) < (same.ms or 0):
        return (ProbeStep(do="wait", ms=(same.ms or 0) - (last.ms or 0)), *steps[len(done):])
    return None


def chains(criteria: Sequence[Criterion]) -> list[list[Link]]:
    """The criteria in chains, each judged on one page. A probe joins the first chain it fits in: at its end
    when its steps go on from the last probe's (as before), else between two probes when its steps go on
    from the earlier one's and the later one's go on from its own (the latest such place): "lives" after
    [start] is judged on the page of [start, wait 2 s], right after the start, before the wait. Judging reads
    state() only, so a probe put between two others changes neither what they see nor when. Within a chain
    the probes follow the page's game time, not the criteria's order; every criterion is in exactly one chain."""
    out: list[list[Link]] = []
    for n, criterion in enumerate(criteria):
        if not any(_join(chain, n, criterion) for chain in out):
            out.append([Link(n, criterion, tuple(criterion.probe.steps))])
    return out


def _join(chain: list[Link], n: int, criterion: Criterion) -> bool:
    """Put criterion `n` into `chain` at the latest place it fits (see chains); False when it fits nowhere."""
    steps = criterion.probe.steps
    for at in range(len(chain), -1, -1):
        rest = continuation(chain[at - 1].criterion.probe.steps if at else (), steps)
        if rest is None:
            continue
        if at == len(chain):
            chain.append(Link(n, criterion, rest))
            return True
        later = chain[at]
        after = continuation(steps, later.criterion.probe.steps)
        if after is None:
            continue
        chain[at] = Link(later.index, later.criterion, after)
        chain.insert(at, Link(n, criterion, rest))
        return True
    return False
