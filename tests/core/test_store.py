"""The transcript writer and reader: validation, ordering, concurrency, crashes and damage."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from crumb.reducer.replay import replay_file
from crumb.store.follow import Follower, TranscriptReplaced
from crumb.store.reader import TranscriptError, read_events, repair
from crumb.store.writer import AppendRefused, TranscriptWriter
from tests.wait import wait_until

SESSION = "01JTESTSESSION000000000000"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "s" / "transcript.jsonl"


def writer(path: Path, **kw) -> TranscriptWriter:
    return TranscriptWriter(path, SESSION, fsync="never", **kw)


def test_append_assigns_seq_ulid_and_utc_time(path):
    w = writer(path)
    a = w.append("goal", {"pitch": "snake"}, from_="user")
    b = w.append("note", {"text": "hi"})
    assert (a["seq"], b["seq"]) == (1, 2)
    assert a["id"] < b["id"] and len(a["id"]) == 26
    assert a["ts"].endswith("Z") and datetime.fromisoformat(a["ts"].replace("Z", "+00:00")).tzinfo is not None
    lines = path.read_bytes().splitlines()
    assert [orjson.loads(x)["seq"] for x in lines] == [1, 2]


def test_invalid_event_is_refused_naming_the_field_and_nothing_is_written(path):
    w = writer(path)
    w.append("note", {"text": "ok"})
    size = path.stat().st_size
    with pytest.raises(AppendRefused, match=r"goal\.data\.pitch"):
        w.append("goal", {"pitch": ""}, from_="user")
    with pytest.raises(AppendRefused, match="unknown event kind 'gaol'"):
        w.append("gaol", {"pitch": "x"})
    assert path.stat().st_size == size


@pytest.mark.parametrize("kind", ["qa.result", "audit", "done", "circuit.opened"])
def test_ground_truth_kinds_are_refused_from_an_inbox_writer(path, kind):
    with pytest.raises(AppendRefused, match="only the dispatcher"):
        writer(path, role="inbox").append(kind, {})
    assert not path.exists() or path.stat().st_size == 0


def test_time_never_goes_backwards_even_when_the_clock_does(path):
    w = writer(path)
    now = datetime(2026, 6, 1, 12, tzinfo=UTC)
    a = w.append("note", {"text": "a"}, now=now)
    b = w.append("note", {"text": "b"}, now=now - timedelta(hours=1))
    assert b["ts"] > a["ts"] and b["id"] > a["id"]


def test_a_transcript_belongs_to_one_session(path):
    writer(path).append("note", {"text": "a"})
    with pytest.raises(TranscriptError, match="belongs to session"):
        TranscriptWriter(path, "01JOTHERSESSION00000000000", fsync="never").append("note", {"text": "b"})


CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from crumb.store.writer import TranscriptWriter
    w = TranscriptWriter(Path(sys.argv[1]), sys.argv[2], fsync="never")
    for i in range(int(sys.argv[4])):
        w.append("note", {"text": f"{sys.argv[3]}-{i}-" + "x" * (i % 300)})
""")


def test_eight_processes_appending_concurrently_give_contiguous_seq_and_whole_lines(path):
    n, each = 8, 1000
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(path), SESSION, f"p{i}", str(each)]) for i in range(n)]
    assert all(p.wait(timeout=240) == 0 for p in procs)
    events = list(read_events(path, validate=True))
    assert [e["seq"] for e in events] == list(range(1, n * each + 1))
    assert len({e["id"] for e in events}) == n * each
    assert [e["id"] for e in events] == sorted(e["id"] for e in events)
    for i in range(n):  # every process's every line, each exactly once, in its own order
        mine = [int(e["data"]["text"].split("-")[1]) for e in events if e["data"]["text"].startswith(f"p{i}-")]
        assert mine == list(range(each))


def test_kill_9_in_the_middle_of_appends_leaves_a_transcript_the_reader_repairs(path):
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), SESSION, "k", "1000000"])
    wait_until(lambda: path.exists() and path.stat().st_size >= 200_000, what="200 KB of appends")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    # whatever the kill left, simulate the worst case too: a torn last line
    with open(path, "ab") as f:
        f.write(b'{"v":1,"seq":')
    good = list(read_events(path))
    assert good and [e["seq"] for e in good] == list(range(1, len(good) + 1))
    aside = repair(path)
    assert aside is not None and aside.read_bytes().endswith(b'{"v":1,"seq":')
    nxt = writer(path).append("note", {"text": "after the crash"})
    assert nxt["seq"] == len(good) + 1
    assert path.read_bytes().endswith(b"\n")


def test_the_writer_moves_a_torn_tail_aside_before_appending_with_a_warning(path, caplog):
    w = writer(path)
    w.append("note", {"text": "one"})
    with open(path, "ab") as f:
        f.write(b'{"torn')
    event = w.append("note", {"text": "two"})
    assert event["seq"] == 2
    assert [e["data"]["text"] for e in read_events(path)] == ["one", "two"]
    assert (path.parent / "transcript.jsonl.torn-1").read_bytes() == b'{"torn'
    assert "torn last line (6 bytes) moved to transcript.jsonl.torn-1" in caplog.text


GOOD_ID, GOOD_TS = "01KDVD0000000000000000000Z", "2026-06-01T12:00:00.000000Z"


def damaged(**fields) -> bytes:
    line = {"v": 1, "seq": 2, "id": GOOD_ID, "ts": GOOD_TS, "session": SESSION, "kind": "note", "from": "user"}
    return json.dumps({**line, **fields}).encode()


@pytest.mark.parametrize("last,problem", [
    (b"garbage", "not valid JSON"),
    (b"[1]", "Expected `object`"),
    (b'{"seq": 2}', "missing required field"),
    (damaged(seq="2"), "Expected `int`"),
    (damaged(id="not-a-ulid"), "ULID"),
    (damaged(ts="yesterday"), "isoformat"),
    (damaged(ts="2026-06-01T12:00:00"), "no time zone"),
])
def test_the_writer_refuses_to_append_after_a_damaged_last_line_naming_it(path, last, problem):
    writer(path).append("note", {"text": "one"})
    with open(path, "ab") as f:
        f.write(last + b"\n")
    before = path.read_bytes()
    with pytest.raises(TranscriptError, match=r"transcript\.jsonl:2: .*" + re.escape(problem)):
        writer(path).append("note", {"text": "two"})
    assert path.read_bytes() == before  # nothing guessed, nothing lost


def test_the_writer_continues_after_a_line_from_a_newer_version(path):
    writer(path).append("note", {"text": "one"}, now=datetime(2026, 6, 1, 11, tzinfo=UTC))
    with open(path, "ab") as f:
        f.write(damaged(v=2, kind="hologram.render", data={"x": 1}, trace="new envelope field", **{"from": "studio"}) + b"\n")
    event = writer(path).append("note", {"text": "three"}, now=datetime(2026, 6, 1, 10, tzinfo=UTC))
    assert event["seq"] == 3 and event["id"] > GOOD_ID and event["ts"] > GOOD_TS


def test_a_bad_line_in_the_middle_stops_with_file_line_and_problem(path):
    w = writer(path)
    for i in range(3):
        w.append("note", {"text": str(i)})
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1] = b"this is not json\n"
    path.write_bytes(b"".join(lines))
    with pytest.raises(TranscriptError, match=r"transcript\.jsonl:2: not valid JSON"):
        list(read_events(path))


def test_a_gap_in_seq_is_named(path):
    w = writer(path)
    for i in range(3):
        w.append("note", {"text": str(i)})
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0] + lines[2])
    with pytest.raises(TranscriptError, match=r":2: seq 3 where 2 was expected"):
        list(read_events(path))


def test_missing_and_empty_files_read_as_empty(path):
    assert list(read_events(path)) == []
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    assert list(read_events(path)) == []
    assert replay_file(path).events == 0


def test_unknown_kinds_from_a_newer_version_are_read_and_skipped_by_replay(path):
    w = writer(path)
    w.append("goal", {"pitch": "snake"}, from_="user")
    line = json.loads(path.read_text().splitlines()[0])
    line.update(seq=2, id=line["id"][:-1] + "Z", kind="hologram.render", v=9, data={"anything": True})
    with open(path, "a") as f:
        f.write(json.dumps(line) + "\n")
    state = replay_file(path)
    assert state.unknown == 1 and state.goal["pitch"] == "snake"
    with pytest.raises(TranscriptError, match=r"transcript\.jsonl:2: unknown kind 'hologram\.render' \(schema v9; "
                                              r"this CRUMB knows v1\): replay without --strict skips it"):
        list(read_events(path, validate=True))


def test_follower_reads_only_new_complete_lines(path):
    w = writer(path)
    w.append("note", {"text": "a"})
    follower = Follower(path)
    assert [e["seq"] for e in follower.read_new()] == [1]
    assert follower.read_new() == []
    w.append("note", {"text": "b"})
    with open(path, "ab") as f:
        f.write(b'{"half')
    assert [e["seq"] for e in follower.read_new()] == [2]
    assert follower.read_new() == []  # the half line waits until it is whole


def test_follower_names_a_replaced_or_cut_transcript_instead_of_reading_it_as_growth(path):
    w = writer(path)
    for text in "abc":
        w.append("note", {"text": text})
    follower = Follower(path)
    assert len(follower.read_new()) == 3
    other = path.with_name("other.jsonl")
    other.write_bytes(path.read_bytes() + path.read_bytes().splitlines(keepends=True)[0])  # longer, another file
    other.replace(path)
    with pytest.raises(TranscriptReplaced, match="replaced or cut short"):
        follower.read_new()
    follower = Follower(path)
    assert len(follower.read_raw()) == 4  # a new follower reads the new file from its start
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])  # cut short in place
    with pytest.raises(TranscriptReplaced):
        follower.read_raw()


def test_follower_consumes_nothing_when_a_line_is_bad(path):
    w = writer(path)
    w.append("note", {"text": "a"})
    with open(path, "ab") as f:
        f.write(b'{"not": "an event"}\n')
    follower = Follower(path)
    for _ in range(2):  # the same line is named every time, and nothing before it is lost
        with pytest.raises(TranscriptError, match=":2:"):
            follower.read_new()
    assert follower.seq == 0 and follower.offset == 0


DISK_FULL = textwrap.dedent("""
    import resource, signal, sys
    from pathlib import Path
    from crumb.store.writer import TranscriptWriter
    from crumb.store.reader import TranscriptError
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    w = TranscriptWriter(Path(sys.argv[1]), sys.argv[2], fsync="never")
    w.append("note", {"text": "fits"})
    size = Path(sys.argv[1]).stat().st_size
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, size + 40))
    try:
        w.append("note", {"text": "y" * 500})
    except TranscriptError as err:
        print("REFUSED", err)
""")


def test_disk_full_leaves_no_half_line_and_says_so(path):
    out = subprocess.run([sys.executable, "-c", DISK_FULL, str(path), SESSION], capture_output=True, text=True, timeout=60)
    assert "REFUSED" in out.stdout and "nothing written" in out.stdout, out.stderr
    assert path.read_bytes().endswith(b"\n")
    assert [e["data"]["text"] for e in read_events(path)] == ["fits"]


class SyncSpy:
    """Records what os.fsync / os.ftruncate were called on, by path: files and directories alike."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
        self.root, self.calls = root, []
        real_fsync, real_truncate = os.fsync, os.ftruncate

        def fsync(fd: int) -> None:
            self.calls.append(("fsync", self._name(fd)))
            real_fsync(fd)

        def ftruncate(fd: int, size: int) -> None:
            self.calls.append(("ftruncate", self._name(fd)))
            real_truncate(fd, size)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "ftruncate", ftruncate)

    def _name(self, fd: int) -> str:
        st = os.fstat(fd)
        for p in [self.root, *self.root.rglob("*")]:
            if p.stat().st_ino == st.st_ino:
                rel = str(p.relative_to(self.root)) if p != self.root else "."
                return rel + ("/" if stat.S_ISDIR(st.st_mode) else "")
        return f"?{st.st_ino}"

    def dirs(self) -> list[str]:
        return [name for op, name in self.calls if op == "fsync" and name.endswith("/")]


def test_a_new_transcript_syncs_its_folder_and_the_sessions_folder_once(tmp_path, monkeypatch):
    sdir = tmp_path / "sessions" / SESSION
    sdir.mkdir(parents=True)  # the daemon makes the session folder (inbox/, artifacts/) before the first append
    spy = SyncSpy(monkeypatch, tmp_path)
    w = TranscriptWriter(sdir / "transcript.jsonl", SESSION)  # the default policy is durable
    w.append("note", {"text": "first"})
    assert spy.calls[0] == ("fsync", f"sessions/{SESSION}/transcript.jsonl")  # the line, then its name
    assert spy.dirs() == [f"sessions/{SESSION}/", "sessions/"]
    spy.calls.clear()
    w.append("note", {"text": "second"})
    assert spy.dirs() == [] and spy.calls == [("fsync", f"sessions/{SESSION}/transcript.jsonl")]


def test_folders_the_writer_creates_are_synced_into_their_parents(tmp_path, monkeypatch):
    spy = SyncSpy(monkeypatch, tmp_path)
    TranscriptWriter(tmp_path / "sessions" / SESSION / "transcript.jsonl", SESSION).append("note", {"text": "x"})
    assert spy.dirs()[:2] == ["./", "sessions/"]  # sessions/ made in the root, the session folder in sessions/
    assert f"sessions/{SESSION}/" in spy.dirs()


def test_the_never_policy_syncs_nothing(tmp_path, monkeypatch):
    spy = SyncSpy(monkeypatch, tmp_path)
    writer(tmp_path / "sessions" / SESSION / "transcript.jsonl").append("note", {"text": "x"})
    assert spy.calls == []


def test_a_torn_tail_is_durable_aside_before_the_transcript_is_cut(path, monkeypatch):
    writer(path).append("note", {"text": "one"})
    with open(path, "ab") as f:
        f.write(b'{"torn')
    spy = SyncSpy(monkeypatch, path.parent)
    repair(path)
    assert spy.calls[:3] == [("fsync", "transcript.jsonl.torn-1"), ("fsync", "./"), ("ftruncate", "transcript.jsonl")]
