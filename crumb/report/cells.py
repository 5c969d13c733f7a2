"""A batch folder read for a report: its plan, where each cell stands (runs.jsonl) and each cell's session.

A cell with no line in runs.jsonl is missing; one whose latest line is `started` is unfinished (running,
or cut short: `crumb batch resume` finishes it); `failed` could not run; `settled` has an outcome and a
session folder, reached through the batch's link (batches/<id>/sessions/<cell>) when it is there.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from crumb.batch import runs
from crumb.batch.plan import PLAN_TOML, RUNS_JSONL, SESSION_LINKS, BatchPlan, load_plan
from crumb.batch.runs import CellOutcome
from crumb.report.digest import SessionDigest, digest
from crumb.store import paths
from crumb.store.reader import TranscriptError

CellState = Literal["settled", "unfinished", "failed", "missing"]


@dataclass
class CellRow:
    cell: str
    pitch: int
    pitch_text: str
    setup: str
    seed: int
    state: CellState
    session: str | None = None
    outcome: CellOutcome | None = None
    error: str | None = None  # why a failed cell failed, or why its session could not be read
    digest: SessionDigest | None = None


@dataclass
class BatchView:
    id: str
    folder: Path
    plan: BatchPlan
    cells: list[CellRow]


def session_folder(folder: Path, cell: str, session: str) -> Path:
    """The cell's session: the batch's link to it, else sessions/<id> of the root the batch lives in."""
    link = folder / SESSION_LINKS / cell
    if (link / paths.TRANSCRIPT).is_file():
        return link
    return paths.session_dir(folder.parent.parent, session)


def read_batch(folder: Path, *, sessions: bool = True) -> BatchView:
    """Raises PlanError when batch.toml cannot be read. Without `sessions`, only batch.toml and runs.jsonl
    are read (where each cell stands, not what its session found): the Studio's live matrix."""
    plan = load_plan(folder / PLAN_TOML)
    latest = runs.latest(runs.read(folder / RUNS_JSONL))
    rows = []
    for cell in plan.cells():
        line = latest.get(cell.id)
        row = CellRow(cell=cell.id, pitch=cell.pitch, pitch_text=plan.pitches[cell.pitch - 1], setup=cell.setup,
                      seed=cell.seed, state="missing")
        if line is not None:
            row.state = "settled" if line.state == "settled" else "unfinished" if line.state == "started" else "failed"
            row.session, row.outcome, row.error = line.session, line.outcome, line.error
        if row.session is not None and sessions:
            where = session_folder(folder, cell.id, row.session)
            try:
                row.digest = digest(where)
            except (OSError, TranscriptError) as err:
                row.error = row.error or f"session {row.session} cannot be read: {err}"
        rows.append(row)
    return BatchView(id=folder.name, folder=folder, plan=plan, cells=rows)
