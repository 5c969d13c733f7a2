"""The transcript's hash chain: each line's `prev` seals the line before it, so an edit shows.

`prev` of line 1 is the session id; of every later line, the sha256 (hex) of the previous line's exact
bytes, without its newline. A transcript written before the chain has no `prev`: the first line that
carries one after such lines holds the sha256 of every byte before it (the old lines, newlines
included), so the old prefix is sealed from then on too. Once a line carries `prev`, every later line
must. The head (`crumb seal`) is the sha256 of the last line: published somewhere else (a git commit),
it also catches a rewrite of the whole chain after it.

This module is pure bytes-in, verdict-out (no I/O): the writer stamps with `prev_for`, `crumb verify`,
the daemon and the Studio check with `Chain`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import msgspec

Status = Literal["sealed", "unsealed", "broken"]


def line_hash(raw: bytes) -> str:
    """sha256 hex of one line's bytes (without its newline): what the next line's `prev` holds."""
    return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class ChainBreak:
    """The first place the chain does not hold: the line to blame, what was expected and found, and
    what that suggests (edited, removed, reordered)."""

    line: int
    expected: str
    found: str
    what: str

    def message(self) -> str:
        return f"{self.what} (expected {self.expected}, found {self.found})"


def _short(value: object) -> str:
    text = "none" if value is None else str(value)
    return text[:16] + "…" if len(text) > 19 else text


class _Envelope(msgspec.Struct):
    """The fields the chain reads from a line (everything else is the reader's business)."""

    seq: int
    session: str
    prev: str | None = None


_decode = msgspec.json.Decoder(_Envelope).decode


def _peek(raw: bytes) -> _Envelope | None:
    try:
        return _decode(raw)
    except msgspec.DecodeError:
        return None


class Chain:
    """Checks lines as they come (the daemon's follower) or a whole file (`crumb verify`).

    `feed` returns the first ChainBreak once it is certain what it is; some breaks are only named
    precisely with the next line or two in hand (an edited line shows in the next line's `prev`), so
    `feed` may hold its verdict back until `end()`.
    """

    def __init__(self, session: str | None = None) -> None:
        self.session = session  # the session every line must belong to; when None, the first line's
        self.lines = 0  # complete lines fed
        self.sealed_from: int | None = None  # the first line carrying `prev`
        self.head: str | None = None  # line_hash of the last line fed
        self.broken: ChainBreak | None = None
        self._prefix = hashlib.sha256()  # every byte so far, while no line carries `prev` (the mixed case)
        self._suspect: tuple[int, str, str] | None = None  # (line, its prev, the hash expected) awaiting a look ahead
        self._after: list[tuple[bytes, _Envelope | None, str]] = []  # lines fed after the suspect one

    @property
    def status(self) -> Status:
        if self.broken is not None:
            return "broken"
        return "unsealed" if self.sealed_from is None else "sealed"

    def feed(self, raw: bytes) -> ChainBreak | None:
        """One complete line (without its newline). Returns the first break once named, else None."""
        if self.broken is not None:
            return self.broken
        n = self.lines + 1
        h = line_hash(raw)
        env = _peek(raw)
        if self._suspect is not None:
            self._after.append((raw, env, h))
            self._settle(final=False)
        else:
            self._check(n, raw, env, h)
        self.lines = n
        if self.sealed_from is None and env is not None and env.prev is not None:
            self.sealed_from = n
        if self.sealed_from is None:
            self._prefix.update(raw + b"\n")
        self.head = h
        return self.broken

    def doubt(self) -> ChainBreak | None:
        """A break seen but not yet named precisely (it waits for the next line): enough to stop acting on."""
        if self._suspect is None or self.broken is not None:
            return self.broken
        n, found, expected = self._suspect
        return ChainBreak(n, f"prev {_short(expected)}", f"prev {_short(found)}",
                          "its prev does not match the line before it: that line, or this one, was changed, removed or moved")

    def end(self) -> ChainBreak | None:
        """No more lines: name a break that was waiting for the lines after it."""
        if self._suspect is not None and self.broken is None:
            self._settle(final=True)
        return self.broken

    def _fail(self, line: int, expected: str, found: str, what: str) -> None:
        self.broken = ChainBreak(line, expected, found, what)

    def _check(self, n: int, raw: bytes, env: _Envelope | None, h: str) -> None:
        if env is None:
            self._fail(n, "a transcript line (JSON with seq, session)", _short(raw.decode("utf-8", "replace")),
                       "not a transcript line: edited by hand or damaged")
            return
        if self.session is None:
            self.session = env.session
        if env.session != self.session:
            self._fail(n, f"session {self.session}", f"session {env.session}", "a line from another session's transcript")
            return
        if env.prev is None:
            if self.sealed_from is not None:
                self._fail(n, "a prev", "none", f"the chain started at line {self.sealed_from}, this line has no prev: "
                           "written or edited by hand")
                return
            if env.seq != n:
                self._fail(n, f"seq {n}", f"seq {env.seq}", "seq out of order in an unsealed transcript")
            return
        expected = self._expected(n)
        if env.seq == n and env.prev == expected:
            return
        if n == 1 and env.seq == 1:
            self._fail(1, f"prev {self.session} (the session id)", f"prev {_short(env.prev)}",
                       "the first line's prev is not this session's id: edited, or copied from another session")
            return
        if env.seq != n:
            if env.prev == expected:
                self._fail(n, f"seq {n}", f"seq {env.seq}", "its seq was changed after it was written (its prev still "
                           "matches the line before)")
            elif env.seq > n:
                self._suspect = (n, env.prev, expected)  # removed lines, or a line moved up: the next line tells
                self._after = [(raw, env, h)]
            else:
                self._fail(n, f"seq {n}", f"seq {env.seq}", "a line moved down or copied here: lines were reordered")
            return
        # right seq, wrong prev: the line before was changed — unless this line itself was (the next one tells)
        self._suspect = (n, env.prev, expected)
        self._after = [(raw, env, h)]

    def _expected(self, n: int) -> str:
        if n == 1:
            return str(self.session)
        if self.sealed_from is None:  # the first sealed line after old ones seals all of them
            return self._prefix.hexdigest()
        return str(self.head)  # not yet updated: the line before this one

    def _settle(self, *, final: bool) -> None:
        """Name the break at the suspect line from the line(s) after it."""
        assert self._suspect is not None
        n, found, expected = self._suspect
        here_raw, here, here_h = self._after[0]
        assert here is not None
        nxt = self._after[1] if len(self._after) > 1 else None
        if here.seq != n:  # seq jumps ahead here
            if nxt is not None and nxt[1] is not None and nxt[1].seq == n and here.prev == nxt[2]:
                self._fail(n, f"seq {n}", f"seq {here.seq}", f"lines {n} and {n + 1} were swapped (line {n} holds "
                           f"seq {here.seq}, and its prev is the hash of line {n + 1})")
            elif nxt is None and not final:
                return
            else:
                gone = f"seq {n}" if here.seq == n + 1 else f"seq {n} to {here.seq - 1}"
                after = "the start" if n == 1 else f"line {n - 1}"
                self._fail(n, f"seq {n}", f"seq {here.seq}", f"the line(s) with {gone} were removed before this line "
                           f"(or moved further down): seq jumps to {here.seq} after {after}, and prev does not match "
                           f"{after}")
            self._suspect = None
            return
        if nxt is None and not final:
            return
        before = n - 1
        if nxt is None:  # the last line: it, or the one before it, was changed; nothing after tells which
            self._fail(before, f"prev {_short(expected)}", f"prev {_short(found)}",
                       f"line {before} (or line {n}'s prev) was changed after it was written: line {n}'s prev does "
                       f"not match it")
        elif nxt[1] is not None and nxt[1].prev == here_h:  # this line is intact: the one before it was edited
            if self.sealed_from is not None and self.sealed_from >= n:  # `n` seals the old lines before it
                self._fail(before, f"sha256 {_short(found)} (line {n}'s prev)", f"sha256 {_short(expected)}",
                           f"lines 1 to {before} (written before the chain) were changed after line {n} sealed them")
            else:
                self._fail(before, f"sha256 {_short(found)} (line {n}'s prev)", f"sha256 {_short(expected)}",
                           f"changed after it was written: line {n}'s prev no longer matches it")
        else:
            self._fail(n, f"prev {_short(expected)}", f"prev {_short(found)}",
                       "was changed or forged: its prev does not match the line before, and the next line's prev "
                       "does not match it")
        self._suspect = None


def prev_for(last_raw: bytes | None, session: str, read_all: Callable[[], bytes]) -> str:
    """The `prev` of the next line: the session id for line 1, else the hash of the last line — or, when
    that line carries no `prev` (a transcript from before the chain), the hash of every byte so far
    (`read_all()` gives them; called only then)."""
    if last_raw is None:
        return session
    env = _peek(last_raw)
    if env is not None and env.prev is not None:
        return line_hash(last_raw)
    return hashlib.sha256(read_all()).hexdigest()
