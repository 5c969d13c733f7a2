"""One transcript line as readers check it: the envelope, typed, as a struct.

The writer validates every line in full with the pydantic models (crumb.protocol.events.Envelope and the
model of its kind). Readers check each line's envelope — required fields present, each of its type — in
C while msgspec decodes it, and this struct is that check's one statement: store.reader decodes lines
into it for replay and derives from it the dict-shaped decoder every other reader uses.
tests/core/test_line.py keeps its fields equal to the pydantic Envelope's.

`data` is decoded as any JSON value, exactly as a dict reader decodes it. (Leaving it raw until the
reducer reads it was measured at 9 % faster replay, but msgspec skips raw JSON without checking its
UTF-8 or its numbers' range, so a damaged line would no longer be named where every other reader names
it.)
"""

from __future__ import annotations

from typing import Any

import msgspec


class TranscriptLine(msgspec.Struct, gc=False, rename={"from_": "from"}):
    """The envelope of one line (names as written; `from` is a Python keyword, hence `from_`).

    Not tracked by the garbage collector (gc=False): replay makes one per line, and a line read from JSON
    holds no reference cycle."""

    v: int
    seq: int
    id: str
    ts: str
    session: str
    kind: str
    from_: str
    prev: str | msgspec.UnsetType = msgspec.UNSET  # absent in transcripts written before the chain; never null
    parent: str | None = None
    effect: str | None = None
    body: str = ""
    data: Any = None
    meta: dict[str, Any] = {}


#: fields a line may leave out (the rest are required)
OPTIONAL = ("prev", "parent", "effect", "body", "data", "meta")

#: decodes one line (bytes) into a TranscriptLine, checking the envelope
line_decoder = msgspec.json.Decoder(TranscriptLine)
