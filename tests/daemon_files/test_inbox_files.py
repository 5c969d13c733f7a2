"""Reading, rejecting, archiving and dropping inbox files: real files, FIFOs and symlinks."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest

from crumb.daemon.files import (
    InboxRead,
    InboxReject,
    archive,
    drop_inbox_file,
    ignore_reason,
    is_ignored,
    read_inbox_file,
)
from crumb.protocol.events import ErrorData, Goal, InboxFile

LIMIT = 65_536


def read(path: Path, max_bytes: int = LIMIT) -> InboxRead | InboxReject | None:
    return read_inbox_file(path, max_bytes=max_bytes)


def assert_one_line_reject(got: object, name: str, *words: str) -> InboxReject:
    assert isinstance(got, InboxReject), got
    assert "\n" not in got.message and name in got.message, got.message
    for word in words:
        assert word in got.message, got.message
    ErrorData(message=got.message, source=got.source)  # fits an error event as it is
    return got


# ---------------------------------------------------------------- text that is accepted


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"60-second snake\n", "60-second snake\n"),
        (b"caf\xc3\xa9 \xf0\x9f\x90\x8d\n", "café 🐍\n"),
        (b"\xef\xbb\xbfwith a BOM\n", "with a BOM\n"),
        ("utf-16 le ✓\n".encode("utf-16-le").join([b"\xff\xfe", b""]), "utf-16 le ✓\n"),
        (b"\xfe\xff" + "utf-16 be\n".encode("utf-16-be"), "utf-16 be\n"),
        (b"windows\r\nline ends\r\n", "windows\nline ends\n"),
    ],
    ids=["ascii", "utf8", "utf8-bom", "utf16le-bom", "utf16be-bom", "crlf"],
)
def test_text_files_are_read_with_their_sha256(tmp_path: Path, raw: bytes, text: str) -> None:
    path = tmp_path / "pitch.txt"
    path.write_bytes(raw)
    got = read(path)
    assert isinstance(got, InboxRead)
    assert got.text == text and got.path == path
    st = path.stat()
    assert got.source == InboxFile(name="pitch.txt", sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw),
                                   stamp=f"{st.st_ino}:{st.st_mtime_ns}")
    Goal(pitch=got.text, source=got.source)


def test_a_new_save_with_the_same_bytes_gets_a_new_stamp(tmp_path: Path) -> None:
    """name + sha256 alone cannot tell "read again after a crash" from "saved again": the stamp can."""
    path = tmp_path / "steer.txt"
    path.write_text("/approve\n")
    first = read(path)
    again = read(path)
    os.unlink(path)
    path.write_text("/approve\n")
    os.utime(path, ns=(1, 1))  # even if the inode is reused, the mtime differs
    resaved = read(path)
    assert isinstance(first, InboxRead) and isinstance(again, InboxRead) and isinstance(resaved, InboxRead)
    assert first.source == again.source
    assert resaved.source.sha256 == first.source.sha256 and resaved.source.stamp != first.source.stamp


def test_a_file_of_exactly_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 100)
    assert isinstance(read(path, max_bytes=100), InboxRead)


# ---------------------------------------------------------------- not now: None


def test_missing_empty_and_dangling_symlink_are_not_ready(tmp_path: Path) -> None:
    assert read(tmp_path / "gone.txt") is None
    (tmp_path / "empty.txt").write_bytes(b"")  # VS Code's truncate before the write
    assert read(tmp_path / "empty.txt") is None
    os.symlink("user@host.123:1700000000", tmp_path / ".#pitch.txt")  # emacs lock
    assert read(tmp_path / ".#pitch.txt") is None
    assert os.path.islink(tmp_path / ".#pitch.txt")


# ---------------------------------------------------------------- rejected, with the fix in the message


def test_symlink_is_rejected_and_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "secret.txt"
    target.write_text("secret")
    link = tmp_path / "inbox-link.txt"
    os.symlink(target, link)
    got = assert_one_line_reject(read(link), "inbox-link.txt", "symbolic link", "copy")
    assert got.source is None
    assert target.read_text() == "secret" and os.path.islink(link)


def test_directory_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "ideas").mkdir()
    assert_one_line_reject(read(tmp_path / "ideas"), "ideas", "folder")


def test_fifo_is_rejected_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    result: list[object] = []
    reader = threading.Thread(target=lambda: result.append(read(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert_one_line_reject(result[0], "pipe.txt", "FIFO", "regular text file")


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ("binary", "UTF-8")),
        (b"caf\xe9 au lait\n", ("not UTF-8", "0xe9", "offset 3")),
        (b"\xff\xfe" + b"\x00\xd8", ("not UTF-16-LE",)),  # a lone surrogate
        ("no bom".encode("utf-16-le"), ("binary",)),  # UTF-16 without a BOM has NUL bytes
    ],
    ids=["png", "latin1", "bad-utf16", "utf16-no-bom"],
)
def test_binary_and_undecodable_files_are_rejected(tmp_path: Path, raw: bytes, words: tuple[str, ...]) -> None:
    path = tmp_path / "note.txt"
    path.write_bytes(raw)
    got = assert_one_line_reject(read(path), "note.txt", *words)
    assert got.source is not None
    assert (got.source.name, got.source.sha256, got.source.bytes) == ("note.txt", hashlib.sha256(raw).hexdigest(), len(raw))
    assert path.read_bytes() == raw  # kept as it was


def test_oversize_is_rejected_with_the_limit_and_the_setting_to_raise(tmp_path: Path) -> None:
    raw = b"x" * 70_000
    path = tmp_path / "long.md"
    path.write_bytes(raw)
    got = assert_one_line_reject(read(path), "long.md", "70000 bytes", "65536", "max_bytes")
    assert got.source is None  # told from its size alone: an over-limit file is never read nor hashed


def test_a_name_with_control_characters_stays_one_line(tmp_path: Path) -> None:
    path = tmp_path / "evil\nname.txt"
    path.write_bytes(b"\x00")
    got = assert_one_line_reject(read(path), "evil\\nname.txt", "binary")
    assert got.source is not None and got.source.name == "evil\nname.txt"


def test_a_file_growing_while_read_is_never_returned_half_read(tmp_path: Path) -> None:
    path = tmp_path / "growing.txt"
    path.write_bytes(b"a" * 100_000)
    chunks = 2_000

    def grow() -> None:
        with open(path, "ab") as fh:
            for _ in range(chunks):
                fh.write(b"b" * 1024)
                fh.flush()

    writer = threading.Thread(target=grow)
    writer.start()
    results = []
    while writer.is_alive():
        results.append(read(path, max_bytes=10**8))  # the reader stops at the size it saw: it never chases a writer
    writer.join()
    for r in results:  # whatever came back mid-write is self-consistent: what was hashed is what was returned
        assert r is None or (isinstance(r, InboxRead) and len(r.text) == r.source.bytes), r
        if isinstance(r, InboxRead):
            assert hashlib.sha256(r.text.encode()).hexdigest() == r.source.sha256
    final = read(path, max_bytes=10**8)
    assert isinstance(final, InboxRead) and final.source.bytes == 100_000 + chunks * 1024


# ---------------------------------------------------------------- archive


def test_archive_moves_and_never_overwrites(tmp_path: Path) -> None:
    inbox, arch = tmp_path / "inbox", tmp_path / "archive"
    inbox.mkdir()
    kept = []
    for i in range(3):
        (inbox / "steer.txt").write_text(f"version {i}")
        kept.append(archive(inbox / "steer.txt", arch))
        assert not (inbox / "steer.txt").exists()
    assert [p.name for p in kept] == ["steer.txt", "steer-1.txt", "steer-2.txt"]
    assert [p.read_text() for p in kept] == ["version 0", "version 1", "version 2"]
    (inbox / "README").write_text("no extension")
    (arch / "README").write_text("already here")
    assert archive(inbox / "README", arch).name == "README-1"
    assert (arch / "README").read_text() == "already here"


def test_archive_keeps_rejected_symlinks_fifos_and_folders(tmp_path: Path) -> None:
    inbox, rejected = tmp_path / "inbox", tmp_path / "archive" / "rejected"
    inbox.mkdir()
    target = tmp_path / "target.txt"
    target.write_text("target")
    os.symlink(target, inbox / "link.txt")
    os.mkfifo(inbox / "pipe")
    (inbox / "folder").mkdir()
    (inbox / "folder" / "inside.txt").write_text("inside")
    for name in ("link.txt", "pipe", "folder"):
        archive(inbox / name, rejected)
    assert os.path.islink(rejected / "link.txt") and os.readlink(rejected / "link.txt") == str(target)
    assert target.read_text() == "target"
    assert (rejected / "pipe").is_fifo()
    assert (rejected / "folder" / "inside.txt").read_text() == "inside"
    assert list(inbox.iterdir()) == []


def test_concurrent_archives_of_the_same_name_never_lose_a_file(tmp_path: Path) -> None:
    arch = tmp_path / "archive"
    sources = []
    for i in range(40):
        d = tmp_path / f"in{i}"
        d.mkdir()
        (d / "note.txt").write_text(str(i))
        sources.append(d / "note.txt")
    threads = [threading.Thread(target=archive, args=(p, arch)) for p in sources]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(int(p.read_text()) for p in arch.iterdir()) == list(range(40))


def test_a_kept_files_reason_is_in_place_before_the_file_appears(tmp_path: Path) -> None:
    """A reader that finds a rejected pitch (crumb run, crumb wait, the Studio) finds its reason with it:
    real inotify sees NAME.why.txt arrive before NAME."""
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    inbox, rejected = tmp_path / "inbox", tmp_path / "rejected"
    inbox.mkdir()
    rejected.mkdir()
    seen: list[str] = []
    both = threading.Event()

    class Record(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            name = os.path.basename(str(event.dest_path or event.src_path))
            if event.event_type in ("created", "moved") and not name.startswith("."):
                seen.append(name)
                if {"pitch.txt", "pitch.txt.why.txt"} <= set(seen):
                    both.set()

    observer = Observer()
    observer.schedule(Record(), str(rejected))
    observer.start()
    try:
        (inbox / "pitch.txt").write_text("a pitch")
        kept = archive(inbox / "pitch.txt", rejected, why="the pitch line is empty: write one line")
        assert both.wait(30), seen
    finally:
        observer.stop()
        observer.join()
    assert kept == rejected / "pitch.txt"
    assert seen.index("pitch.txt.why.txt") < seen.index("pitch.txt"), seen
    assert (rejected / "pitch.txt.why.txt").read_text() == "the pitch line is empty: write one line\n"
    assert sorted(os.listdir(rejected)) == ["pitch.txt", "pitch.txt.why.txt"]  # no temp file left


def test_a_reason_left_without_its_file_moves_the_next_one_to_a_new_name(tmp_path: Path) -> None:
    """A crash between writing a reason and moving its file leaves NAME.why.txt alone: the next NAME
    must not inherit that stale reason."""
    rejected = tmp_path / "rejected"
    rejected.mkdir()
    (rejected / "pitch.txt.why.txt").write_text("an old reason\n")
    (tmp_path / "pitch.txt").write_text("a pitch")
    kept = archive(tmp_path / "pitch.txt", rejected, why="a new reason")
    assert kept.name == "pitch-1.txt"
    assert (rejected / "pitch-1.txt.why.txt").read_text() == "a new reason\n"
    assert (rejected / "pitch.txt.why.txt").read_text() == "an old reason\n"


# ---------------------------------------------------------------- drop


def test_drop_inbox_file_writes_a_unique_complete_file(tmp_path: Path) -> None:
    paths = [drop_inbox_file(tmp_path / "inbox", f"message {i}\n", stem="steer") for i in range(50)]
    assert len(set(paths)) == 50
    assert sorted(p.read_text() for p in paths) == sorted(f"message {i}\n" for i in range(50))
    assert sorted(os.listdir(tmp_path / "inbox")) == sorted(p.name for p in paths)  # no temp files left
    assert all(not is_ignored(p.name) and p.name.startswith("steer-") for p in paths)


def test_drop_inbox_file_refuses_a_path_like_stem(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bad inbox file stem"):
        drop_inbox_file(tmp_path, "x", stem="../escape")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    "name",
    [
        ".pitch.txt.swp", ".pitch.txt.swx", ".pitch.txt.swo", "pitch.txt.swp", "4913", "5036", "8849",
        "pitch.txt~", "pitch.txt.~3~", ".#pitch.txt", "#pitch.txt#", ".pitch.txt.tmp", "pitch.txt.tmp",
        ".pitch.txt.tmp-8f3a", "pitch.txt.tmp.4242", "game.zip.crdownload", "pitch.txt___jb_tmp___",
        "pitch.txt___jb_old___", "sedX1b2C3", "pitch.part", "tmpa1b2c3d4", ".DS_Store", "~$pitch.docx",
        "pitch.txt.bak", "pitch.txt.orig", ".goutputstream-ABC123", "pitch.txt.kate-swp", "Thumbs.db",
    ],
)
def test_editor_and_tool_temp_names_are_ignored(name: str) -> None:
    assert is_ignored(name) and ignore_reason(name)


@pytest.mark.parametrize(
    "name",
    ["pitch.txt", "idea.md", "steer-01JABCDEF.txt", "2048", "4914", "notes", "temple.txt", "sedan.txt",
     "tmp.txt", "swap.txt", "my#tag.txt", "hashtag#", "steer.temporal.txt"],
)
def test_ordinary_names_are_not_ignored(name: str) -> None:
    assert not is_ignored(name), ignore_reason(name)


def test_is_ignored_looks_at_the_base_name_only() -> None:
    assert not is_ignored("/home/me/.config/crumb/inbox/pitch.txt")
    assert is_ignored("/home/me/inbox/.pitch.txt.swp")
