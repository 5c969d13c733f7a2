"""The one transcript writer.

Every append is validated in full, gets the next `seq`, the hash of the line before it (`prev`, the
hash chain: crumb/store/chain.py), a ULID that is greater than the last one in
the file and a UTC timestamp that never goes backwards — all under an inter-process `flock` on the
transcript itself — and lands as one line in one `write`. A torn tail left by a crash is moved aside
before the next append, never rewritten. With the durable policy the first line of a new transcript
also syncs its folder and the sessions folder, so a power cut cannot lose the file's name.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import msgspec
from pydantic import BaseModel, ValidationError
from ulid import ULID

from crumb.protocol.errors import first_problem
from crumb.protocol.events import GROUND_TRUTH_KINDS, KINDS, Meta, parse_event
from crumb.protocol.names import SCHEMA_VERSION
from crumb.store.chain import prev_for
from crumb.store.durable import fsync_new_file, make_dirs
from crumb.store.reader import TranscriptError, last_event, repair_locked

Role = Literal["dispatcher", "inbox"]
Fsync = Literal["always", "never"]

_ONE_MS = timedelta(milliseconds=1)


def _read_all(fd: int) -> bytes:
    """Every byte of the open transcript (only for the first line sealing a transcript from before the chain)."""
    size = os.fstat(fd).st_size
    chunks = []
    offset = 0
    while offset < size:
        chunk = os.pread(fd, size - offset, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


class AppendRefused(ValueError):
    """The event was not written: it is invalid, or this writer may not append its kind."""


def _describe(err: ValidationError, kind: str) -> str:
    p = first_problem(err)
    return f"invalid {kind} event: {p.where}: {p.message}{p.more}"


def _next_ulid(last_id: str | None, now: datetime) -> str:
    """A ULID for `now` that sorts after `last_id`, even if the clock stepped back."""
    candidate = ULID.from_datetime(now)
    if last_id is None or str(candidate) > last_id:
        return str(candidate)
    last = ULID.from_str(last_id)
    return str(ULID.from_int(int(last) + 1))


class TranscriptWriter:
    """Appends to one session's transcript. Safe to use from many processes at once.

    role="dispatcher" may append every kind; role="inbox" (people and tools) may not append the
    ground-truth kinds (qa.result, audit, done, circuit, build, effect results).
    """

    def __init__(
        self,
        path: Path,
        session: str,
        *,
        role: Role = "dispatcher",
        fsync: Fsync = "always",
    ) -> None:
        self.path = Path(path)
        self.session = session
        self.role = role
        self.fsync = fsync

    @contextmanager
    def locked(self) -> Iterator[int]:
        """The transcript's fd with the exclusive inter-process lock held."""
        make_dirs(self.path.parent, durable=self.fsync == "always")
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            os.close(fd)  # closing releases the lock

    def append(
        self,
        kind: str,
        data: BaseModel | dict[str, Any] | None = None,
        *,
        from_: str = "dispatcher",
        body: str = "",
        parent: str | None = None,
        effect: str | None = None,
        meta: Meta | dict[str, Any] | None = None,
        now: datetime | None = None,
    ) -> dict[str, Any]:
        """Validate and append one event; return it as written (JSON form)."""
        if kind not in KINDS:
            raise AppendRefused(f"unknown event kind {kind!r}; known kinds: {', '.join(sorted(KINDS))}")
        if self.role != "dispatcher" and kind in GROUND_TRUTH_KINDS:
            raise AppendRefused(f"{kind} carries ground truth and only the dispatcher may append it")
        if isinstance(data, BaseModel):
            data = data.model_dump(mode="json", by_alias=True)
        if isinstance(meta, BaseModel):
            meta = meta.model_dump(mode="json", exclude_none=True)
        with self.locked() as fd:
            repair_locked(self.path, fd)
            last = last_event(self.path, fd)
            prev, last_raw = last if last is not None else (None, None)
            if prev is not None and prev.get("session") != self.session:
                raise TranscriptError(f"{self.path}: belongs to session {prev.get('session')!r}, not {self.session!r}")
            when = now or datetime.now(UTC)
            if prev is not None:
                prev_ts = datetime.fromisoformat(prev["ts"])
                if when < prev_ts:  # the clock stepped back: time in a transcript never does
                    when = prev_ts + _ONE_MS
            event = {
                "v": SCHEMA_VERSION,
                "seq": (prev["seq"] + 1) if prev else 1,
                "id": _next_ulid(prev["id"] if prev else None, when),
                "ts": when.isoformat(timespec="microseconds").replace("+00:00", "Z"),
                "session": self.session,
                "prev": prev_for(last_raw, self.session, lambda: _read_all(fd)),
                "kind": kind,
                "from": from_,
                "parent": parent,
                "effect": effect,
                "body": body,
                "data": data if data is not None else {},
                "meta": meta or {},
            }
            try:
                model = parse_event(event)
            except ValidationError as err:
                raise AppendRefused(_describe(err, kind)) from None
            written = model.model_dump(mode="json", by_alias=True, exclude_none=True)
            written["ts"] = event["ts"]
            line = msgspec.json.encode(written) + b"\n"
            self._write_line(fd, line)
            return written

    def _write_line(self, fd: int, line: bytes) -> None:
        size = os.fstat(fd).st_size
        try:
            n = os.write(fd, line)
            if n != len(line):
                raise OSError(f"short write ({n} of {len(line)} bytes)")
            if self.fsync == "always":
                os.fsync(fd)
                if size == 0:  # a new transcript: its name is durable only once its folders are synced
                    fsync_new_file(self.path)
        except OSError as err:
            os.ftruncate(fd, size)  # leave no half line behind (disk full, quota, I/O error)
            raise TranscriptError(f"{self.path}: append failed, nothing written: {err}") from err
