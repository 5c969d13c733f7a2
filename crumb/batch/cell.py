"""One cell as a session: pitched the way `crumb run` pitches it, summed up the way the report counts it.

Every executor (this machine, a Ray worker) goes through these two, so a cell is the same session
wherever it runs.
"""

from __future__ import annotations

from pathlib import Path

from crumb.batch.plan import BatchPlan, Cell
from crumb.batch.runs import CellOutcome
from crumb.reducer.state import SessionState


def pitch_cell(root: Path, plan: BatchPlan, cell: Cell, session: str | None = None) -> str:
    """Drop the cell's pitch into root's inbox with its set-up and seed: the new session's id (`session`
    when given: an executor that chose it beforehand, so a retry of the cell resumes that session).
    Raises click.ClickException (a usage error's message) when the set-up cannot run here."""
    from crumb.cli.pitch import drop_pitch

    setup = plan.setup(cell.setup)
    session, _ = drop_pitch(root, plan.pitches[cell.pitch - 1], preset=setup.preset, seed=cell.seed,
                            fault=setup.fault, roles=setup.role_flags(), allow_fallback=setup.allow_fallback,
                            session=session)
    return session


def outcome_of(state: SessionState) -> CellOutcome:
    """A settled session, as runs.jsonl records it."""
    from crumb.cli.verdict import exit_code, last_verdict
    from crumb.reducer.played import fell_back

    done = state.done
    v = last_verdict(state)
    return CellOutcome(done=done.get("reason") if done is not None else None,
                       verdict=(done.get("verdict") if done is not None else None) or (v.get("verdict") if v else None),
                       rounds=state.round, fallback=fell_back(state.played), wall_s=round(state.elapsed_s(), 3),
                       tokens=state.tokens, cost_usd=round(state.cost_usd, 6), exit=exit_code(state))
