"""The envelope readers check (crumb.protocol.line.TranscriptLine) is the writer's (the pydantic Envelope):
the same fields, none required that the writer may leave out; and a line's two decoded forms agree."""

from __future__ import annotations

import msgspec
import orjson
import pytest

from crumb.protocol.events import Envelope
from crumb.protocol.line import OPTIONAL, TranscriptLine, line_decoder
from crumb.store.reader import _decoder

GOOD = {"v": 1, "seq": 3, "id": "01JBENCHSESSION00000000000", "ts": "2026-01-01T00:00:00.000000Z",
        "session": "01JSESSION0000000000000000", "prev": "ab" * 32, "kind": "progress", "from": "builder",
        "effect": "01JBENCHSESSION00000000000.1", "body": "", "data": {"a": [1, 2.5, "é", None]}, "meta": {"tokens_in": 3}}


def test_the_line_has_the_writers_fields_and_requires_none_the_writer_may_leave_out() -> None:
    writer = {f.alias or name: f for name, f in Envelope.model_fields.items()}
    reader = {f.encode_name: f for f in msgspec.structs.fields(TranscriptLine)}
    assert set(reader) == set(writer)
    assert {n for n, f in reader.items() if not f.required} == set(OPTIONAL)
    # the reader is as strict or looser: what it requires the writer requires or always writes (`v`)
    assert {n for n, f in reader.items() if f.required} - {n for n, f in writer.items() if f.is_required()} == {"v"}


@pytest.mark.parametrize("change", [
    {}, {"seq": "3"}, {"seq": 3.0}, {"id": 5}, {"ts": None}, {"kind": ["x"]}, {"from": None}, {"prev": None},
    {"effect": 1}, {"body": None}, {"meta": []}, {"meta": None}, {"data": [1, {"b": None}]}, {"extra": 1},
    {"seq": None}, {"parent": None}, {"v": "1"},
])
def test_both_decoders_take_and_refuse_the_same_envelopes(change: dict) -> None:
    line = orjson.dumps({**GOOD, **change})
    outcomes = []
    for decode in (_decoder.decode, line_decoder.decode):
        try:
            decode(line)
            outcomes.append(None)
        except msgspec.ValidationError as err:
            outcomes.append(str(err))
    assert outcomes[0] == outcomes[1]
    for missing in ("seq", "kind", "data", "meta", "prev"):
        cut = orjson.dumps({k: v for k, v in {**GOOD, **change}.items() if k != missing})
        took = []
        for decode in (_decoder.decode, line_decoder.decode):
            try:
                decode(cut)
                took.append(True)
            except msgspec.ValidationError:
                took.append(False)
        assert took[0] == took[1], missing


def test_a_line_decodes_to_what_the_dict_reader_has() -> None:
    raw = orjson.dumps(GOOD)
    as_dict, as_line = _decoder.decode(raw), line_decoder.decode(raw)
    fields = {f.encode_name: getattr(as_line, f.name) for f in msgspec.structs.fields(TranscriptLine)}
    assert {k: v for k, v in fields.items() if k in as_dict} == as_dict
    assert set(fields) - set(as_dict) == {"parent"} and as_line.parent is None  # absent: its default


@pytest.mark.parametrize("data", [b'"\xff"', b'"\xed\xa0\x80"', b"1.5e999", b"[1,]", b'"\\x"'])
def test_damage_inside_data_is_refused_by_both(data: bytes) -> None:
    line = orjson.dumps({**GOOD, "data": None}).replace(b'"data":null', b'"data":' + data)
    for decode in (_decoder.decode, line_decoder.decode):
        with pytest.raises(msgspec.DecodeError):
            decode(line)
