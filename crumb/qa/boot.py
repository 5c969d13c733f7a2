"""QA's thread, and Playwright's driver started on it before the rest of QA is imported.

A cold `crumb run` spent ~0.2 s importing QA (the protocol's pydantic models, Pillow, the page code) and
only then started Playwright's Node driver, which takes ~0.3 s more before the browser can be launched.
The driver needs none of that Python, so `QAThread(driver=True)` starts it first and the two overlap;
`QARunner(thread=...)` then takes the thread and the driver over. This module imports little on purpose.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading

from playwright.async_api import Playwright, async_playwright

from crumb import procfs
from crumb.config import user_cache_dir
from crumb.qa.fence import Fence, open_fence


def _cache_node_code() -> None:
    """Let Node keep the JavaScript it compiles for Playwright's driver (NODE_COMPILE_CACHE, read when
    node starts; unless the person set one): the driver then starts in ~0.22 s instead of ~0.30 s, with
    0.1 s less CPU, on every cold `crumb run` and daemon start. Playwright gives its driver a copy of
    this process's environment, so it is set here, for every Node program CRUMB starts after this one."""
    os.environ.setdefault("NODE_COMPILE_CACHE", str(user_cache_dir() / "node"))


async def start_driver() -> tuple[Playwright, int | None]:
    """Playwright, with its driver's pid (None if it could not be told apart from other children)."""
    before = set(procfs.children().get(os.getpid(), []))
    _cache_node_code()
    pw = await async_playwright().start()
    # Playwright does not expose its driver's pid; the new "run-driver" child is it (for the final sweep)
    fresh = [p for p in procfs.children().get(os.getpid(), [])
             if p not in before and b"run-driver" in procfs.cmdline(p)]
    return pw, fresh[0] if len(fresh) == 1 else None


class QAThread:
    """The thread QA's asyncio loop runs on, inside the runner's network fence (fence.py), so the driver,
    the browser and the game servers it starts are fenced too; with `driver`, the driver starts now."""

    def __init__(self, *, driver: bool = False) -> None:
        self.fence: Fence = open_fence()
        self.loop = asyncio.new_event_loop()
        self.thread: threading.Thread = self.fence.thread(self.loop.run_forever, name="crumb-qa")
        self.thread.start()
        self.driver: concurrent.futures.Future[tuple[Playwright, int | None]] | None = (
            asyncio.run_coroutine_threadsafe(start_driver(), self.loop) if driver else None)
