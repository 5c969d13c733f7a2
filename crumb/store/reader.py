"""Reading transcripts: stream in seq order, repair a torn tail, name any damage (following one: follow.py).

Lines were validated in full when written, so readers check the envelope of each line — typed and
required fields, checked in C by msgspec while it decodes — and that seq is contiguous. That keeps
replay within a small factor of bare JSON decoding. `validate=True` checks every field with pydantic.
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import UnionType
from typing import Any, NotRequired, TypedDict, Union, get_args, get_origin

import msgspec

from crumb.protocol.line import TranscriptLine, line_decoder
from crumb.protocol.names import EVENT_KINDS, SCHEMA_VERSION
from crumb.store.durable import fsync_dir

log = logging.getLogger("crumb.store")

_CHUNK = 1 << 16


class TranscriptError(Exception):
    """A transcript is damaged in a way CRUMB will not guess about; the message names file and line."""


def last_line(fd: int) -> bytes | None:
    """The last complete line of an open file (None when empty), reading backwards from the end."""
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    end = size
    buf = b""
    while end > 0:
        start = max(0, end - _CHUNK)
        buf = os.pread(fd, end - start, start) + buf
        end = start
        stripped = buf[:-1] if buf.endswith(b"\n") else buf
        nl = stripped.rfind(b"\n")
        if nl >= 0:
            return stripped[nl + 1 :]
    stripped = buf[:-1] if buf.endswith(b"\n") else buf
    return stripped or None


def repair_locked(path: Path, fd: int) -> Path | None:
    """Move a torn last line (no newline: a crash mid-write) aside and truncate to the last good line.

    The caller holds the transcript lock. Returns the sibling file the torn bytes went to.
    """
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    if os.pread(fd, 1, size - 1) == b"\n":
        return None
    # find the end of the last complete line
    end = size
    good = 0
    while end > 0:
        start = max(0, end - _CHUNK)
        chunk = os.pread(fd, end - start, start)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            good = start + nl + 1
            break
        end = start
    torn = os.pread(fd, size - good, good)
    n = 1
    while (aside := path.with_name(f"{path.name}.torn-{n}")).exists():
        n += 1
    aside_fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(torn)
        while view:
            view = view[os.write(aside_fd, view):]
        os.fsync(aside_fd)  # the torn bytes are durable aside before the transcript lets go of them
    finally:
        os.close(aside_fd)
    fsync_dir(path.parent)
    os.ftruncate(fd, good)
    os.fsync(fd)
    log.warning("%s: torn last line (%d bytes) moved to %s", path, len(torn), aside.name)
    return aside


def repair(path: Path) -> Path | None:
    """Repair a torn tail under the transcript lock (see repair_locked). Missing file: nothing to do."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return repair_locked(path, fd)
    finally:
        os.close(fd)


def _envelope_dict() -> Any:
    """The envelope as a TypedDict, derived from TranscriptLine field by field (one statement of what a reader
    checks): a field with a default is NotRequired, and `prev`'s UNSET means "absent, never null"."""
    fields: dict[str, Any] = {}
    for f in msgspec.structs.fields(TranscriptLine):
        kind: Any = f.type
        if get_origin(kind) in (Union, UnionType):
            kind = Union[tuple(a for a in get_args(kind) if a is not msgspec.UnsetType)]  # noqa: UP007
        fields[f.encode_name] = kind if f.required else NotRequired[kind]
    typed_dict: Any = TypedDict
    return typed_dict("Envelope", fields)


Envelope = _envelope_dict()
# decodes and checks Envelope-shaped dicts; typed Any so that readers hand out plain dict[str, Any] events
_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(Envelope)


def decode_line(raw: bytes, path: Path, lineno: int, expected: int | None = None, validate: bool = False,
                session: str | None = None) -> dict[str, Any]:
    """One transcript line as a dict, or TranscriptError naming file, line and problem. `session`: the
    session every line must belong to (the first line's), so a line pasted from another one is named."""
    try:
        obj: dict[str, Any] = _decoder.decode(raw)
    except msgspec.ValidationError as err:
        raise TranscriptError(f"{path}:{lineno}: {err}") from None
    except msgspec.DecodeError as err:
        raise TranscriptError(f"{path}:{lineno}: not valid JSON ({err}); the transcript is damaged — "
                              "restore it from a backup or move the bad line out by hand") from None
    if expected is not None and obj["seq"] != expected:
        raise TranscriptError(f"{path}:{lineno}: seq {obj['seq']} where {expected} was expected")
    if session is not None and obj["session"] != session:
        raise TranscriptError(f"{path}:{lineno}: session {obj['session']}, but the lines before are of session {session}: "
                              "a line from another transcript (or a damaged session id); move it out by hand")
    if validate:
        from pydantic import ValidationError  # pydantic and the models: loaded only where a line is checked in full

        from crumb.protocol.errors import one_line
        from crumb.protocol.events import parse_event

        if obj["kind"] not in EVENT_KINDS:
            raise TranscriptError(f"{path}:{lineno}: unknown kind {obj['kind']!r} (schema v{obj['v']}; this CRUMB knows "
                                  f"v{SCHEMA_VERSION}): replay without --strict skips it, or upgrade CRUMB")
        try:
            parse_event(obj)
        except ValidationError as err:
            raise TranscriptError(f"{path}:{lineno}: {one_line(err)}") from None
    return obj


def _count_lines(fd: int) -> int:
    """Complete lines in an open file (only on the error path: it reads the whole file)."""
    n, offset = 0, 0
    while chunk := os.pread(fd, _CHUNK, offset):
        n += chunk.count(b"\n")
        offset += len(chunk)
    return n


def last_event(path: Path, fd: int) -> tuple[dict[str, Any], bytes] | None:
    """The last complete line's event and its bytes, for the writer to continue from (None when empty).

    A damaged last line raises TranscriptError naming file, line and problem: appending after it
    would guess a seq, an id or a time, and CRUMB never guesses.
    """
    from ulid import ULID  # the writer's path only: a reader that replays never loads it

    raw = last_line(fd)
    if raw is None:
        return None
    try:
        obj: dict[str, Any] = _decoder.decode(raw)
        if datetime.fromisoformat(obj["ts"]).tzinfo is None:
            raise ValueError(f"ts {obj['ts']!r} has no time zone")
        ULID.from_str(obj["id"])
        return obj, raw
    except (msgspec.DecodeError, ValueError) as err:  # msgspec's ValidationError is a DecodeError
        lineno = _count_lines(fd)
        if isinstance(err, msgspec.DecodeError):
            decode_line(raw, path, lineno)  # raises, naming the problem as every reader does
        raise TranscriptError(f"{path}:{lineno}: {str(err).rstrip('.')}; the last line is damaged — move it out by hand, "
                              "then append again") from None


def read_events(path: Path, *, after_seq: int = 0, validate: bool = False) -> Iterator[dict[str, Any]]:
    """Stream a transcript's events in seq order (JSON form). A torn last line is skipped, not read.

    A missing file reads as empty. A bad line before the end raises TranscriptError naming it.
    """
    return _scan(path, after_seq, validate, False)


def read_lines(path: Path, *, after_seq: int = 0, validate: bool = False) -> Iterator[TranscriptLine]:
    """read_events as TranscriptLine structs (replay's reader: attribute access, no dict per line). The same
    lines are read and the same damage named, in the same words."""
    return _scan(path, after_seq, validate, True)


def _scan(path: Path, after_seq: int, validate: bool, lines: bool) -> Iterator[Any]:
    """The one scan loop: envelope and seq checked per line by the fast decoder; any line it does not
    take (and every line with validate) goes through decode_line, which names the problem or checks in full."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    decode = line_decoder.decode if lines else _decoder.decode
    obj: Any
    with f:
        expected = 1
        session = None
        for raw in f:
            if raw[-1:] != b"\n":
                log.warning("%s:%d: torn last line skipped (crash mid-write); it is moved aside on the next append",
                            path, expected)
                return
            try:
                obj = decode(raw)
                if lines:
                    ok = obj.seq == expected and obj.session == session and not validate
                else:
                    ok = obj["seq"] == expected and obj["session"] == session and not validate
            except msgspec.DecodeError:  # ValidationError is one too
                ok = False
            if not ok:
                checked = decode_line(raw, path, expected, expected, validate, session)
                session = checked["session"]
                obj = decode(raw) if lines else checked  # the line passed the same checks: it decodes
            expected += 1
            if (obj.seq if lines else obj["seq"]) > after_seq:
                yield obj
