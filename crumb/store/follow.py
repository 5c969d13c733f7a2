"""Following a growing transcript: the one way the daemon, the Studio and `crumb tail` read new lines.

A Follower remembers how far it has read (byte offset and seq) and which file it read (device and
inode). Each call costs one stat when nothing changed; otherwise it reads only the new bytes, and
only complete lines (a line being written is read on the next call, whole). A transcript replaced
or cut shorter under it is not read as if it had grown: TranscriptReplaced says so, and the caller
starts a new Follower (the Studio re-reads; the daemon leaves the session alone and says why).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from crumb.store.chain import Chain
from crumb.store.reader import TranscriptError, decode_line

RawLine = tuple[int, bytes]  # (byte offset of the line, the line without its newline)


class TranscriptReplaced(TranscriptError):
    """The followed file is another file now (replaced) or shorter than what was read (cut)."""


class ChainBroken(TranscriptError):
    """The transcript's hash chain does not hold: a line was changed, removed or moved after it was written."""


class Follower:
    """Reads the lines appended to one transcript since the last call.

    With `chain=True` (the daemon) each line's `prev` is checked as it is read (one sha256 a line), and
    a break raises ChainBroken naming the line, every call from then on; with `chain="note"` (the
    Studio) the break is only kept in `self.chain` and reading goes on, so a broken session is still shown.
    """

    def __init__(self, path: Path, *, seq: int = 0, offset: int = 0, chain: bool | Literal["note"] = False) -> None:
        self.path = path
        self.seq = seq  # the last seq read (read_new checks the next line carries seq + 1)
        self.offset = offset  # bytes consumed, always just after a newline
        self.session: str | None = None  # learnt from the first line read
        self.identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the file being followed
        self.chain = Chain() if chain and offset == 0 else None
        self._raise_on_break = chain is True
        self._chained = offset  # lines before this offset were fed to the chain (a call that raised reads them again)
        self._chain_error: ChainBroken | None = None

    def _changed(self) -> int | None:
        """The file's size when it holds bytes not read yet; None when there is nothing new (or no file)."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        identity = (st.st_dev, st.st_ino)
        if self.identity is None:
            self.identity = identity
        elif identity != self.identity or st.st_size < self.offset:
            raise TranscriptReplaced(f"{self.path}: the transcript was replaced or cut short while it was read "
                                     f"(had {self.offset} bytes, now {st.st_size}); read it again from the start")
        return st.st_size if st.st_size > self.offset else None

    def _pending(self) -> tuple[list[RawLine], int]:
        """The complete lines not read yet, and the offset after them (nothing is consumed here)."""
        size = self._changed()
        if size is None:
            return [], self.offset
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read(size - self.offset)
        end = data.rfind(b"\n")
        lines: list[RawLine] = []
        pos = 0
        while pos <= end:
            nl = data.index(b"\n", pos)
            lines.append((self.offset + pos, data[pos:nl]))
            pos = nl + 1
        return lines, self.offset + end + 1

    def read_raw(self) -> list[RawLine]:
        """The complete lines appended since the last call, undecoded (the Studio frames them as they are)."""
        lines, self.offset = self._pending()
        return lines

    def read_new(self) -> list[dict[str, Any]]:
        """The events appended since the last call, in seq order. A bad line raises TranscriptError naming
        it, and nothing of this call is consumed: the next call meets the same line again."""
        if self._chain_error is not None:
            raise self._chain_error
        lines, offset = self._pending()
        seq, session = self.seq, self.session
        events: list[dict[str, Any]] = []
        if self.chain is not None:
            self._check_chain(lines)
        for _, raw in lines:
            obj = decode_line(raw, self.path, seq + 1, seq + 1, session=session)
            seq, session = obj["seq"], obj["session"]
            events.append(obj)
        self.offset, self.seq, self.session = offset, seq, session
        return events

    def _check_chain(self, lines: list[RawLine]) -> None:
        """Feed the new lines to the chain (all of them first: an edited line is named by the lines after it)."""
        assert self.chain is not None
        for at, raw in lines:
            if at >= self._chained:  # a call that raised reads its lines again: the chain saw them already
                self._chained = at + len(raw) + 1
                self.chain.feed(raw)
        broken = self.chain.doubt()
        if broken is not None and self._raise_on_break:
            self._chain_error = ChainBroken(f"{self.path}:{broken.line}: hash chain broken: {broken.message()}")
            raise self._chain_error
