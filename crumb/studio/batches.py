"""The Studio's batch pages: the list of batches, a batch's matrix (pitches × set-ups × seeds, where each
cell stands, from runs.jsonl) and its report (crumb/report's HTML page, with links into the Studio).

Read-only, like every other page: nothing here writes, and everything comes from batches/<id>/.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from crumb.batch.driver import batches_dir, list_batches
from crumb.batch.plan import PLAN_TOML, RUNS_JSONL, PlanError
from crumb.reducer.replay import replay_file
from crumb.report.cells import read_batch
from crumb.report.summary import CellSummary, bucket
from crumb.store import paths

BATCH_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class BatchRow(TypedDict):
    batch: str
    name: str
    cells: int
    counts: dict[str, int]
    error: str | None


class MatrixCell(TypedDict):
    cell: str
    pitch: int
    setup: str
    seed: int
    state: str
    bucket: str
    verdict: str | None
    rounds: int | None
    session: str | None
    error: str | None
    phase: str | None  # an unfinished cell's session: where it stands now ("qa r2"), from its transcript


class Matrix(TypedDict):
    batch: str
    name: str
    pitches: list[str]
    setups: list[str]
    seeds: list[int]
    counts: dict[str, int]
    cells: list[MatrixCell]


def folder_of(root: Path, batch: str) -> Path | None:
    """batches/<batch> when it is a batch folder (the id checked first: no path can be named)."""
    if not BATCH_ID.match(batch):
        return None
    folder = batches_dir(root) / batch
    return folder if (folder / PLAN_TOML).is_file() else None


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


def stamp(folder: Path, running: Sequence[str] = ()) -> tuple[tuple[int, int], ...]:
    """runs.jsonl's (size, mtime), then each running session's transcript's: the matrix changes only
    when one of them does."""
    root = folder.parent.parent
    return (_stat(folder / RUNS_JSONL), *(_stat(paths.transcript_path(root, s)) for s in running))


def running(m: Matrix) -> list[str]:
    """The sessions of the matrix's unfinished cells: the ones whose phase moves."""
    return [c["session"] for c in m["cells"] if c["state"] == "unfinished" and c["session"]]


def _phase(root: Path, session: str | None) -> str | None:
    """Where a running cell's session stands: its phase and round, replayed from its transcript."""
    if session is None:
        return None
    path = paths.transcript_path(root, session)
    if not path.is_file():
        return "starting"
    state = replay_file(path)
    return f"{state.phase} r{state.round}" if state.round else state.phase


def matrix(folder: Path) -> Matrix:
    """Where every cell stands (raises PlanError for a batch.toml that cannot be read)."""
    view = read_batch(folder, sessions=False)
    root = folder.parent.parent
    cells: list[MatrixCell] = [
        {"cell": r.cell, "pitch": r.pitch, "setup": r.setup, "seed": r.seed, "state": r.state, "bucket": bucket(r),
         "verdict": r.outcome.verdict if r.outcome else None, "rounds": r.outcome.rounds if r.outcome else None,
         "session": r.session, "error": r.error,
         "phase": _phase(root, r.session) if r.state == "unfinished" else None} for r in view.cells]
    counts: dict[str, int] = {}
    for c in cells:
        counts[c["bucket"]] = counts.get(c["bucket"], 0) + 1
    return {"batch": view.id, "name": view.plan.name, "pitches": list(view.plan.pitches),
            "setups": [s.name for s in view.plan.setups], "seeds": list(view.plan.seeds), "counts": counts,
            "cells": cells}


def batch_list(root: Path) -> list[BatchRow]:
    rows: list[BatchRow] = []
    for folder in reversed(list_batches(root)):  # newest first
        try:
            m = matrix(folder)
            rows.append({"batch": folder.name, "name": m["name"], "cells": len(m["cells"]), "counts": m["counts"],
                         "error": None})
        except PlanError as err:
            rows.append({"batch": folder.name, "name": "", "cells": 0, "counts": {}, "error": str(err)})
    return rows


def studio_link(cell: CellSummary, kind: str) -> str | None:
    """The report's links inside the Studio: the screenshot through the session's file API, the game
    through the session page (where it plays in its sandboxed preview, never on the Studio's origin)."""
    if cell.session is None:
        return None
    if kind == "shot":
        return f"/api/sessions/{cell.session}/file/{cell.screenshot}" if cell.screenshot else None
    return f"/s/{cell.session}" if cell.game else None


def report_html(folder: Path) -> str:
    """The batch's HTML report as `crumb report --html` writes it, with the Studio's links."""
    from crumb.report import page, plots
    from crumb.report.summary import summarise

    report = summarise(read_batch(folder))
    return page.render(report, plots.draw(report), studio_link)
