"""Progress from a running agent, throttled so a busy agent cannot flood the transcript."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from crumb.actors.base import ProgressFn, ProgressUpdate


class Throttle:
    """Forwards at most one update per `interval_s`; updates in between are merged, not lost.

    Files named by merged updates are kept (up to `max_files`) and sent with the next update, so
    the transcript still learns every file that changed. `flush()` sends what is pending.
    """

    def __init__(
        self,
        progress: ProgressFn,
        interval_s: float = 1.0,
        *,
        max_files: int = 50,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._progress = progress
        self._interval = interval_s
        self._max_files = max_files
        self._clock = clock
        self._lock = threading.Lock()
        self._last: float | None = None
        self._pending: ProgressUpdate | None = None
        self._files: list[str] = []
        self._skipped = 0
        self.sent = 0

    def __call__(self, update: ProgressUpdate) -> None:
        with self._lock:
            for f in update.files:
                if f not in self._files and len(self._files) < self._max_files:
                    self._files.append(f)
            self._pending = update
            now = self._clock()
            if self._last is not None and now - self._last < self._interval:
                self._skipped += 1
                return
            out = self._take(now)
        self._send(out)

    def flush(self) -> None:
        with self._lock:
            out = self._take(self._clock()) if self._pending is not None else None
        if out is not None:
            self._send(out)

    def _take(self, now: float) -> ProgressUpdate:
        assert self._pending is not None
        update = self._pending
        message = update.message if not self._skipped else f"{update.message} (+{self._skipped} more)"
        out = ProgressUpdate(message=message[:2000], tool=update.tool, files=list(self._files))
        self._pending = None
        self._files = []
        self._skipped = 0
        self._last = now
        return out

    def _send(self, update: ProgressUpdate) -> None:
        self.sent += 1
        self._progress(update)
