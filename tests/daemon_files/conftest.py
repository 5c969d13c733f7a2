from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.daemon.watcher import Watcher

from .helpers import events_until_sentinel, next_event


@pytest.fixture(params=["inotify", "poll"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def watcher(tmp_path: Path, backend: str) -> Iterator[Watcher]:
    w = Watcher(tmp_path / "root", poll=backend == "poll", settle_ms=50, poll_interval=0.05)
    w.start()
    assert w.backend == backend
    yield w
    w.stop()


@pytest.fixture
def session(watcher: Watcher) -> Path:
    """sessions/S1 with inbox/ and artifacts/, announced and quiet."""
    sdir = watcher.root / "sessions" / "S1"
    (sdir / "inbox").mkdir(parents=True)
    (sdir / "artifacts").mkdir()
    ev = next_event(watcher)
    assert (ev.kind, ev.path, ev.session) == ("session_dir", sdir, "S1")
    assert events_until_sentinel(watcher, sdir / "inbox") == []
    return sdir
