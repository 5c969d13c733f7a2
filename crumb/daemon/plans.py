"""The daemon's seam for plan files: a `*.toml` in inbox/ is a batch plan, handed to the handler named
here and looked up by name when the first one arrives, the way an entry point is. Batches sit above the
daemon (a batch drives sessions through a daemon), so the daemon never imports them."""

from __future__ import annotations

import functools
import importlib
import threading
from pathlib import Path
from typing import Protocol

PLAN_SUFFIX = ".toml"  # an inbox file named *.toml is a batch plan, not a pitch
HANDLER = "crumb.batch.inbox:InboxBatches"


class PlanHandler(Protocol):
    def accept(self, root: Path, text: str, *, plan_id: str, where: str) -> Path:
        """The folder the plan becomes (the same one if the file is read again); ValueError with a
        one-line reason for a plan that cannot run."""
        ...

    def archive_dir(self, folder: Path) -> Path:
        """Where the read plan file is kept (inside its folder: what was taken, beside what it made)."""
        ...

    def drive(self, root: Path, folder: Path, stop: threading.Event) -> str:
        """Run the plan's work to the end (or until `stop`): a line to say when it ends."""
        ...

    def unfinished(self, root: Path) -> list[Path]:
        """Plans this root's daemon took from inbox/ and did not finish: a restarted daemon drives them."""
        ...


@functools.cache
def plan_handler() -> PlanHandler:
    module, _, attr = HANDLER.partition(":")
    handler: PlanHandler = getattr(importlib.import_module(module), attr)()
    return handler
