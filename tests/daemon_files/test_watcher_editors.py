"""One save in any editor = exactly one event; temp, swap, lock and backup files are never reported.

Runs against real watchdog (inotify and polling) in temporary folders, with the real vim and sed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from crumb.daemon.files import read_inbox_file
from crumb.daemon.watcher import Watcher

from .helpers import SAVERS, events_until_sentinel, sed_in_place

needs_vim = pytest.mark.skipif(shutil.which("vim") is None, reason="vim is not installed")


def _saver_params() -> list:  # type: ignore[type-arg]
    return [pytest.param(name, marks=needs_vim) if name.startswith("vim") else name for name in SAVERS]


@pytest.mark.parametrize("saver", _saver_params())
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_one_save_is_one_steer_event(watcher: Watcher, session: Path, saver: str, existing: bool) -> None:
    inbox = session / "inbox"
    target = inbox / "steer.txt"
    if existing:
        target.write_text("old text\n")
        assert [e.path for e in events_until_sentinel(watcher, inbox)] == [target]

    SAVERS[saver](target, "/approve\nmake the snake green\n")

    events = events_until_sentinel(watcher, inbox)
    assert [(e.kind, e.path, e.session) for e in events] == [("steer_file", target, "S1")]
    got = read_inbox_file(target, max_bytes=65_536)
    assert got is not None and not hasattr(got, "message")
    assert got.text == "/approve\nmake the snake green\n"  # type: ignore[union-attr]


@pytest.mark.parametrize("saver", ["plain_write", "atomic_dot_tmp", "jetbrains", pytest.param("vim", marks=needs_vim)])
def test_one_save_is_one_pitch_event(watcher: Watcher, saver: str) -> None:
    target = watcher.root / "inbox" / "idea.md"
    SAVERS[saver](target, "60-second snake\n")
    events = events_until_sentinel(watcher, watcher.root / "inbox")
    assert [(e.kind, e.path, e.session) for e in events] == [("pitch_file", target, None)]


def test_sed_in_place_is_one_event(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    target = inbox / "note.txt"
    target.write_text("draft\n")
    assert len(events_until_sentinel(watcher, inbox)) == 1
    sed_in_place(target, "final words")  # real GNU sed: writes ./sedXXXXXX, renames it onto note.txt
    assert [e.path for e in events_until_sentinel(watcher, inbox)] == [target]
    assert target.read_text() == "final words\n"


IGNORED_NAMES = [
    ".steer.txt.swp", ".steer.txt.swx", "steer.txt.swp", "4913", "5036", "steer.txt~", "steer.txt.~1~",
    ".#steer.txt", "#steer.txt#", ".steer.txt.tmp", "steer.txt.tmp", "steer.txt.tmp-1234", "game.crdownload",
    "steer.txt___jb_tmp___", "steer.txt___jb_old___", "sedAb12Cd", "steer.txt.part", ".DS_Store", "tmpk2j4h5l9",
    "~$steer.docx", "steer.txt.bak",
]


def test_temp_backup_and_lock_names_are_never_reported(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    for name in IGNORED_NAMES:
        (inbox / name).write_text("not a message\n")
    os.symlink("user@host.1:1", inbox / ".#other.txt")  # an emacs lock: a dangling symlink
    assert events_until_sentinel(watcher, inbox) == []
    watcher.rescan(force=True)  # a rescan does not report them either
    assert events_until_sentinel(watcher, inbox) == []


def test_folders_inside_an_inbox_are_not_reported(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    (inbox / "rejected").mkdir()  # the daemon keeps rejected files here
    (inbox / "rejected" / "bad.bin").write_bytes(b"\x00\x01")
    assert events_until_sentinel(watcher, inbox) == []


def test_two_saves_after_a_consumer_read_are_two_events(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    target = inbox / "steer.txt"
    target.write_text("first\n")
    assert [e.path for e in events_until_sentinel(watcher, inbox)] == [target]
    target.write_text("second, longer\n")
    assert [e.path for e in events_until_sentinel(watcher, inbox)] == [target]


def test_an_empty_file_is_not_a_message_until_it_has_content(watcher: Watcher, session: Path) -> None:
    inbox = session / "inbox"
    target = inbox / "later.txt"
    target.touch()  # `touch inbox/later.txt`, then open it in an editor
    assert events_until_sentinel(watcher, inbox) == []
    target.write_text("/status\n")
    assert [e.path for e in events_until_sentinel(watcher, inbox)] == [target]
