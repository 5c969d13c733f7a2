"""Telling the game's own exception from the browser going away, in what Playwright's fake clock raises."""

from __future__ import annotations

import pytest

from crumb.qa.page import game_error


@pytest.mark.parametrize(("raised", "game"), [
    ("Clock.run_for: TypeError: x is undefined", "TypeError: x is undefined"),
    # the game's words may be Playwright's: they are still the game's (QA once called this its own failure)
    ("Clock.run_for: Error: CRUMB fault injection: the game crashed 1 s into the round",
     "Error: CRUMB fault injection: the game crashed 1 s into the round"),
    ("Clock.run_for: RangeError: the level has been closed\n    at update (game.js:3)", "RangeError: the level has been closed"),
    # the browser going away is QA's trouble, not the game's
    ("Clock.run_for: Target page, context or browser has been closed", None),
    ("Clock.run_for: Error: Target page, context or browser has been closed", None),
    ("Clock.run_for: Protocol error (Runtime.evaluate): Target closed.", None),
    ("Clock.install: Page crashed", None),
    ("Page.evaluate: TypeError: not a clock call", None),
])
def test_the_games_exception_is_told_from_the_browser_going_away(raised: str, game: str | None) -> None:
    assert game_error(Exception(raised)) == game
