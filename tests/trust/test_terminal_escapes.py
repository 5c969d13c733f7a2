"""What a pitch or an agent wrote reaches a terminal escaped: it can neither retitle or clear the
terminal nor fake a log line with a carriage return or a line break."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from crumb.cli import main
from crumb.daemon.daemon import Daemon
from crumb.terminal import safe
from tests.daemon.conftest import drop, sessions
from tests.studio.scripted import Scripted
from tests.wait import wait_until

HOSTILE = "a snake game\x1b]0;pwned\x07\x1b[2J\r12:00:00 fake: QA passed\u202e"


def test_safe_escapes_every_unprintable_character() -> None:
    assert safe(HOSTILE) == "a snake game\\x1b]0;pwned\\x07\\x1b[2J\\r12:00:00 fake: QA passed\\u202e"
    assert safe("plain text, ünïcode ✓") == "plain text, ünïcode ✓"


def test_crumb_tail_status_and_ls_show_a_hostile_pitch_escaped(root: Path) -> None:
    s = Scripted(root).start(pitch=HOSTILE)
    for args in (["tail", s.session], ["status", s.session], ["ls"]):
        out = CliRunner().invoke(main, ["--root", str(root), *args]).output
        assert "\x1b" not in out and "\r" not in out and "\u202e" not in out, (args, out)
        assert "\\x1b]0;pwned" in out, (args, out)


def test_the_daemon_terminal_shows_a_hostile_pitch_escaped(root: Path, capfd: pytest.CaptureFixture[str]) -> None:
    daemon = Daemon(root, qa_runner=None, echo=True)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        wait_until(daemon.ready.is_set, 30, "daemon ready")
        drop(root / "inbox", "idea.txt", HOSTILE + "\n")
        wait_until(lambda: sessions(root), 30, "the session")
        seen = ""
        def echoed() -> bool:
            nonlocal seen
            seen += capfd.readouterr().err
            return "goal" in seen
        wait_until(echoed, 30, "the goal echoed")
    finally:
        daemon.stop()
        thread.join(60)
    assert "\x1b" not in seen and "\r" not in seen and "\\x1b]0;pwned\\x07" in seen, seen
