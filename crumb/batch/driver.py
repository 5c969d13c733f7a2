"""A batch folder and its driver: make batches/<id>/, run what is missing, record every step.

    batches/<id>/batch.toml     the plan (crumb/batch/plan.py)
    batches/<id>/runs.jsonl     the append-only log (crumb/batch/runs.py)
    batches/<id>/sessions/<cell id> → ../../../sessions/<session id>   (relative links)
    batches/<id>/.inbox/        the batch.toml dropped into inbox/, when the daemon started the batch
                                (such a batch is taken up again by the daemon when it restarts)
    batches/<id>/.lock          held (flock) by whoever drives the batch: one driver at a time

run_batch is the whole restart story: it reads runs.jsonl, skips every settled cell, hands a cell
whose latest line is `started` back to the executor with its session (resumed from its transcript,
never pitched twice) and every other cell without one (pitched afresh); then it appends one line per
CellReport, in order. Running it again after a crash, Ctrl-C or SIGKILL is `crumb batch resume`.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ulid import ULID

from crumb.batch import runs
from crumb.batch.executor import CellReport, Executor, Task
from crumb.batch.plan import BATCHES, PLAN_TOML, RUNS_JSONL, SESSION_LINKS, BatchPlan, Cell, load_plan
from crumb.store.durable import write_whole

LOCK = ".lock"
FROM_INBOX = ".inbox"


class BatchBusy(RuntimeError):
    """Another process drives this batch."""


def batches_dir(root: Path) -> Path:
    return root / BATCHES


def create(root: Path, plan: BatchPlan, batch_id: str | None = None) -> Path:
    """batches/<id>/ with its batch.toml (written whole, then renamed into place); the folder."""
    from crumb import __version__

    folder = batches_dir(root) / (batch_id or str(ULID()))
    (folder / SESSION_LINKS).mkdir(parents=True, exist_ok=True)
    if not plan.crumb:
        plan = plan.model_copy(update={"crumb": __version__})
    target = folder / PLAN_TOML
    if not target.exists():
        write_whole(target, plan.to_toml())
    return folder


def list_batches(root: Path) -> list[Path]:
    """Every batch folder (one holding a batch.toml), oldest first (ULIDs sort by time)."""
    try:
        return sorted(p for p in batches_dir(root).iterdir() if (p / PLAN_TOML).is_file())
    except OSError:
        return []


def resolve(root: Path, ref: str) -> Path:
    """A batch folder from its id, a unique prefix of it, or its path; LookupError saying what was found."""
    as_path = Path(ref).expanduser()
    if (as_path / PLAN_TOML).is_file():
        return as_path.resolve()
    found = [p for p in list_batches(root) if p.name.upper().startswith(ref.strip().upper())] if ref.strip() else []
    if len(found) == 1:
        return found[0]
    if not found:
        raise LookupError(f"no batch {ref!r} in {batches_dir(root)}: `crumb batch ls` lists them")
    raise LookupError(f"{ref!r} names {len(found)} batches ({', '.join(p.name for p in found[:5])}): give more of the id")


@dataclass
class Tally:
    """Where a batch stands, from its runs.jsonl."""

    cells: int
    settled: int = 0
    failed: int = 0
    running: int = 0  # latest line `started`
    verdicts: Counter[str] = field(default_factory=Counter)  # PASS, PARTIAL, FAIL, none
    fallbacks: int = 0  # settled cells where some role fell back: counted apart

    @property
    def missing(self) -> int:
        return self.cells - self.settled - self.failed - self.running

    def as_dict(self) -> dict[str, Any]:
        return {"cells": self.cells, "settled": self.settled, "failed": self.failed, "running": self.running,
                "missing": self.missing, "verdicts": dict(sorted(self.verdicts.items())), "fallbacks": self.fallbacks}


def tally(plan: BatchPlan, latest: dict[str, runs.RunLine]) -> Tally:
    t = Tally(cells=len(plan.cells()))
    for cell in plan.cells():
        line = latest.get(cell.id)
        if line is None:
            continue
        if line.state == "settled":
            t.settled += 1
            outcome = line.outcome
            t.verdicts[(outcome.verdict if outcome and outcome.verdict else "none")] += 1
            t.fallbacks += bool(outcome and outcome.fallback)
        elif line.state == "failed":
            t.failed += 1
        else:
            t.running += 1
    return t


def tasks_left(plan: BatchPlan, latest: dict[str, runs.RunLine]) -> list[Task]:
    """Every cell not settled: a `started` one with its session (resumed), any other to pitch afresh."""
    out = []
    for cell in plan.cells():
        line = latest.get(cell.id)
        if line is not None and line.state == "settled":
            continue
        if line is not None and line.state == "started" and line.session:
            out.append(Task(cell, line.session))
        else:
            out.append(Task(cell))
    return out


@contextmanager
def driving(folder: Path) -> Iterator[None]:
    """Hold the batch's lock (BatchBusy naming the holder when another process has it)."""
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            raise BatchBusy(f"batch {folder.name} is being run by pid {holder}; wait for it or stop it first") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def is_driven(folder: Path) -> bool:
    """Whether some process holds the batch's lock now."""
    try:
        fd = os.open(folder / LOCK, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def link(folder: Path, cell: Cell, session: str) -> None:
    """batches/<id>/sessions/<cell id> → ../../../sessions/<session> (replaced whole when a cell gets a new session)."""
    links = folder / SESSION_LINKS
    links.mkdir(exist_ok=True)
    target = Path("..", "..", "..", "sessions", session)
    path = links / cell.id
    try:
        if os.readlink(path) == str(target):
            return
    except OSError:
        pass
    tmp = links / f".{cell.id}.{os.getpid()}.tmp"
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    os.symlink(target, tmp)
    os.replace(tmp, path)


OnCellReport = Callable[[CellReport, Tally], None]


def run_batch(root: Path, folder: Path, executor: Executor, *, on_start: Callable[[Tally], None] | None = None,
              on_report: OnCellReport | None = None, parallel: int | None = None) -> Tally:
    """Run every cell of the batch not yet settled, recording each CellReport in runs.jsonl; the tally at the end.

    Returns when the executor has reported every cell, or stopped early; raises BatchBusy when another
    process drives the batch, PlanError when its batch.toml cannot be read. `parallel` overrides the plan's
    (how many cells run at once changes no cell)."""
    plan = load_plan(folder / PLAN_TOML)
    if parallel is not None:
        plan = plan.model_copy(update={"parallel": parallel})
    log_path = folder / RUNS_JSONL
    with driving(folder):
        latest = runs.latest(runs.read(log_path))
        todo = tasks_left(plan, latest)
        for task in todo:
            if task.session is not None:
                link(folder, task.cell, task.session)
        t = tally(plan, latest)
        if on_start is not None:
            on_start(t)
        reports = executor.run_cells(root, plan, todo)
        try:
            for report in reports:
                cell, session, result, host = report
                if result is None:
                    line = runs.RunLine.of(cell, "started", session=session, host=host)
                elif isinstance(result, str):
                    line = runs.RunLine.of(cell, "failed", session=session, host=host, error=result)
                else:
                    line = runs.RunLine.of(cell, "settled", session=session, host=host, outcome=result)
                runs.append(log_path, line)
                if result is None and session:
                    link(folder, cell, session)
                latest[cell.id] = line
                t = tally(plan, latest)
                if on_report is not None:
                    on_report(report, t)
        finally:
            close = getattr(reports, "close", None)
            if close is not None:
                close()
    return t


def unfinished(folder: Path) -> bool:
    """Some cell never ran or was cut short (latest line missing or `started`); failed cells do not count."""
    plan = load_plan(folder / PLAN_TOML)
    latest = runs.latest(runs.read(folder / RUNS_JSONL))
    return any(cell.id not in latest or latest[cell.id].state == "started" for cell in plan.cells())


def summary(folder: Path) -> dict[str, Any]:
    """A batch as `crumb batch ls --json` and `crumb batch --json` show it."""
    plan = load_plan(folder / PLAN_TOML)
    lines = runs.read(folder / RUNS_JSONL)
    latest = runs.latest(lines)
    t = tally(plan, latest)
    cells = []
    for cell in plan.cells():
        line = latest.get(cell.id)
        outcome = line.outcome if line is not None else None
        cells.append({"cell": cell.id, "pitch": cell.pitch, "setup": cell.setup, "seed": cell.seed,
                      "state": line.state if line is not None else "missing",
                      "session": line.session if line is not None else None,
                      "verdict": outcome.verdict if outcome else None, "done": outcome.done if outcome else None,
                      "fallback": outcome.fallback if outcome else None, "exit": outcome.exit if outcome else None,
                      "error": line.error if line is not None else None})
    return {"batch": folder.name, "name": plan.name, "path": str(folder), "setups": [s.name for s in plan.setups],
            "pitches": len(plan.pitches), "seeds": plan.seeds, **t.as_dict(), "running_now": is_driven(folder),
            "first": lines[0].at if lines else None, "last": lines[-1].at if lines else None, "runs": cells}


def eta(started: float, done_now: int, left: int) -> float | None:
    """Seconds left at the rate cells settled since `started` (None before the first one)."""
    if done_now <= 0 or left <= 0:
        return None if left > 0 else 0.0
    return (time.monotonic() - started) / done_now * left
