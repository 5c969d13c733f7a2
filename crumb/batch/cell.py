"""One cell as a session: pitched the way `crumb run` pitches it, summed up the way the report counts it.

Every executor (this machine, a Ray worker) goes through these two, so a cell is the same session
wherever it runs.
"""

from __future__ import annotations

from pathlib import Path

from crumb.batch.plan import BatchPlan, Cell
from crumb.batch.runs import CellOutcome
from crumb.protocol.names import FAULTS
from crumb.reducer.state import SessionState


def pitch_cell(root: Path, plan: BatchPlan, cell: Cell, session: str | None = None) -> str:
    """Drop the cell's pitch into root's inbox with its set-up and seed: the new session's id (`session`
    when given: chosen beforehand, by the batch recording it before pitching or by a Ray head, so a retry of the cell resumes that session).
    Raises click.ClickException (a usage error's message) when the set-up cannot run here."""
    from crumb.cli.pitch import drop_pitch

    setup = plan.setup(cell.setup)
    session, _ = drop_pitch(root, plan.pitches[cell.pitch - 1], preset=setup.preset, seed=cell.seed,
                            fault=setup.fault, roles=setup.role_flags(), allow_fallback=setup.allow_fallback,
                            session=session)
    return session


def was_pitched(root: Path, session: str) -> bool:
    """Whether `session` was pitched here: its pitch file waits in inbox/, or the daemon took it (a
    transcript) or refused it (inbox/rejected/). Looked at in that order, the reverse of the daemon's
    (transcript first, then the file archived), so a pitch taken meanwhile is never missed. A cell whose
    `started` line names a session never pitched (a crash between the line and the drop) is pitched again
    under that id; any other is only followed: a session is never pitched twice."""
    import os

    from crumb.daemon import rejected
    from crumb.store import paths

    try:
        entries = list(os.scandir(paths.inbox_dir(root)))
    except OSError:
        entries = []
    if any(rejected.session_named(e) == session for e in entries if not e.name.startswith(".")):
        return True
    if paths.transcript_path(root, session).exists():
        return True
    return rejected.find(root, session) is not None


def check_setups(root: Path, plan: BatchPlan) -> None:
    """PlanError when a set-up names what no cell could run with here: a preset not found, a binding the
    daemon would refuse, a fault the embedded studio does not know. (A harness missing on this machine
    is not checked here: each of its cells fails, saying so, as `crumb run` would.)"""
    from crumb.batch.plan import PlanError
    from crumb.daemon import pitch_file

    for setup in plan.setups:
        try:
            pitch_file.check_preset(root, setup.preset)
            pitch_file.check_bindings(dict(setup.roles))
        except ValueError as err:
            raise PlanError(f"set-up {setup.name!r}: {err}") from None
        if setup.fault is not None and setup.fault not in FAULTS:
            raise PlanError(f"set-up {setup.name!r}: unknown fault {setup.fault!r}; use one of {', '.join(FAULTS)}")


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
