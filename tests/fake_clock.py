"""Browser contexts whose Playwright fake clock is paused before any page exists (as QA's GameContext.open does)."""

from __future__ import annotations

from typing import Any


def paused_context(browser: Any, start: float, pause: float, **options: Any) -> Any:
    """A new context (`options` as browser.new_context takes them) whose clock starts at `start` and stands at
    `pause` until a test advances it, however slow the machine is. Installed on a page that already runs, the
    clock ticks in real time until it is paused, and a pause at a moment a loaded machine has already passed
    fails ("Cannot fast-forward to the past"); replayed into a new page, the pause sets the time instead."""
    ctx = browser.new_context(**options)
    ctx.clock.install(time=start)
    ctx.clock.pause_at(pause)
    return ctx
