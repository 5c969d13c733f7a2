"""The fake clock runs several timers to a real task (crumb/qa/clock_tasks.py), and a game that schedules its
work in a message's task, as React does, still has that work done between two frames of game time, as in a
browser, and all of it done when QA reads the game. Every probe runs on a page of its own, on a real Chromium."""

from __future__ import annotations

import pytest

from crumb.qa import QARunner
from tests.qa.conftest import GAMES, criteria, probe

pytestmark = pytest.mark.browser

GAME = GAMES / "message_scheduler"

# 2 s of game time, about 120 frames, each asking for a move that the scheduler makes before the next frame
IN_STEP = probe("in_step", [{"do": "start"}, {"do": "wait", "ms": 2000}],
                [{"path": "frames", "op": ">=", "value": 100}, {"path": "late", "op": "==", "value": 0}])
# QA reads the game after the move its last frame asked for
DONE = probe("done", [{"do": "start"}, {"do": "wait", "ms": 500}, {"do": "key", "key": " "}, {"do": "wait", "ms": 17}],
             [{"path": "frames", "op": ">=", "value": 20}, {"path": "pending", "op": "==", "value": 0}])

def test_a_game_scheduled_by_messages_keeps_in_step_with_its_frames(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(IN_STEP, DONE), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"in_step": True, "done": True}, result.probes
