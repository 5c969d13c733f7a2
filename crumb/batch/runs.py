"""runs.jsonl: a batch's append-only log, one line each time a cell starts or settles.

Like a transcript it is only appended to (one write of a whole line, flushed and fsynced), and what
each cell stands at is read back by folding it: a cell's latest line wins. A line torn by a crash
(no newline at the end) is ignored when read, and the next append starts on a fresh line, so nothing
written whole is ever lost. Resume runs the cells whose latest line is not `settled`, reusing the
session a `started` line names (the daemon resumes it from its transcript; nothing is doubled).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from crumb.batch.plan import Cell

RunState = Literal["started", "settled", "failed"]  # failed: the cell could not run at all (refused, timed out)


class CellOutcome(BaseModel):
    """How a settled cell ended, as the report counts it (the rest is read from its session folder)."""

    model_config = ConfigDict(extra="forbid")

    done: str | None  # the session's done reason (pass, approved, fail, budget, ...); None while it waits for a person
    verdict: str | None  # the last verdict: PASS, PARTIAL, FAIL or None
    rounds: int
    fallback: bool  # some role was played by a fallback adapter: never counted as the set-up's PASS
    wall_s: float  # from session.start to settling
    tokens: int = 0
    cost_usd: float = 0.0
    exit: int  # what `crumb run` would have exited with (crumb/cli/verdict.py)


class RunLine(BaseModel):
    model_config = ConfigDict(extra="forbid")

    v: Literal[1] = 1
    at: str  # ISO 8601 UTC
    cell: str
    pitch: int
    setup: str
    seed: int
    state: RunState
    session: str | None = None
    host: str = ""  # where it ran (a Ray worker's node, or this machine)
    outcome: CellOutcome | None = None
    error: str | None = None  # why a failed cell failed, one line

    @classmethod
    def of(cls, cell: Cell, state: RunState, **rest: object) -> RunLine:
        return cls.model_validate({"at": now_iso(), "cell": cell.id, "pitch": cell.pitch, "setup": cell.setup,
                                   "seed": cell.seed, "state": state, **rest})


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def append(path: Path, line: RunLine) -> None:
    """One whole line in one write, durable before returning; after a torn last line, on a fresh line."""
    data = line.model_dump_json().encode() + b"\n"
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path: Path) -> list[RunLine]:
    """Every whole, valid line in order; a torn or foreign line is skipped (it was never a record)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    out = []
    for text in raw.split(b"\n")[:-1]:  # the part after the last newline is torn (or empty)
        if not text.strip():
            continue
        try:
            out.append(RunLine.model_validate_json(text))
        except ValidationError:
            continue
    return out


def latest(lines: list[RunLine]) -> dict[str, RunLine]:
    """cell id → its latest line."""
    return {line.cell: line for line in lines}
