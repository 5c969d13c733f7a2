"""A batch.toml dropped into inbox/: checked like a pitch, then made a batch the daemon drives.

The daemon reads the file as it reads a pitch (crumb/daemon/files.py) and hands its text to InboxBatches,
which it finds by name (crumb/daemon/plans.py: batches sit above the daemon). A plan that cannot run
(not TOML, a field wrong, a preset not found, a command binding not on this machine's allow-list)
raises PlanError, and the daemon keeps the file in inbox/rejected/ with the reason beside it. A good
one becomes batches/<id>/, its id derived from the file (name, sha256, stamp) the way a pitch file's
session id is, so a file read again after a crash makes the same batch, never a second one.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from crumb.batch.driver import FROM_INBOX, BatchBusy, create, list_batches, run_batch, unfinished
from crumb.batch.plan import PlanError, parse_plan

log = logging.getLogger("crumb.batch")


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


class InboxBatches:
    """The daemon's PlanHandler (crumb/daemon/plans.py) for batch.toml files."""

    def accept(self, root: Path, text: str, *, plan_id: str, where: str) -> Path:
        return accept(root, text, batch_id=plan_id, where=where)

    def archive_dir(self, folder: Path) -> Path:
        return folder / FROM_INBOX

    def drive(self, root: Path, folder: Path, stop: threading.Event) -> str:
        from crumb.batch.executor import LocalExecutor

        try:
            t = run_batch(root, folder, LocalExecutor(own_daemon=False, stop=stop))
        except BatchBusy as err:
            return f"batch {folder.name} left to its driver: {err}"
        return f"batch {folder.name}: {t.settled}/{t.cells} cells settled, {t.failed} failed"

    def unfinished(self, root: Path) -> list[Path]:
        out = []
        for folder in list_batches(root):
            try:
                if (folder / FROM_INBOX).is_dir() and unfinished(folder):
                    out.append(folder)
            except (OSError, ValueError):  # a batch.toml edited into nonsense: `crumb batch resume` says what
                log.warning("batch %s: cannot read its plan; not taken up", folder.name)
        return out
