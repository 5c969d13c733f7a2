"""Every corpus game gets the expected verdict, and the reason names the cause (real Chromium)."""

from __future__ import annotations

import pytest

from crumb.qa import QARunner
from tests.qa.conftest import GAMES, GOOD_CRITERIA, SCORE_UP, TIMER_10, criteria

pytestmark = pytest.mark.browser

# game, criteria, finding code that must be among the reasons, word the message must contain
BROKEN = [
    ("syntax_error", [], "syntax_error", "SyntaxError"),
    ("throw_later", [], "page_error", "explode"),
    ("blank_canvas", [], "blank_canvas", "one colour"),
    ("frozen_canvas", [], "frozen_canvas", "never changed"),
    ("frozen_caret", [], "frozen_canvas", "never changed"),  # a text field's blinking caret is not the game's
    ("ignores_input", [], "no_input_response", "ignores input"),
    ("loop_at_load", [], "hang", "never finished loading"),
    ("loop_after_start", [], "hang", "stopped responding"),
    ("external_fetch", [], "network_blocked", "api.example.com"),
    ("external_websocket", [], "network_blocked", "wss://live.example.com"),
    ("missing_asset", [], "missing_asset", "levels.js"),
    ("remote_script", [], "remote_url", "cdn.example.com"),
    ("timer_never_ends", [TIMER_10], "probe_failed", "phase expected in"),
    ("score_never_changes", [SCORE_UP], "probe_failed", "score expected increased"),
    ("endless_alert", [], "dialog_loop", "dialog"),
    ("navigates_away", [], "navigated_away", "navigated away"),
]


def test_good_game_passes_every_check(runner: QARunner, tmp_path) -> None:
    out = tmp_path / "session" / "artifacts" / "qa"
    result = runner.check(GAMES / "good", criteria=criteria(*GOOD_CRITERIA), controls=["ArrowLeft", "ArrowRight"],
                          out_dir=out, build_id="01BUILD")
    assert result.ok, result.model_dump_json(indent=1)
    assert (result.static_ok, result.exec_ok, result.loaded, result.hook) == (True, True, True, True)
    assert result.canvas_nonblank and result.canvas_animates and result.input_responds
    assert [p.id for p in result.probes if p.ok] == ["timer", "catch", "left"]
    assert result.build == "01BUILD" and result.error is None and not result.blocked
    assert result.fps is not None and result.fps > 0
    assert result.screenshots == ["artifacts/qa/start.png", "artifacts/qa/input.png", "artifacts/qa/end.png"]
    for rel in result.screenshots:
        assert (tmp_path / "session" / rel).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_base_of_the_broken_games_passes(runner: QARunner) -> None:
    """The variants differ from this game in one way each, so their failures are theirs alone."""
    result = runner.check(GAMES / "mini", criteria=criteria(TIMER_10, SCORE_UP))
    assert result.ok, result.model_dump_json(indent=1)


@pytest.mark.parametrize("game, crit, code, word", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_game_fails_with_its_reason(runner: QARunner, game: str, crit: list, code: str, word: str) -> None:
    result = runner.check(GAMES / game, criteria=criteria(*crit))
    assert not result.ok
    assert result.error is None, f"QA itself failed: {result.error}"
    matching = [f for f in result.findings if f.code == code]
    assert matching, f"no {code} finding; got {[(f.code, f.message) for f in result.findings]}"
    assert any(word in f.message for f in matching), [f.message for f in matching]
    if code == "navigated_away":  # one event, named once (the page's event and a call that lost its page both tell it)
        assert len(matching) == 1, [f.message for f in matching]


def test_a_page_scrolled_to_its_canvas_is_pictured_where_it_shows(runner: QARunner) -> None:
    """Screenshots are taken where the canvas is on screen, not where it would be were the page not
    scrolled (there: an empty block, and a false blank_canvas)."""
    result = runner.check(GAMES / "scrolled", criteria=criteria(TIMER_10, SCORE_UP))
    assert result.ok, result.model_dump_json(indent=1)
    assert result.canvas_nonblank and result.canvas_animates


def test_network_attempts_are_recorded_as_blocked(runner: QARunner) -> None:
    result = runner.check(GAMES / "external_fetch")
    assert result.blocked == ["https://api.example.com/scores"]
    assert not result.exec_ok


def test_hung_game_leaves_qa_working_for_the_next(runner: QARunner) -> None:
    hung = runner.check(GAMES / "loop_after_start")
    assert not hung.ok and any(f.code == "hang" for f in hung.findings)
    after = runner.check(GAMES / "mini")
    assert after.ok, after.model_dump_json(indent=1)


def test_runaway_allocation_fails_and_qa_recovers(runner: QARunner) -> None:
    result = runner.check(GAMES / "huge_allocation")
    assert not result.ok and result.error is None
    assert {"crash", "hang"} & {f.code for f in result.findings}
    assert runner.check(GAMES / "mini").ok
