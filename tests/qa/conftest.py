"""Shared fixtures for QA tests: one warm runner (real Chromium) and the corpus of small games."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.protocol.game import Criterion
from crumb.qa import BrowserNotFound, QARunner, find_chromium
from crumb.settings import QASettings

GAMES = Path(__file__).parent / "games"
# Short limits so the hanging games fail fast; still far above what a healthy game needs.
FAST = QASettings(load_timeout_s=4.0, probe_timeout_s=6.0, timeout_s=60.0)


def criteria(*items: dict) -> list[Criterion]:
    return [Criterion.model_validate(c) for c in items]


TIMER_10 = {"id": "timer", "text": "The round ends after 10 seconds",
            "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 11000}],
                      "expect": [{"path": "phase", "op": "in", "value": ["over", "won"]},
                                 {"path": "timeLeft", "op": "<=", "value": 0}]}}
SCORE_UP = {"id": "score", "text": "The score goes up while playing",
            "probe": {"steps": [{"do": "start"}, {"do": "play", "ms": 3000}],
                      "expect": [{"path": "score", "op": "increased"}]}}
GOOD_CRITERIA = json.loads((GAMES / "good-criteria.json").read_text())["criteria"]


def chromium_or_skip() -> Path:
    try:
        return find_chromium()
    except BrowserNotFound as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def runner() -> Iterator[QARunner]:
    chromium_or_skip()
    qa = QARunner(FAST)
    yield qa
    qa.close()


def browser_pids(root: int | None = None) -> list[int]:
    """Chromium processes below `root` (default: this test process)."""
    from crumb import procfs

    out = []
    for pid in procfs.descendants(root or os.getpid()):
        cmd = procfs.cmdline(pid).split(b"\0")[0].split(b" ")[0]
        if b"chrom" in Path(cmd.decode(errors="replace")).name.encode():  # chromium rewrites helpers' argv
            out.append(pid)
    return out


