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
    """The criteria in chains, each judged on one page; a probe joins the first chain whose last probe's
    steps it goes on from, else starts its own. Every criterion is in exactly one chain."""
    out: list[list[Link]] = []
    for n, criterion in enumerate(criteria):
        steps = list(criterion.probe.steps)
        for chain in out:
            rest = continuation(chain[-1].criterion.probe.steps, steps)
            if rest is not None:
                chain.append(Link(n, criterion, rest))
                break
        else:
            out.append([Link(n, criterion, tuple(steps))])
    return out
