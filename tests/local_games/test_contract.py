"""Every grid/turn-based genre keeps the game contract (docs/game-contract.md) in real Chromium."""

from __future__ import annotations

import pytest

from tests.local_games.conftest import GRID_GENRES

pytestmark = pytest.mark.browser

# What each genre adds to window.__crumb.state(), beyond the runtime's own fields.
GENRE_FIELDS = {
    "match3": {"combo", "multiplier", "bestCombo", "movesLeft", "validMoves", "board"},
    "memory": {"pairs", "pairsLeft", "mistakes", "streak"},
    "slide2048": {"maxTile", "moves", "emptyCells", "canMove"},
    "blocks": {"lines", "next", "piece", "stackHeight"},
    "whack": {"molesUp", "hits", "misses", "combo"},
    "clicker": {"coins", "perClick", "perSecond", "upgrades"},
    "simon": {"sequenceLength", "step", "mode"},
    "stacker": {"row", "rows", "width", "height"},
    "bubbleshooter": {"board", "current", "next", "shots", "popped", "dropped", "bubblesLeft", "ceilingDrop"},
}


@pytest.mark.parametrize("genre", GRID_GENRES)
def test_loads_starts_and_playing_the_hints_scores(genre, build, game):
    g = game(build(genre, time_limit_s=60))
    st = g.state()
    assert st["phase"] == "title"
    assert st["genre"] == genre
    assert g.page.title() == f"Test {genre}"
    assert g.distinct_colours() > 20, "the title screen draws the game behind it"

    st = g.start()
    assert st["phase"] == "playing"
    assert st["score"] == 0 and st["timeLeft"] <= 60
    assert GENRE_FIELDS[genre] <= set(st), f"missing genre fields {GENRE_FIELDS[genre] - set(st)}"

    st = g.play(6_000, until=lambda s: s["score"] > 0)
    assert st["score"] > 0, f"6 s of hinted play did not score: {st}"
    assert g.distinct_colours() > 20
    assert g.errors == []


@pytest.mark.parametrize("genre", GRID_GENRES)
def test_time_limit_ends_the_round_and_restart_resets_it(genre, build, game):
    g = game(build(genre, time_limit_s=5))
    g.start()
    st = g.play(4_000, until=lambda s: s["score"] > 0)
    assert st["score"] > 0
    g.advance(5_500)
    st = g.state()
    assert st["phase"] in ("over", "won")
    assert st["timeLeft"] == 0
    g.advance(400)                      # past the runtime's restart grace
    g.key("Enter")
    g.advance(100)
    st = g.state()
    assert st["phase"] == "playing"
    assert st["score"] == 0 and st["timeLeft"] > 4.5
    assert g.errors == []


@pytest.mark.parametrize("genre", GRID_GENRES)
def test_hint_is_made_of_real_inputs(genre, build, game):
    g = game(build(genre, time_limit_s=60))
    g.start()
    seen = []
    for _ in range(30):
        st = g.state()
        seen.extend(st["hint"])
        g.perform(st["hint"])
        g.advance(100)
    assert seen, "the game never suggested an input"
    for h in seen:
        assert h["type"] in ("key", "click")
        if h["type"] == "click":
            assert 0 <= h["x"] <= 1 and 0 <= h["y"] <= 1
        else:
            assert isinstance(h["key"], str) and h["key"]


@pytest.mark.parametrize("genre", GRID_GENRES)
def test_keys_alone_change_state_compared_with_an_untouched_twin(genre, build, game):
    """What QA checks: the same game, same seed and clock, with and without keys, must not read the same."""
    main, twin = game.twins(build(genre, time_limit_s=60))
    for g in (main, twin):
        g.key("Enter")
    main.advance(500)                  # one clock: both tabs move together
    assert main.state() == twin.state(), "two runs without input should be identical"
    for key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " "):
        main.key(key)
        main.advance(150)
    assert main.state() != twin.state()
