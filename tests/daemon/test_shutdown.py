"""Stopping the dispatcher: a running effect is told to stop, a queued one never starts. shutdown()
returns how many are still in flight (they run again on the next start); one whose turn in the pool
was cancelled is not in flight, so it must neither be counted nor make shutdown wait out its limit."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from crumb.dispatcher.dispatch import Dispatcher
from crumb.reducer.effects import from_data
from crumb.store import paths
from crumb.store.reader import read_events
from tests.studio.scripted import Scripted
from tests.wait import wait_until


class StopsWhenTold:
    """A harness that works until it is cancelled, as a real one must."""

    name = "stops-when-told"

    def __init__(self) -> None:
        self.started: list[str] = []

    def run(self, request: Any, progress: Any, cancel: threading.Event) -> Any:
        self.started.append(request.effect_id)
        cancel.wait(120)
        return None  # cancelled: the dispatcher records nothing


def test_a_queued_effect_is_not_counted_in_flight_and_does_not_hold_up_the_stop(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    s = Scripted(root)
    s.start()
    first = s.pending("run_actor", "planner")
    harness = StopsWhenTold()
    dispatcher = Dispatcher(root, workers=1, adapter_lookup=lambda name: harness)
    dispatcher.submit(s.session, from_data(first), s.state.settings)
    wait_until(lambda: harness.started == [first["id"]], 30, "the first effect to start")
    queued = {**first, "id": first["id"] + "-queued"}
    dispatcher.submit(s.session, from_data(queued), s.state.settings)  # one worker: it waits its turn
    assert dispatcher.running() == 2
    assert dispatcher.shutdown(timeout=120) == 0  # the first stopped when told; the second never started
    assert harness.started == [first["id"]]
    started = [e["data"]["effect_id"] for e in read_events(paths.transcript_path(root, s.session))
               if e["kind"] == "effect.started"]
    assert started == [first["id"]]
