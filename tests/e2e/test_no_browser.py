"""Without a Chromium, QA cannot say anything about a game, so nothing may read as if it did: `crumb run`
refuses before it pitches, `crumb qa` says so in one line, and a running daemon ends the session `error`
naming the fix instead of spending every fix round on FAIL verdicts QA never measured. Real processes with
a PATH and a Playwright folder that hold no browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crumb.qa.browser import ENV_VAR, SYSTEM_NAMES
from tests.daemon.conftest import crumb, drop, events, sessions, start_watch, stop_watch, wait_done
from tests.loopback import path_without
from tests.wait import wait_until

FIX = "no Chromium found for QA: install one: `python -m playwright install chromium`"


@pytest.fixture
def no_browser(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    env["PATH"] = path_without(*SYSTEM_NAMES)
    env["PLAYWRIGHT_BROWSERS_PATH"] = str(tmp_path / "no-browsers")
    return env


def test_run_refuses_before_pitching(tmp_path: Path, no_browser: dict[str, str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    done = crumb(root, "run", "60-second snake", env=no_browser)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [done.stderr.strip()] and done.stderr.startswith(f"crumb run: {FIX}")
    assert not (root / "sessions").exists() or not any((root / "sessions").iterdir())  # nothing pitched


def test_qa_says_so_in_one_line(tmp_path: Path, no_browser: dict[str, str]) -> None:
    game = tmp_path / "index.html"
    game.write_text("<!doctype html><canvas></canvas>")
    done = crumb(tmp_path, "qa", str(game), env=no_browser)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"crumb qa: {done.stderr.strip().removeprefix('crumb qa: ')}"]
    assert FIX in done.stderr


def test_a_daemon_without_a_browser_ends_the_session_naming_it(tmp_path: Path, no_browser: dict[str, str]) -> None:
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    proc = start_watch(root, env=no_browser)
    try:
        drop(root / "inbox", "snake.txt", "60-second snake")
        sid = wait_until(lambda: (sessions(root) or [None])[0], 60, "the session")
        state = wait_done(root, sid)
    finally:
        stop_watch(proc)
    assert proc.stderr is not None and FIX in proc.stderr.read()  # said once when the daemon started
    assert state.done is not None and state.done.get("reason") == "error"
    assert FIX in state.done.get("detail", "") and "qa failed 3 times in a row" in state.done["detail"]
    # no verdict was written about a game nobody could check, and no fix round was spent
    assert events(root, sid, "judge.score") == [] and events(root, sid, "qa.result") == []
    assert len(events(root, sid, "build")) == 1
    assert [e["data"]["attempt"] for e in events(root, sid, "effect.failed")] == [1, 2, 3]
