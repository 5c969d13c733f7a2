"""The one way tests wait: a deadline on a condition, never a sleep standing in for synchronisation."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(pred: Callable[[], Any], timeout: float = 60.0, what: str = "condition") -> Any:
    """Poll `pred` until it returns something truthy and return that; fail naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.02)
