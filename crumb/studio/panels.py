"""The session page's panels, computed once per change and pushed to every open tab on its stream.

Each tab used to refetch the whole session detail after every event: fifty tabs, fifty requests
(and fifty JSON parses in the browsers) per event, all competing with the daemon for the CPU. Now
one feed per session computes the panels at most every INTERVAL_S, compares them panel by panel
with the last ones, and sends only those that changed: one computation and one encoding per
change, the same bytes to every tab, whatever the number of tabs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

INTERVAL_S = 0.25  # a burst of events costs one computation per interval, not one per event


@dataclass(frozen=True)
class PanelUpdate:
    """Panels that changed, as one ready SSE frame; `version` orders updates against snapshots."""

    version: int
    frame: bytes


def frame(version: int, panels: dict[str, bytes]) -> bytes:
    """An SSE `panels` event: {"v": version, "panels": {name: value}} built from encoded values."""
    body = b",".join(msgspec.json.encode(name) + b":" + value for name, value in panels.items())
    return b'event: panels\ndata: {"v":%d,"panels":{%s}}\n\n' % (version, body)


class PanelFeed:
    """The latest panels of one session and the updates between them. Lives on the server's loop."""

    def __init__(self, compute: Callable[[], dict[str, Any]], publish: Callable[[PanelUpdate], None],
                 position: Callable[[], int]) -> None:
        self.compute = compute  # blocking (reads files): run in a worker thread
        self.publish = publish
        self.position = position  # how far the transcript is indexed: a snapshot older than that is stale
        self.version = 0
        self.current: dict[str, bytes] = {}
        self.computed_at = -1
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def poke(self) -> None:
        """New lines arrived: recompute now, then at most once per INTERVAL_S while they keep coming."""
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="crumb-studio-panels")

    async def _run(self) -> None:
        while self._dirty:
            self._dirty = False
            await self.refresh()
            await asyncio.sleep(INTERVAL_S)  # rate limit, not synchronisation: a later poke is kept in _dirty

    async def refresh(self) -> None:
        """Compute the panels unless they already reflect the transcript as indexed; publish what changed."""
        async with self._lock:  # tabs connecting together wait here for one computation, then all skip
            at = self.position()
            if at == self.computed_at:
                return
            panels = await asyncio.to_thread(self.compute)
            self.computed_at = at
            encoded = {name: msgspec.json.encode(value) for name, value in panels.items()}
            changed = {name: value for name, value in encoded.items() if self.current.get(name) != value}
            if not changed:
                return
            self.current.update(changed)
            self.version += 1
            self.publish(PanelUpdate(self.version, frame(self.version, changed)))

    async def snapshot(self) -> PanelUpdate | None:
        """Every panel, for a tab that just connected (None while the session has none yet)."""
        await self.refresh()
        if not self.current:
            return None
        return PanelUpdate(self.version, frame(self.version, self.current))
