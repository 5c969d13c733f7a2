"""One shared tail per transcript, fanned out to every open page.

However many tabs watch a session, the Studio reads its transcript once: a single polling task
stats each watched file every ~20 ms, reads only the new bytes, indexes line offsets (seq N is
line N, the writer guarantees it) and hands the raw lines, framed once, to each subscriber's queue
(with a crowd of tabs open, once the transcript stops growing: see CROWD). Pages and
reconnects read history by seq through the same index, so a large transcript is never sent whole.
New lines also wake the session's panel feed (panels.py), whose updates go out on the same queues.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from crumb.store.follow import Follower, TranscriptReplaced
from crumb.studio.panels import PanelFeed, PanelUpdate

Line = tuple[int, bytes]  # (seq, raw JSON line without the newline)
WAKE: Final = "wake"  # a stream's own marker: look at the connection (gone? time for a keepalive?)


def event_frame(seq: int, raw: bytes) -> bytes:
    """One line as an SSE `ev` event whose id is its seq (what a reconnect sends back as Last-Event-ID)."""
    return b"id: %d\nevent: ev\ndata: %s\n\n" % (seq, raw)


@dataclass(frozen=True)
class Batch:
    """Lines one poll found, framed once: every tab whose stream is past `first - 1` sends these bytes."""

    lines: list[Line]
    frame: bytes

    @property
    def first(self) -> int:
        return self.lines[0][0]

    @property
    def last(self) -> int:
        return self.lines[-1][0]

    @classmethod
    def of(cls, lines: list[Line]) -> Batch:
        return cls(lines, b"".join(event_frame(seq, raw) for seq, raw in lines))


Item = Batch | PanelUpdate | Literal["wake"] | None  # new lines, changed panels, WAKE, or None: "shutting down"

POLL_S = 0.02
# With this many streams open, new lines wait until the transcript stops growing (a round that finds
# nothing new), or HOLD_S at most: fanning out to a crowd of tabs while the daemon is in the middle of a
# burst takes the CPU from it (bench/studio.py: +8 % wall time on bursts with 50 tabs, +0 % held).
CROWD = 10
HOLD_S = 0.1
QUEUE_MAX = 10_000


def _seq_of(raw: bytes) -> int | None:
    """The seq of a line, read without decoding it all (the writer puts `"seq":N` near the front)."""
    at = raw.find(b'"seq":', 0, 64)
    if at < 0:
        return None
    start = at + 6
    end = start
    while end < len(raw) and 48 <= raw[end] <= 57:
        end += 1
    return int(raw[start:end]) if end > start else None


@dataclass(eq=False)
class Subscriber:
    queue: asyncio.Queue[Item] = field(default_factory=lambda: asyncio.Queue(QUEUE_MAX))
    overflowed: bool = False

    def wake(self) -> None:
        """Wake the stream waiting on the queue (a full queue wakes it anyway)."""
        try:
            self.queue.put_nowait(WAKE)
        except asyncio.QueueFull:
            pass


class Tail:
    """The index and subscribers of one transcript. Not thread-safe: lives on the server's loop."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offsets: list[int] = []  # offsets[seq - 1] = byte offset of line seq
        self.lengths: list[int] = []
        self.follower = Follower(path)  # what has been read, and of which file
        self.subscribers: set[Subscriber] = set()
        self.feed: PanelFeed | None = None  # the session's panels, set by whoever serves them
        self.held: list[Line] = []  # indexed, not yet handed to the streams (see CROWD)
        self.held_since = 0.0

    @property
    def last_seq(self) -> int:
        return len(self.offsets)

    def refresh(self) -> list[Line]:
        """Index lines appended since the last call; return them (complete lines only)."""
        try:
            raws = self.follower.read_raw()
        except TranscriptReplaced:
            self.offsets.clear()  # a new or replaced file: index it afresh
            self.lengths.clear()
            self.held.clear()
            self.follower = Follower(self.path)
            raws = self.follower.read_raw()
        new: list[Line] = []
        for offset, raw in raws:
            seq = _seq_of(raw)
            if seq == len(self.offsets) + 1:
                self.offsets.append(offset)
                self.lengths.append(len(raw))
                new.append((seq, raw))
        return new

    def lines(self, first: int, last: int) -> list[Line]:
        """Lines with first <= seq <= last (clamped to what is indexed), read from disk."""
        first = max(first, 1)
        last = min(last, len(self.offsets))
        if last < first:
            return []
        start = self.offsets[first - 1]
        stop = self.offsets[last - 1] + self.lengths[last - 1]
        with open(self.path, "rb") as f:
            f.seek(start)
            data = f.read(stop - start)
        out: list[Line] = []
        for seq in range(first, last + 1):
            off = self.offsets[seq - 1] - start
            out.append((seq, data[off : off + self.lengths[seq - 1]]))
        return out

    def catch_up(self, now: float = 0.0, hold: bool = False) -> None:
        """Index what is on disk now and hand the new lines (and any held ones) to the subscribers.

        Never index silently: a line indexed and then forgotten would be missing from every open stream.
        With `hold`, lines that just arrived are kept while they keep arriving, HOLD_S at most.
        """
        lines = self.refresh()
        if hold and lines:
            if not self.held:
                self.held_since = now
            self.held.extend(lines)
            if now - self.held_since < HOLD_S:
                return
            lines = []
        lines, self.held = self.held + lines, []
        if not lines:
            return
        self.broadcast(Batch.of(lines))
        if self.feed is not None and self.subscribers:
            self.feed.poke()

    def broadcast(self, item: Batch | PanelUpdate) -> None:
        for sub in self.subscribers:
            try:
                sub.queue.put_nowait(item)
            except asyncio.QueueFull:
                sub.overflowed = True  # the stream notices and tells the page to reload from the index


class TailHub:
    """All tails of one root, and the one polling task that feeds them while anyone listens."""

    def __init__(self, poll_s: float = POLL_S, crowd: int = CROWD) -> None:
        self.poll_s = poll_s
        self.crowd = crowd
        self.tails: dict[Path, Tail] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def tail(self, path: Path) -> Tail:
        t = self.tails.get(path)
        if t is None:
            t = self.tails[path] = Tail(path)
        return t

    def subscribe(self, path: Path) -> tuple[Tail, Subscriber]:
        t = self.tail(path)
        sub = Subscriber()
        t.subscribers.add(sub)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="crumb-studio-tail")
        return t, sub

    def unsubscribe(self, tail: Tail, sub: Subscriber) -> None:
        tail.subscribers.discard(sub)

    def watched(self) -> Iterable[Tail]:
        return [t for t in self.tails.values() if t.subscribers]

    async def _run(self) -> None:
        while not self._closed:
            active = list(self.watched())
            if not active:
                self._task = None
                return
            hold = sum(len(t.subscribers) for t in active) >= self.crowd
            now = asyncio.get_running_loop().time()
            for t in active:
                try:
                    t.catch_up(now, hold)
                except OSError:
                    continue
            await asyncio.sleep(self.poll_s)

    @property
    def closed(self) -> bool:
        """The server is shutting down: streams that poll on their own (a batch's) end too."""
        return self._closed

    def close(self) -> None:
        """Wake every stream with an end marker so the server can shut down promptly."""
        self._closed = True
        for t in self.tails.values():
            for sub in t.subscribers:
                try:
                    sub.queue.put_nowait(None)
                except asyncio.QueueFull:
                    pass
