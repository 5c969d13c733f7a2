"""Where a batch's cells run: the executor seam, and the executor for this machine.

The driver (crumb/batch/driver.py) decides what is left to run and records what happens; an executor
only runs cells and says what happened, as an iterator:

    executor.run_cells(root, plan, tasks) -> Iterator[CellReport]

- `tasks`: Task(cell, session). `session` is None for a cell to pitch (the executor picks its id, a
  ULID, when it pitches it); it names a session when a `started` line in runs.jsonl already does: that
  session may exist (a folder, a pitch file waiting in inbox/, a worker's copy) and is continued from
  its transcript, never pitched again.
- each CellReport is (cell, session, result, host): `result` None means "this cell is being pitched now" and
  is yielded just BEFORE its pitch is dropped (the driver appends the `started` line, durably, before it
  asks for the next report, so a crash never leaves a session the batch does not know of); a
  CellOutcome means settled (done, or waiting for a person: crumb.cli.verdict.settled); a str means the
  cell could not run (refused pitch, set-up that cannot run here, timed out), in one line.
  Every task gets exactly one final report (outcome or str), in any order; a started report comes
  only for a task without a session.
- at most plan.parallel cells in flight; a cell not settled plan.timeout_s after it was pitched (or
  taken up again) is reported failed, and cancelled.
- stopping early (Ctrl-C, the daemon stopping): the driver closes the iterator (generator.close()).
  The executor then pitches nothing more, leaves the sessions in flight as they are (each resumes from
  its transcript) and lets go of what it holds. It may also watch a `stop` event of its own.

LocalExecutor runs the cells as ordinary sessions of this root, through ONE daemon: the one already
watching the root (`crumb watch`, or the daemon whose inbox took the batch.toml), or else one it runs
in this process, as `crumb run` does. crumb/batch/ray_executor.py (Ray) runs each cell as a Ray task
and returns the session folder to the head: the same interface, the same Reports, so runs.jsonl reads
the same wherever a batch ran.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from crumb.batch.plan import BatchPlan, Cell
from crumb.batch.runs import CellOutcome

log = logging.getLogger("crumb.batch")


@dataclass(frozen=True)
class Task:
    cell: Cell
    session: str | None = None  # a `started` line names the session already: continue it, never pitch it again


class CellReport(NamedTuple):
    cell: Cell
    session: str | None
    result: CellOutcome | str | None  # None: pitched now (started); str: why it could not run (failed)
    host: str = ""


class Executor(Protocol):
    def run_cells(self, root: Path, plan: BatchPlan, tasks: Sequence[Task]) -> Iterator[CellReport]: ...


@dataclass
class _Flight:
    task: Task
    deadline: float
    follower: Any
    state: Any
    started_at: float = field(default_factory=time.monotonic)


class LocalExecutor:
    """Cells as sessions of `root`, run by one daemon on this machine.

    own_daemon: None = use the daemon watching root if there is one, else run one in this process;
    False = a daemon watches root (the caller is it, or knows of it); True = run one here (refused
    with DaemonRunning when another holds the root). `stop`: set to stop early, like closing the iterator.
    """

    def __init__(self, *, own_daemon: bool | None = None, poll: bool = False, stop: threading.Event | None = None,
                 tick_s: float = 0.2) -> None:
        self.own_daemon = own_daemon
        self.poll = poll
        self.stop = stop or threading.Event()
        self.tick_s = tick_s
        self.left_running = 0  # effects still in flight when the executor's own daemon stopped
        self.host = socket.gethostname()

    def run_cells(self, root: Path, plan: BatchPlan, tasks: Sequence[Task]) -> Iterator[CellReport]:
        import click
        from ulid import ULID

        from crumb.batch.cell import outcome_of, pitch_cell, was_pitched
        from crumb.cli.verdict import settled
        from crumb.daemon.lock import daemon_status
        from crumb.reducer.reduce import initial_state
        from crumb.store import paths
        from crumb.store.follow import Follower

        root = root.resolve()
        wake = threading.Event()
        own = self.own_daemon if self.own_daemon is not None else not daemon_status(root)["running"]
        daemon, thread = self._start_daemon(root, wake) if own else (None, None)
        waiting = deque(tasks)
        flying: dict[str, _Flight] = {}
        try:
            while waiting or flying:
                if self.stop.is_set():
                    return
                while waiting and len(flying) < plan.parallel and not self.stop.is_set():
                    task = waiting.popleft()
                    session = task.session or str(ULID())
                    try:
                        if task.session is None:
                            yield CellReport(task.cell, session, None, self.host)  # recorded before the drop
                            pitch_cell(root, plan, task.cell, session=session)
                        elif not was_pitched(root, session):  # recorded, then killed before the drop
                            pitch_cell(root, plan, task.cell, session=session)
                    except click.ClickException as err:
                        yield CellReport(task.cell, session, _one_line(err.format_message()), self.host)
                        continue
                    flying[session] = _Flight(task, time.monotonic() + plan.timeout_s,
                                              Follower(paths.transcript_path(root, session)), initial_state(session))
                ended: list[CellReport] = []
                for session, flight in list(flying.items()):
                    end = self._look(root, session, flight, settled, outcome_of)
                    if end is not None:
                        del flying[session]
                        ended.append(CellReport(flight.task.cell, session, end, self.host))
                yield from ended
                if thread is not None and not thread.is_alive():
                    raise RuntimeError("the batch's daemon stopped on its own; see the log above, then "
                                       "`crumb batch resume` runs what is left")
                if not ended:
                    wake.wait(self.tick_s)
                    wake.clear()
        finally:
            if daemon is not None and thread is not None:
                daemon.stop()
                thread.join(timeout=60)
                self.left_running = daemon.dispatcher.running()

    def _start_daemon(self, root: Path, wake: threading.Event) -> tuple[Any, threading.Thread | None]:
        from crumb.daemon.daemon import Daemon

        def nudge(live: Any) -> bool:
            wake.set()  # the daemon handled something: look at the sessions now, not at the next tick
            return False

        daemon = Daemon(root, poll=self.poll, echo=False, stop_when=nudge)
        thread = threading.Thread(target=daemon.run, name="crumb-batch-daemon", daemon=True)
        thread.start()
        while not daemon.ready.wait(0.1):
            if not thread.is_alive():  # another daemon took the root meanwhile: use that one
                if self.own_daemon:
                    from crumb.daemon.lock import DaemonRunning

                    raise DaemonRunning(f"a crumb daemon already watches {root}")
                return None, None
        return daemon, thread

    def _look(self, root: Path, session: str, flight: _Flight, settled: Any, outcome_of: Any) -> CellOutcome | str | None:
        """The cell's end (an outcome or why it failed), or None while it runs."""
        from crumb.daemon import rejected
        from crumb.store.reader import TranscriptError

        try:
            for event in flight.follower.read_new():
                from crumb.reducer.reduce import apply

                apply(flight.state, event)
        except TranscriptError as err:
            return _one_line(f"its transcript cannot be read: {err}")
        state = flight.state
        if state.events and settled(state):
            outcome: CellOutcome = outcome_of(state)
            return outcome
        if not state.events:
            refusal = rejected.find(root, session)
            if refusal is not None:
                return _one_line(f"the daemon refused its pitch: {refusal.reason or 'no reason given'} ({refusal.file})")
        if time.monotonic() > flight.deadline:
            _cancel(root, session)
            return (f"timed out after {time.monotonic() - flight.started_at:.0f}s (phase {state.phase}); "
                    "the session was cancelled")
        return None


def _cancel(root: Path, session: str) -> None:
    """Stop a timed-out session the way a person would: /cancel in its inbox."""
    from crumb.daemon.drop import InboxWriteError, drop_inbox_file
    from crumb.store import paths

    try:
        drop_inbox_file(paths.session_inbox(root, session), "/cancel the batch's per-cell timeout passed\n", stem="batch")
    except InboxWriteError as err:
        log.warning("could not cancel %s: %s", session, err)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:500]
