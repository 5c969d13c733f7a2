"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# A person's own ~/.config/crumb/config.toml (a preset, roles, budgets) must not steer the tests, nor
# anything they start: every test and subprocess sees an empty user config folder unless it sets one.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="crumb-tests-xdg-")
# Node's compiled code for QA's Playwright driver (crumb.qa.runner) goes to the test run's own folder,
# not the person's ~/.cache/crumb.
os.environ["NODE_COMPILE_CACHE"] = tempfile.mkdtemp(prefix="crumb-tests-node-")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A sync Playwright Chromium for tests that drive pages themselves, found and launched the way QA
    finds and launches its own (CRUMB_CHROMIUM, Playwright's browser, the system's). One per module: a
    sync Playwright keeps an asyncio loop running in this thread while it is open."""
    from playwright.sync_api import sync_playwright

    from crumb.qa import BrowserNotFound, find_chromium
    from crumb.qa.browser import LAUNCH_ARGS

    try:
        exe = find_chromium()
    except BrowserNotFound as exc:
        pytest.skip(str(exc))
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(exe), headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def qa_runner() -> Iterator[Any]:
    """One warm Chromium for the whole run, as the daemon keeps one."""
    from crumb.qa import QARunner

    runner = QARunner()
    yield runner
    runner.close()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty CRUMB root folder."""
    r = tmp_path / "root"
    (r / "inbox").mkdir(parents=True)
    return r


@pytest.fixture
def daemon(root: Path, qa_runner: Any) -> Iterator[Any]:
    """A real daemon on `root`, in this process, sharing the warm browser."""
    from tests.daemon.conftest import RunningDaemon

    with RunningDaemon(root, qa_runner) as d:
        yield d


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real batch (five embedded-studio sessions, one cell missing: tests/report/batchmaker.py), made once
    per test run for the report's and the Studio's batch tests."""
    from tests.report.batchmaker import make_batch

    root = tmp_path_factory.mktemp("batch-root")
    (root / "inbox").mkdir()
    return make_batch(root)
