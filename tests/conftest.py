"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def qa_runner() -> Iterator[Any]:
    """One warm Chromium for the whole run, as the daemon keeps one."""
    from crumb.qa import QARunner

    runner = QARunner()
    yield runner
    runner.close()
