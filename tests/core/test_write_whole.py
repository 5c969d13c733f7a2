"""write_whole, the one way CRUMB replaces a file: a reader sees the old file or the new one, whole, with
the mode asked for, and no temp file is ever left beside it."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.store.durable import write_whole


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_file_is_written_whole_and_nothing_else_is_left(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "spec.md"
    write_whole(target, "# Snake\nçà et là\n")
    assert target.read_bytes() == "# Snake\nçà et là\n".encode()
    assert mode_of(target) == 0o644
    write_whole(target, b"\x00\x01 bytes replace it")
    assert target.read_bytes() == b"\x00\x01 bytes replace it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.md"]


def test_a_private_file_is_never_readable_by_others(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "grant.json"
    target.write_text("{}")
    assert mode_of(target) == 0o644
    seen: list[int] = []
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        seen.append(stat.S_IMODE(os.stat(src).st_mode))  # the temp file, just before it takes the name
        real_replace(src, dst)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "replace", replace)
        write_whole(target, '{"builder": "command:./agent"}', mode=0o600)
    assert seen == [0o600]
    assert mode_of(target) == 0o600
    assert target.read_text() == '{"builder": "command:./agent"}'


def test_the_umask_is_honoured_as_open_does(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_whole(tmp_path / "game.html", "<p>hi</p>")
    finally:
        os.umask(old)
    assert mode_of(tmp_path / "game.html") == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "batch.toml"
    target.write_text("old = 1\n")

    def refuse(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_whole(target, "new = 2\n")
    monkeypatch.undo()
    with pytest.raises(UnicodeEncodeError):
        write_whole(target, "a lone surrogate \udc80 cannot be UTF-8")
    assert target.read_text() == "old = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["batch.toml"]


def test_a_folder_in_the_way_is_an_error_and_leaves_no_temp(tmp_path: Path) -> None:
    (tmp_path / "index.html").mkdir()
    with pytest.raises(IsADirectoryError):
        write_whole(tmp_path / "index.html", "<html></html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]


def test_two_writers_at_once_never_leave_half_a_file(tmp_path: Path) -> None:
    target = tmp_path / "index.html"
    contents = [b"a" * 300_000, b"b" * 200_000]
    write_whole(target, contents[0])
    start = threading.Barrier(3)
    writers_done = threading.Event()
    failures: list[BaseException] = []
    reads = 0
    halves: list[int] = []  # the length of each read that was no writer's whole content

    def write(data: bytes) -> None:
        try:
            start.wait()
            for _ in range(60):
                write_whole(target, data)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    def read() -> None:
        nonlocal reads
        start.wait()
        while not writers_done.is_set():
            got = target.read_bytes()
            reads += 1
            if got not in contents:
                halves.append(len(got))

    threads = [threading.Thread(target=write, args=(c,)) for c in contents]
    reader = threading.Thread(target=read)
    for t in [*threads, reader]:
        t.start()
    for t in threads:
        t.join()
    writers_done.set()
    reader.join()
    assert not failures, failures
    assert reads and not halves, halves
    assert target.read_bytes() in contents
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]
