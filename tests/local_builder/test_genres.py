"""Each real-time genre, built from a Spec and played in real Chromium on a fake clock."""

from __future__ import annotations

import pytest

from tests.local_builder.conftest import MY_GENRES, SURVIVE, make_spec

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("genre", MY_GENRES)
def test_title_start_and_play_raises_score(load, genre: str) -> None:
    game = load(make_spec(genre, lives=4))
    s = game.state()
    assert s["phase"] == "title"
    assert s["genre"] == genre and s["lives"] == 4 and s["score"] == 0
    assert game.page.evaluate("window.__crumb.version") == 1
    assert game.canvas_colours() > 8, "the title screen should draw something"
    game.start()
    assert game.state()["phase"] == "playing"
    game.play(3_000)
    early = game.state()["score"]
    assert early > 0, f"{genre}: 3 s of hinted play should already score"
    game.play(7_000)
    s = game.state()
    assert s["score"] > early or s["phase"] == "won"
    assert game.canvas_colours() > 8
    assert game.errors == []
    assert all(u.startswith("file:") for u in game.requests), game.requests


@pytest.mark.parametrize("genre", MY_GENRES)
def test_hints_beat_doing_nothing(load, genre: str) -> None:
    played = load(make_spec(genre, lives=99), name="played")
    idle = load(make_spec(genre, lives=99), name="idle")
    for g in (played, idle):
        g.start()
    played.play(8_000)
    idle.run(8_000)
    assert played.state()["score"] > idle.state()["score"]


@pytest.mark.parametrize("genre", MY_GENRES)
def test_time_limit_of_30s_ends_round_then_restart(load, genre: str) -> None:
    game = load(make_spec(genre, lives=99, time_limit_s=30))
    assert game.state()["timeLeft"] == 30
    game.start()
    game.play(3_000)
    game.run(26_000)
    s = game.state()
    assert s["phase"] == "playing" and 0 < s["timeLeft"] <= 1.1
    game.run(1_500)
    s = game.state()
    assert s["phase"] == ("won" if genre in SURVIVE else "over")
    assert s["timeLeft"] == 0 and s["score"] > 0
    assert s["hint"] == [{"type": "key", "key": "Enter"}]
    game.run(500)
    assert game.state()["timeLeft"] == 0, "the clock must not run after the round"
    game.start()
    s = game.state()
    assert s["phase"] == "playing" and s["score"] == 0 and s["lives"] == 99
    assert 29.9 <= s["timeLeft"] <= 30
    assert game.errors == []


@pytest.mark.parametrize("genre", ["snake", "flappy", "runner", "shooter", "pong", "dodge", "rhythm", "fruitslice", "hole"])
def test_losing_every_life_ends_the_round(load, genre: str) -> None:
    """Doing nothing loses these games: each lost life shows in state(), the last one ends the round."""
    game = load(make_spec(genre, lives=2))
    game.start()
    seen = set()
    for _ in range(60):
        game.run(1_000)
        s = game.state()
        seen.add(s["lives"])
        if s["phase"] != "playing":
            break
    assert s["phase"] == "over" and s["lives"] == 0
    assert {2, 1, 0} <= seen or {1, 0} <= seen
