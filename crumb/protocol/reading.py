"""How the Planner read the pitch (spec.reading), as the validator reads it on replay: msgspec, not pydantic.

The validator runs on every judge.score a replay meets, and `crumb ls` replays every session: pydantic
would cost more to import than the rest of `ls`. The pydantic models (crumb.protocol.game:
PitchReadingData and its parts) stay the schema the writer checks; these structs mirror them field for field
(tests/core/test_reading.py keeps the two equal) and are read strictly, so that whatever they accept the
pydantic model accepts with the same values; the validator hands anything else to the pydantic model.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

GenreHow = Literal["named", "mechanics", "evidence", "nearest", "steering", "kept", "person", "planner"]


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


class GenreReadingData(_Strict, frozen=True):
    genre: str
    how: GenreHow
    words: list[str] = []
    asked: str | None = None
    fits: bool | None = None
    note: str = ""


class LanguageReadingData(_Strict, frozen=True):
    language: str
    read_as: str
    recognised: bool
    how: str = ""


class StatedNumberData(_Strict, frozen=True):
    field: str
    value: float
    said: str = ""
    criterion: str | None = None
    honoured: bool = True
    note: str = ""


class PitchReadingData(_Strict, frozen=True, kw_only=True):
    by: str = "embedded studio"
    builder: str = "local"
    genre: GenreReadingData
    language: LanguageReadingData
    numbers: list[StatedNumberData] = []
    unhonoured: list[str] = []
    guesses: list[str] = []


def shortfalls(reading: PitchReadingData) -> list[str]:
    """Why the game may not be the one pitched, in a designer's words; empty when it is."""
    out: list[str] = []
    if reading.genre.fits is False:
        out.append(reading.genre.note or f"the pitch asks for {reading.genre.asked or 'another game'}; built {reading.genre.genre}")
    if not reading.language.recognised:
        out.append(reading.language.how or f"the pitch's language ({reading.language.language}) is not read")
    out += [n.note or f"{n.field} {n.value:g} ({n.said!r}) is not built" for n in reading.numbers if not n.honoured]
    out += reading.unhonoured
    return out


def read(raw: dict[str, Any]) -> PitchReadingData | None:
    """A spec's reading exactly as the writer records it (the pydantic model's JSON), else None: the
    caller then asks the pydantic model, which also takes what a hand edit may have left."""
    try:
        return msgspec.convert(raw, PitchReadingData)
    except msgspec.ValidationError:
        return None
