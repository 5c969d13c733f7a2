"""One real batch for the whole module set (five real sessions, made once per test run)."""

from __future__ import annotations

import pytest

from tests.report.batchmaker import Made, make_batch


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    root = tmp_path_factory.mktemp("report-root")
    (root / "inbox").mkdir()
    return make_batch(root)
