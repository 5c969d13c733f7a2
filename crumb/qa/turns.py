"""Turns on QA's one browser: any number of checks together, or one check alone.

Checks of several sessions share one browser, and so one memory limit and one browser process. When the
kernel kills a page for memory, or the browser dies, while several checks run, the evidence does not say
whose game did it. Each of them is then checked again alone (runner.py): the culprit shows itself, and
the others get a verdict on their own game. A check waiting for its turn alone keeps new checks off the
browser, so that it is not starved by a steady stream of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass
class Waiting:
    """The seconds one check has waited for its turns, so far: its budget does not count them, nor does the
    caller's guard on the whole check, which reads this from its own thread while the check waits."""

    total: float = 0.0
    since: float | None = None  # waiting now, since then

    def seconds(self) -> float:
        since = self.since
        return self.total + (time.monotonic() - since if since is not None else 0.0)


class Turns:
    """Who may use the browser now. Lives on QA's loop; `take` is its one entry."""

    def __init__(self) -> None:
        self.together = 0  # checks running side by side
        self.alone = False  # one check running with the browser to itself
        self.queued = 0  # checks waiting to run alone: new checks wait behind them
        self._changed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def take(self, waiting: Waiting, *, alone: bool = False) -> AsyncIterator[None]:
        """Hold a turn for the block; the time spent waiting for it goes into `waiting`."""
        waiting.since = time.monotonic()
        try:
            async with self._changed:
                if alone:
                    self.queued += 1
                    try:
                        await self._changed.wait_for(lambda: not self.alone and not self.together)
                    finally:
                        self.queued -= 1
                        self._changed.notify_all()  # cancelled while queued: the checks behind it may go
                    self.alone = True
                else:
                    await self._changed.wait_for(lambda: not self.alone and not self.queued)
                    self.together += 1
        finally:
            waiting.total, waiting.since = waiting.seconds(), None
        try:
            yield
        finally:
            if alone:  # given back before any await: a check cancelled here cannot keep its turn for ever
                self.alone = False
            else:
                self.together -= 1
            async with self._changed:
                self._changed.notify_all()
