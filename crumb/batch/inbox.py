"""A batch.toml dropped into inbox/: checked like a pitch, then made a batch the daemon drives.

The daemon reads the file as it reads a pitch (crumb/daemon/files.py) and hands its text here. A plan
that cannot run (not TOML, a field wrong, a preset not found, a command binding not on this machine's
allow-list) raises PlanError, and the daemon keeps the file in inbox/rejected/ with the reason beside it.
A good one becomes batches/<id>/, its id derived from the file (name, sha256, stamp) the way a pitch
file's session id is, so a file read again after a crash makes the same batch, never a second one.
"""

from __future__ import annotations

from pathlib import Path

from crumb.batch.driver import create
from crumb.batch.plan import PlanError, parse_plan


def accept(root: Path, text: str, *, batch_id: str, where: str) -> Path:
    """The batch folder for a dropped batch.toml's text (made now, or found from before a crash)."""
    from crumb.actors.harness import local_only
    from crumb.batch.cell import check_setups

    plan = parse_plan(text, where)
    check_setups(root, plan)
    for setup in plan.setups:  # a program of the file's choosing runs only if a person at the machine chose it
        try:
            local_only.check_remote(root, setup.roles, f"set-up {setup.name!r} of {where}")
        except ValueError as err:
            raise PlanError(str(err)) from None
    return create(root, plan, batch_id)
