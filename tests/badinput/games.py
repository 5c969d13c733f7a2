"""Drive QA with the small broken games of tests/qa/games/ (reused by path, never copied)."""

from __future__ import annotations

from typing import Any

from tests.badinput.agents import tree
from tests.badinput.corpus import Case, one_line
from tests.qa.conftest import GAMES, SCORE_UP, TIMER_10, criteria

CRITERIA = {"timer_10": TIMER_10, "score_up": SCORE_UP}


def run_game(qa_runner: Any, case: Case) -> None:
    inp = case.input
    game = GAMES / inp["game"]
    before = tree(game)
    result = qa_runner.check(game, criteria=criteria(*(CRITERIA[c] for c in inp.get("criteria", []))))
    assert not result.ok, "a broken game passed QA"
    assert result.error is None, f"QA itself failed instead of judging the game: {result.error}"
    matching = [f for f in result.findings if f.code == case.outcome]
    assert matching, f"no {case.outcome} finding; got {[(f.code, f.message) for f in result.findings]}"
    messages = [one_line(f.message) for f in matching]
    assert any(all(e in m for e in case.expect) for m in messages), (case.expect, messages)
    if "blocked" in inp:
        assert result.blocked == inp["blocked"], result.blocked
    assert tree(game) == before, "QA changed the game folder"
