"""Real batch folders for the report's tests, written the way `crumb batch` writes them.

Each cell is a real session of the embedded studio (`crumb run`, ~3-7 s), run in a root of its own (two
at a time: each `crumb run` holds its root's daemon lock) and then moved whole into the batch's root,
as a Ray worker's session folder comes back to the head. batch.toml is BatchPlan.to_toml(), runs.jsonl
a `started` then a `settled` line per cell (RunLine.of + outcome_of of the replayed session), and
batches/<id>/sessions/<cell> links to ../../../sessions/<session id>.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from crumb.batch import runs
from crumb.batch.cell import outcome_of
from crumb.batch.plan import BATCHES, PLAN_TOML, RUNS_JSONL, SESSION_LINKS, BatchPlan, Cell, Setup, parse_setup
from crumb.reducer.replay import replay_file
from crumb.store import paths

REPO = Path(__file__).resolve().parents[2]

#: the batch every report test reads: PASS, PASS at round 2 (a timer broken on purpose, then fixed), a
#: fallback that passed (a builder command that always fails, so the circuit hands it to local), PARTIAL
#: (pinball: a genre the studio has no game for), in two languages, and one cell left missing
PITCHES = ["un jeu de serpent qui dure soixante secondes", "a pinball game with three balls"]
SETUPS = ["local", "local,fault=wrongtimer", "builder=command:/bin/false"]
SKIP = {"p002-builder-command-bin-false-s1"}  # never run: the report must show it missing
BATCH_ID = "01TESTBATCH0000000000000001"


@dataclass(frozen=True)
class Made:
    root: Path
    folder: Path
    plan: BatchPlan
    sessions: dict[str, str]  # cell id → session id


def run_args(setup: Setup, pitch: str, seed: int) -> list[str]:
    args = [pitch, "--seed", str(seed), "--json", "--timeout", "240"]
    if setup.preset:
        args += ["--preset", setup.preset]
    if setup.fault:
        args += ["--fault", setup.fault]
    for flag in setup.role_flags():
        args += ["--role", flag]
    if setup.allow_fallback:
        args.append("--allow-fallback")
    return args


def run_cell(work: Path, plan: BatchPlan, cell: Cell) -> Path:
    """One real session in a root of its own: its folder."""
    root = work / cell.id
    root.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), "run",
                           *run_args(plan.setup(cell.setup), plan.pitches[cell.pitch - 1], cell.seed)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip(), f"crumb run for {cell.id} printed nothing: {done.stderr[-2000:]}"
    session = json.loads(done.stdout.strip().splitlines()[-1])["session"]
    return paths.session_dir(root, session)


def link(folder: Path, cell: str, session: str) -> None:
    links = folder / SESSION_LINKS
    links.mkdir(exist_ok=True)
    os.symlink(f"../../../{paths.SESSIONS}/{session}", links / cell)


def make_batch(root: Path, *, pitches: list[str] = PITCHES, setups: list[str] = SETUPS, seeds: list[int] = [1],  # noqa: B006
               skip: set[str] = SKIP, batch_id: str = BATCH_ID) -> Made:
    plan = BatchPlan(name="report-test", crumb="test", pitches=pitches, setups=[parse_setup(s) for s in setups],
                     seeds=seeds)
    folder = root / BATCHES / batch_id
    folder.mkdir(parents=True)
    (folder / PLAN_TOML).write_text(plan.to_toml(), encoding="utf-8")
    todo = [c for c in plan.cells() if c.id not in skip]
    work = root / ".work"
    with ThreadPoolExecutor(2) as pool:
        made = list(pool.map(lambda c: run_cell(work, plan, c), todo))
    sessions: dict[str, str] = {}
    log = folder / RUNS_JSONL
    paths.sessions_dir(root).mkdir(exist_ok=True)
    for cell, where in zip(todo, made, strict=True):
        session = where.name
        runs.append(log, runs.RunLine.of(cell, "started", session=session))
        shutil.move(where, paths.session_dir(root, session))
        state = replay_file(paths.transcript_path(root, session))
        runs.append(log, runs.RunLine.of(cell, "settled", session=session, outcome=outcome_of(state)))
        link(folder, cell.id, session)
        sessions[cell.id] = session
    shutil.rmtree(work)
    return Made(root=root, folder=folder, plan=plan, sessions=sessions)
