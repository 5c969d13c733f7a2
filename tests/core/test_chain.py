"""crumb/store/chain.py on transcripts the writer made: what each break is named, and that a writer
reopening a transcript (a restart, a torn tail) goes on with the same chain. The tampering cases on a
real session are in tests/trust/test_chain.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crumb.store.chain import line_hash
from crumb.store.follow import ChainBroken, Follower
from crumb.store.seal import check_chain
from crumb.store.writer import TranscriptWriter

SID = "01JDZ0RQ3V8KX6T2M4N5P7W9YB"


def written(tmp_path: Path, n: int = 8) -> tuple[Path, list[bytes]]:
    path = tmp_path / SID / "transcript.jsonl"
    for i in range(n):  # a new writer each time: as after a restart, it finds the head in the last line
        TranscriptWriter(path, SID, fsync="never").append("note", {"text": f"note {i}"})
    return path, path.read_bytes().splitlines(keepends=True)


def named(path: Path, lines: list[bytes]) -> tuple[int, str]:
    path.write_bytes(b"".join(lines))
    seal = check_chain(path)
    assert seal.broken is not None and seal.status == "broken"
    return seal.broken.line, seal.broken.what


def test_a_writer_reopening_the_transcript_goes_on_with_its_chain(tmp_path: Path) -> None:
    path, lines = written(tmp_path)
    assert json.loads(lines[0])["prev"] == SID
    assert all(json.loads(b)["prev"] == line_hash(a.rstrip(b"\n")) for a, b in zip(lines, lines[1:], strict=False))
    with open(path, "ab") as f:
        f.write(b'{"v":1,"seq":9,"id":')  # a crash in the middle of an append
    TranscriptWriter(path, SID, fsync="never").append("note", {"text": "after the crash"})
    seal = check_chain(path)
    assert seal.status == "sealed" and seal.lines == 9 and seal.head == line_hash(path.read_bytes().splitlines()[-1])


def test_the_line_before_last_changed_is_named_with_its_doubt(tmp_path: Path) -> None:
    path, lines = written(tmp_path)
    lines[-2] = lines[-2].replace(b"note 6", b"note X")
    line, what = named(path, lines)
    assert line == 7 and "line 7 (or line 8's prev) was changed" in what


def test_the_first_line_changed_or_copied(tmp_path: Path) -> None:
    path, lines = written(tmp_path)
    edited = [lines[0].replace(b"note 0", b"note X"), *lines[1:]]
    assert named(path, edited) == (1, "changed after it was written: line 2's prev no longer matches it")
    other = [lines[0].replace(f'"prev":"{SID}"'.encode(), b'"prev":"01JDZ0RQ3V8KX6T2M4N5P7W9YC"'), *lines[1:]]
    line, what = named(path, other)
    assert line == 1 and "not this session's id" in what


def test_two_lines_removed_and_a_line_without_prev(tmp_path: Path) -> None:
    path, lines = written(tmp_path)
    line, what = named(path, lines[:3] + lines[5:])
    assert line == 4 and "the line(s) with seq 4 to 5 were removed" in what
    ev = json.loads(lines[4])
    del ev["prev"]
    bare = [*lines[:4], json.dumps(ev, separators=(",", ":")).encode() + b"\n", *lines[5:]]
    line, what = named(path, bare)
    assert line == 5 and "this line has no prev" in what


def test_the_daemon_follower_stops_at_the_same_line_verify_names(tmp_path: Path) -> None:
    path, lines = written(tmp_path)
    lines[3] = lines[3].replace(b"note 3", b"note X")
    path.write_bytes(b"".join(lines))
    with pytest.raises(ChainBroken, match=rf"{path}:4: hash chain broken: changed after it was written"):
        Follower(path, chain=True).read_new()
    noted = Follower(path, chain="note")
    assert len(noted.read_new()) == 8  # the Studio still reads it, and shows the seal broken
    assert noted.chain is not None and noted.chain.doubt() == check_chain(path).broken
