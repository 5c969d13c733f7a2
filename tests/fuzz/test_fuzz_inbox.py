"""Fuzzing the inbox: the pitch and steering parsers and the file reader, with any text, any bytes,
any encoding, any size and any file name.

No crash, no hang (each test has a timeout), every rejection a clear one-line message, every event the
parser produces valid for the transcript, and no valid steering line ever lost among bad ones."""

from __future__ import annotations

import codecs
import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from crumb.daemon.files import InboxRead, InboxReject, read_inbox_file
from crumb.daemon.grammar import FRONT_MATTER_KEYS, MEASURED, PitchFile, parse_pitch, parse_steering
from crumb.export.lineage import check_name
from crumb.protocol.events import GROUND_TRUTH_KINDS, KINDS, InboxFile

pytestmark = pytest.mark.timeout(300)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])
FILES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])
SOURCE = InboxFile(name="fuzz.txt", sha256="0" * 64, bytes=1).model_dump()

# Text that leans towards the grammar's own words, so the fuzzer reaches the interesting branches.
WORDS = st.sampled_from(["/approve", "/veto", "/pause", "/resume", "/goto", "/swap", "/append", "/note", "/cancel",
                         "/redo", "/reset-circuit", "/budget", "/status", "/release", "v2", "/frob", "@builder", "@planner", "@nobody",
                         "builder", "all", "=", "fixes=3", "x=abc", "claude:sonnet", ":", "---", "```", "~~~",
                         "seed:", "preset:", "session:", "#", "//", " ", "\t", "\n", "\r\n", "\r", "\ufeff", "\x00"])
GRAMMARISH = st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=40).map("".join)
ANY_TEXT = st.one_of(GRAMMARISH, st.text(max_size=2000))


def clear(message: str) -> None:
    """A rejection a person can read: one line, not empty, not a traceback, not a wall of text."""
    assert message.strip(), "empty message"
    assert "\n" not in message and "\r" not in message, repr(message)
    assert "Traceback" not in message
    assert len(message) <= 2000, len(message)


# ---------------------------------------------------------------- steering


@FUZZ
@given(text=ANY_TEXT)
def test_any_steering_text_parses_into_valid_events(text: str) -> None:
    items = parse_steering(text)
    last_line = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    for kind, data, line in items:
        assert 1 <= line <= last_line, (line, last_line)
        if kind in MEASURED:  # names what the daemon is to measure (a version), and nothing else
            assert set(data) == {"name"} and check_name(data["name"]) is None, data
            continue
        assert kind in KINDS and kind not in GROUND_TRUTH_KINDS, kind
        assert kind == "error" or kind.startswith("user."), kind
        KINDS[kind].model_validate({**data, "source": SOURCE, "line": line})  # what the daemon will append
        if kind == "error":
            clear(data["message"])


GOOD = st.sampled_from([
    ("/approve", "user.approve"), ("/pause", "user.pause"), ("/resume @builder", "user.resume"),
    ("/goto planner", "user.goto"), ("/swap builder=claude:sonnet", "user.swap"), ("/note make it green", "user.note"),
    ("/cancel enough", "user.cancel"), ("/redo builder", "user.redo"), ("/reset-circuit all", "user.reset_circuit"),
    ("/budget fixes=6", "user.budget"), ("/status", "user.status"), ("@builder faster please", "user.intervene"),
    ("/veto too slow", "user.veto"), ("/release v2", "release"), ("/append @planner add lives", "user.append"), ("a plain message", "user.intervene"),
])
# A bad or random line: anything on one line, except fences (which deliberately swallow what follows).
NOISE = st.one_of(
    st.sampled_from(["/frob", "/goto nobody", "/budget x=abc", "/swap nonsense", "@nobody hi", "/approve now",
                     "/note", "/budget fixes=-1", "/reset-circuit a b", "/goto", "\x00\x01", "\ufeff/", "/"]),
    st.text(st.characters(blacklist_characters="\n\r`~", blacklist_categories=("Cs",)), max_size=80),
)


@FUZZ
@given(lines=st.lists(st.one_of(GOOD.map(lambda g: ("good", g)), NOISE.map(lambda n: ("noise", n))), max_size=30))
def test_no_valid_steering_line_is_lost_among_bad_ones(lines: list[tuple[str, object]]) -> None:
    """Lines separated by blank lines stand alone: every good one comes out as its own event."""
    text = "\n\n".join(g[0] if tag == "good" else str(g) for tag, g in lines)  # type: ignore[index]
    items = {line: (kind, data) for kind, data, line in parse_steering(text)}
    for i, (tag, g) in enumerate(lines):
        if tag != "good":
            continue
        command, kind = g  # type: ignore[misc]
        line = 2 * i + 1
        assert line in items, f"line {line} {command!r} lost; got {items}"
        assert items[line][0] == kind, (command, items[line])


# ---------------------------------------------------------------- pitch


@FUZZ
@given(text=ANY_TEXT)
def test_any_pitch_text_is_a_request_or_one_clear_error(text: str) -> None:
    try:
        req = parse_pitch(text)
    except ValueError as err:
        clear(str(err))
        return
    assert isinstance(req, PitchFile) and req.pitch.strip() == req.pitch and req.pitch


@FUZZ
@given(pitch=st.text(min_size=1, max_size=300).filter(lambda t: t.strip() and not t.strip().startswith("---")),
       seed=st.one_of(st.none(), st.integers(-10**9, 10**9)), preset=st.one_of(st.none(), st.sampled_from(["local", "claude"])))
def test_a_valid_pitch_is_never_lost(pitch: str, seed: int | None, preset: str | None) -> None:
    front = "".join(f"{k}: {v}\n" for k, v in (("seed", seed), ("preset", preset)) if v is not None)
    text = f"---\n{front}---\n{pitch}" if front else pitch
    req = parse_pitch(text)
    normalised = pitch.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").strip()
    assume(normalised)
    assert req.pitch == normalised
    assert (req.seed, req.preset) == (seed, preset)


@FUZZ
@given(key=st.text(st.characters(blacklist_characters="\n\r:", blacklist_categories=("Cs",)), min_size=1, max_size=20),
       value=st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=40))
def test_front_matter_with_any_key_is_taken_or_named(key: str, value: str) -> None:
    text = f"---\n{key}: {value}\n---\na snake game\n"
    try:
        req = parse_pitch(text)
    except ValueError as err:
        clear(str(err))
        return
    assert key.strip().lower() in FRONT_MATTER_KEYS or not key.strip() or key.strip().startswith("#")
    assert req.pitch == "a snake game"


# ---------------------------------------------------------------- files


NAMES = st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1, max_size=60).filter(
    lambda n: n not in (".", "..") and len(os.fsencode(n)) <= 255)


def read(tmp: Path, name: str, data: bytes, max_bytes: int) -> tuple[Path, InboxRead | InboxReject | None]:
    folder = tmp / "inbox"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    path = folder / name
    path.write_bytes(data)
    return path, read_inbox_file(path, max_bytes=max_bytes)


@FILES
@given(name=NAMES, data=st.binary(max_size=5000), max_bytes=st.integers(1, 6000))
def test_any_bytes_are_read_or_rejected_clearly(tmp_path: Path, name: str, data: bytes, max_bytes: int) -> None:
    path, got = read(tmp_path, name, data, max_bytes)
    if not data:
        assert got is None  # an editor truncating before it writes: wait for the close
        return
    assert got is not None
    source = got.source
    if isinstance(got, InboxReject):
        clear(got.message)
        if source is not None:
            assert source.sha256 == hashlib.sha256(data).hexdigest() and source.bytes == len(data)
        if len(data) > max_bytes:
            assert "over the inbox limit" in got.message
    else:
        assert len(data) <= max_bytes
        assert source.sha256 == hashlib.sha256(data).hexdigest() and source.bytes == len(data)
        assert "\x00" not in got.text
    assert path.read_bytes() == data, "reading changed the file"


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252", "shift_jis",
             "koi8-r", "gb18030"]


@FILES
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=400),
       encoding=st.sampled_from(ENCODINGS))
def test_any_encoding_is_read_exactly_or_rejected_clearly(tmp_path: Path, text: str, encoding: str) -> None:
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode(encoding, errors="replace")
        text = data.decode(encoding)
    _, got = read(tmp_path, "pitch.txt", data, 65_536)
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(got, InboxRead):
        if encoding in ("utf-8-sig", "utf-16"):  # with a byte-order mark: decoded exactly
            assert got.text == expected
        else:
            bom = next((b for b in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) if data.startswith(b)), b"")
            enc = {codecs.BOM_UTF8: "utf-8", codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be"}.get(bom, "utf-8")
            assert got.text == data[len(bom):].decode(enc).replace("\r\n", "\n").replace("\r", "\n")
    else:
        assert isinstance(got, InboxReject), got
        clear(got.message)
        assert "UTF-8" in got.message, got.message
        assert encoding not in ("utf-8-sig", "utf-16") or "\x00" in text, (encoding, got.message)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(size=st.sampled_from([65_535, 65_536, 65_537, 1 << 20, 10 << 20]))
def test_any_size_is_read_or_named_without_reading_it_all_into_memory(tmp_path: Path, size: int) -> None:
    data = (b"a snake game\n" * (size // 13 + 1))[:size]
    _, got = read(tmp_path, "big.txt", data, 65_536)
    if size <= 65_536:
        assert isinstance(got, InboxRead) and len(got.text) == size
    else:
        assert isinstance(got, InboxReject) and f"is {size} bytes, over the inbox limit of 65536" in got.message
        assert got.source is None, "an over-limit file was read and hashed; its size alone rejects it"


def test_a_huge_sparse_inbox_file_is_rejected_from_stat_without_reading_it(tmp_path: Path) -> None:
    """3 GB of holes: hashing it took ~8 s and stalled the next pitch; stat alone says it is too big."""
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:
        fh.truncate(3 << 30)
    io = Path("/proc/self/io")
    before = int(io.read_text().split("rchar:")[1].split()[0]) if io.exists() else None
    got = read_inbox_file(path, max_bytes=65_536)
    assert isinstance(got, InboxReject) and f"is {3 << 30} bytes, over the inbox limit of 65536" in got.message
    if before is not None:
        read_now = int(io.read_text().split("rchar:")[1].split()[0]) - before
        assert read_now < 1 << 20, f"{read_now} bytes were read to reject it"
