"""Fuzzing the transcript reader: random truncations, bit flips, reorderings and interleaved writes.

No crash, no hang, no lost good data: every good line before the damage is read, the damage is
either skipped (a torn tail) or named (file:line: problem), and the writer recovers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crumb.reducer.replay import replay_events, replay_file
from crumb.store.reader import TranscriptError, read_events, read_lines, repair
from crumb.store.writer import TranscriptWriter

SESSION = "01JFUZZSESSION000000000000"
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def good_transcript(tmp: Path, n: int) -> tuple[Path, bytes]:
    path = tmp / "transcript.jsonl"
    if path.exists():
        path.unlink()
    for torn in tmp.glob("transcript.jsonl.torn-*"):
        torn.unlink()
    w = TranscriptWriter(path, SESSION, fsync="never")
    w.append("goal", {"pitch": "snake ünïcødé 🐍"}, from_="user")
    for i in range(n - 1):
        w.append("note", {"text": f"note {i} " + "z" * (i * 7 % 90)})
    return path, path.read_bytes()


@FUZZ
@given(n=st.integers(1, 30), cut=st.integers(0, 10**6))
def test_any_truncation_keeps_every_complete_line(tmp_path: Path, n: int, cut: int):
    path, data = good_transcript(tmp_path, n)
    k = cut % (len(data) + 1)
    path.write_bytes(data[:k])
    complete = data[:k].count(b"\n")
    events = list(read_events(path))
    assert [e["seq"] for e in events] == list(range(1, complete + 1))
    repair(path)
    nxt = TranscriptWriter(path, SESSION, fsync="never").append("note", {"text": "after"})
    assert nxt["seq"] == complete + 1
    assert [e["seq"] for e in read_events(path, validate=True)] == list(range(1, complete + 2))


@FUZZ
@given(n=st.integers(2, 20), where=st.integers(0, 10**6), bit=st.integers(0, 7))
def test_any_bit_flip_is_named_or_harmless_and_earlier_lines_survive(tmp_path: Path, n: int, where: int, bit: int):
    path, data = good_transcript(tmp_path, n)
    i = where % len(data)
    flipped = bytearray(data)
    flipped[i] ^= 1 << bit
    path.write_bytes(bytes(flipped))
    line_of_flip = data[:i].count(b"\n") + 1
    seen: list[int] = []
    try:
        for event in read_events(path, validate=True):
            seen.append(event["seq"])
    except TranscriptError as err:
        text = str(err)
        assert f"transcript.jsonl:{line_of_flip}:" in text or f"transcript.jsonl:{line_of_flip + 1}:" in text, text
    else:  # harmless: every line is still read, except a last line whose newline was flipped (a torn tail)
        assert seen == list(range(1, n + (i != len(data) - 1))), (i, seen)
    assert seen[: line_of_flip - 1] == list(range(1, line_of_flip))  # nothing before the damage is lost


@FUZZ
@given(order=st.permutations(list(range(8))))
def test_lines_in_the_wrong_order_are_refused_at_the_first_out_of_place_line(tmp_path: Path, order: list[int]):
    path, data = good_transcript(tmp_path, 8)
    lines = data.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[i] for i in order))
    first_bad = next((pos for pos, i in enumerate(order) if i != pos), None)
    try:
        events = list(read_events(path))
    except TranscriptError as err:
        assert first_bad is not None and f":{first_bad + 1}: seq" in str(err)
    else:
        assert first_bad is None and len(events) == 8


@FUZZ
@given(n=st.integers(2, 12), k=st.integers(0, 10**6), other=st.integers(0, 10**6), i=st.integers(0, 10**6),
       j=st.integers(0, 10**6))
def test_two_writes_interleaved_in_a_line_are_named_and_nothing_before_is_lost(tmp_path: Path, n: int, k: int,
                                                                                 other: int, i: int, j: int):
    """Two writers that ignore the lock: one write lands in the middle of another, so a line is the start
    of one event joined to the end of another (of this session or of another). The reader names that
    line, or, when the join happens to be a whole valid event in its place, reads it; never a line before."""
    path, data = good_transcript(tmp_path, n)
    lines = data.splitlines(keepends=True)
    (tmp_path / "other" / "transcript.jsonl").unlink(missing_ok=True)  # one tmp_path serves every example
    foreign = TranscriptWriter(tmp_path / "other" / "transcript.jsonl", "01JOTHERSESSION00000000000", fsync="never")
    strangers = [foreign.append("note", {"text": f"from another session {m}"}) for m in range(3)]
    donors = lines + [orjson.dumps(e) + b"\n" for e in strangers]
    k, donor = k % n, donors[other % len(donors)]
    a = lines[k]
    joined = a[: i % len(a)] + donor[j % len(donor):]
    path.write_bytes(b"".join(lines[:k]) + joined + b"".join(lines[k + 1:]))
    seen: list[int] = []
    try:
        for event in read_events(path, validate=True):
            seen.append(event["seq"])
    except TranscriptError as err:
        if k == 0 and seen == [1] and "transcript.jsonl:2: session " in str(err):
            # the join made a whole event of another session id (the other transcript's, or this one's
            # damaged): only the first line says whose transcript this is, so the mismatch shows at line 2,
            # and the message names both ids
            assert SESSION in str(err), str(err)
            return
        assert f"transcript.jsonl:{k + 1}:" in str(err), str(err)
        assert seen == list(range(1, k + 1)), seen  # every line before the damage is read
    else:
        assert seen == list(range(1, n + 1)), seen


def test_a_line_from_another_session_is_named(tmp_path: Path) -> None:
    path, data = good_transcript(tmp_path, 3)
    foreign = TranscriptWriter(tmp_path / "other" / "transcript.jsonl", "01JOTHERSESSION00000000000", fsync="never")
    stranger = [foreign.append("note", {"text": f"from another session {m}"}) for m in range(4)][-1]
    path.write_bytes(data + orjson.dumps(stranger) + b"\n")
    with pytest.raises(TranscriptError, match=r"transcript\.jsonl:4: .*01JOTHERSESSION00000000000"):
        list(read_events(path))


@FUZZ
@given(garbage=st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_reader_or_replay(tmp_path: Path, garbage: bytes):
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(garbage)
    try:
        state = replay_events(read_events(path))
    except TranscriptError as err:
        assert "transcript.jsonl:" in str(err)
    else:
        assert state.events >= 0


def outcome(read: Callable[[Path], Iterator[Any]], path: Path) -> tuple[list[int], str | None]:
    """The seqs a reader hands out before it stops, and the damage it names (None: it read to the end)."""
    seen: list[int] = []
    try:
        for event in read(path):
            seen.append(event["seq"] if isinstance(event, dict) else event.seq)
    except TranscriptError as err:
        return seen, str(err)
    return seen, None


@FUZZ
@given(n=st.integers(2, 20), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 7)), min_size=1, max_size=3))
def test_replays_reader_reads_and_names_damage_as_every_other_reader(tmp_path: Path, n: int,
                                                                     flips: list[tuple[int, int]]):
    """read_lines (replay's reader: envelope checked, data left raw) reads the same lines as read_events
    and names the same damage in the same words; replay_file reaches the state of folding those dicts."""
    path, data = good_transcript(tmp_path, n)
    damaged = bytearray(data)
    for where, bit in flips:
        damaged[where % len(data)] ^= 1 << bit
    path.write_bytes(bytes(damaged))
    for validate in (False, True):
        as_dicts = outcome(partial(read_events, validate=validate), path)
        assert outcome(partial(read_lines, validate=validate), path) == as_dicts
    try:
        from_dicts = replay_events(read_events(path)).to_dict()
    except TranscriptError as err:
        with pytest.raises(TranscriptError) as raised:
            replay_file(path)
        assert str(raised.value) == str(err)
    else:
        assert replay_file(path).to_dict() == from_dicts
