"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


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
