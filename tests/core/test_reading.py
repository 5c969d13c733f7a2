"""The validator reads a spec's pitch reading with msgspec (crumb.protocol.reading), so that replay and
`crumb ls` never load pydantic; the writer checks it with pydantic (crumb.protocol.game). Both must read
every reading the same way, or a replay would judge what the live run did not: these tests say they do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from pydantic import BaseModel

from crumb.actors.embedded.planner import plan
from crumb.protocol import game, reading
from crumb.reducer.validator import _reading

PITCHES = Path(__file__).resolve().parents[2] / "bench" / "pitches.jsonl"
PAIRS: list[tuple[type[BaseModel], type[msgspec.Struct]]] = [
    (game.PitchReading, reading.PitchReadingData), (game.GenreReading, reading.GenreReadingData),
    (game.LanguageReading, reading.LanguageReadingData), (game.StatedNumber, reading.StatedNumberData)]


def by_pydantic(raw: dict[str, Any]) -> reading.PitchReadingData | None:
    """What the validator read before: the pydantic model, or None when it does not validate."""
    try:
        return msgspec.convert(game.PitchReading.model_validate(raw).model_dump(), reading.PitchReadingData)
    except ValueError:
        return None


@pytest.mark.parametrize("model, struct", PAIRS)
def test_the_structs_mirror_the_models_field_for_field(model: type[BaseModel], struct: type[msgspec.Struct]) -> None:
    fields = {f.name: f for f in msgspec.structs.fields(struct)}
    assert list(fields) == list(model.model_fields)
    for name, info in model.model_fields.items():
        f = fields[name]
        assert info.is_required() == (f.required), name
        if not info.is_required():
            default = f.default_factory() if f.default is msgspec.NODEFAULT else f.default
            assert info.get_default(call_default_factory=True) == default, name
    assert model.model_config.get("extra") == "forbid" and struct.__struct_config__.forbid_unknown_fields


def real_readings() -> list[dict[str, Any]]:
    """The readings the embedded Planner writes for a spread of real pitches (genres, languages, numbers)."""
    lines = [json.loads(line) for line in PITCHES.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = []
    for line in lines[::6]:
        spec = plan(line["pitch"], seed=1)
        if isinstance(spec, game.Spec) and spec.reading is not None:  # else the Planner asked for research first
            out.append(spec.reading.model_dump(mode="json"))
    return out


def test_real_readings_read_the_same_and_need_no_pydantic() -> None:
    readings = real_readings()
    assert len(readings) >= 20
    for raw in readings:
        fast = msgspec.convert(raw, reading.PitchReadingData)  # the strict path: no fallback needed
        assert fast == by_pydantic(raw)
        assert reading.shortfalls(fast) == game.PitchReading.model_validate(raw).shortfalls()


def edits(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """A reading edited by hand in ways the strict path refuses or accepts differently from pydantic's lax one."""
    number = raw["numbers"][0] if raw["numbers"] else {"field": "lives", "value": 3.0}
    variants: list[Any] = [
        {**raw, "numbers": [{**number, "value": 3}]},  # an int where a float goes
        {**raw, "numbers": [{**number, "value": "3"}]},  # a string number
        {**raw, "numbers": [{**number, "honoured": "false"}]},
        {**raw, "numbers": [{**number, "honoured": 0}]},
        {**raw, "numbers": [{**number, "extra": 1}]},
        {**raw, "genre": {**raw["genre"], "fits": "no"}},
        {**raw, "genre": {**raw["genre"], "how": "guessed"}},
        {**raw, "language": {**raw["language"], "recognised": 1}},
        {k: v for k, v in raw.items() if k != "language"},
        {**raw, "unhonoured": ("a", "b")},
        {**raw, "guesses": None},
        {**raw, "by": 7},
        {**raw, "colour": "red"},
    ]
    return variants


def test_hand_edited_readings_read_as_pydantic_reads_them() -> None:
    for raw in real_readings()[:5]:
        for variant in edits(raw):
            assert _reading({"reading": variant}) == by_pydantic(variant), variant
