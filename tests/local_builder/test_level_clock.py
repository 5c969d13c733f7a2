"""The per-level clock (spec.numbers.level_time_s) in real Chromium: it is not the whole game's clock.

It counts down from its value, restarts when a level is cleared, and running out costs a life (or
ends the round on the last one) while the round goes on; a fault that freezes clocks freezes it too.
"""

from __future__ import annotations

import pytest

from tests.local_builder.conftest import make_spec

pytestmark = pytest.mark.browser


def test_running_out_costs_a_life_and_the_clock_starts_again(load) -> None:
    game = load(make_spec("platformer", level_time_s=5, lives=3, levels=7))
    game.start()
    game.run(2_000)
    s = game.state()
    assert s["phase"] == "playing" and 2.5 <= s["levelTimeLeft"] < 3.5, s
    assert s["timeLeft"] is None, "a per-level clock is not a clock for the whole game"
    game.run(3_500)  # 5.5 s in: the level's 5 seconds ran out half a second ago
    s = game.state()
    assert s["phase"] == "playing" and s["lives"] == 2, s
    assert 4.0 <= s["levelTimeLeft"] <= 5, f"the level clock must start again: {s['levelTimeLeft']}"
    game.run(5_000)  # and again
    s = game.state()
    assert s["phase"] == "playing" and s["lives"] == 1, s
    game.run(5_000)  # the last life
    s = game.state()
    assert s["phase"] == "over" and s["lives"] == 0 and s["levelTimeLeft"] == 0, s
    assert game.errors == []


def test_without_lives_running_out_ends_the_round(load) -> None:
    game = load(make_spec("stacker", level_time_s=4))
    game.start()
    game.run(3_500)
    assert game.state()["phase"] == "playing"
    game.run(1_000)
    s = game.state()
    assert s["phase"] == "over" and s["levelTimeLeft"] == 0, s


def test_a_new_level_starts_a_new_clock(load) -> None:
    game = load(make_spec("simon", level_time_s=20, lives=3))
    game.start()
    for _ in range(200):  # decision by decision until the first sequence is repeated
        game.play(100)
        s = game.state()
        if s["level"] >= 2 or s["phase"] != "playing":
            break
    assert s["phase"] == "playing" and s["level"] == 2, s
    assert s["time"] > 1, s
    assert s["levelTimeLeft"] >= 20 - 0.5, f"level 2 must start with its own 20 s, not {s['levelTimeLeft']} ({s['time']} s in)"
    assert s["lives"] == 3


def test_the_round_clock_and_the_level_clock_run_side_by_side(load) -> None:
    game = load(make_spec("memory", time_limit_s=60, level_time_s=10, lives=5))
    game.start()
    game.run(12_000)
    s = game.state()
    assert s["phase"] == "playing" and s["lives"] == 4, s
    assert 47 <= s["timeLeft"] <= 48.5 and 7.5 <= s["levelTimeLeft"] <= 8.5, s


def test_a_frozen_clock_fault_freezes_the_level_clock(load) -> None:
    game = load(make_spec("platformer", level_time_s=5, lives=3), fault="wrongtimer")
    game.start()
    game.run(7_000)
    s = game.state()
    assert s["levelTimeLeft"] == 5 and s["lives"] == 3, s


def test_an_unset_level_clock_is_reported_as_null(load) -> None:
    game = load(make_spec("platformer", lives=3))
    game.start()
    game.run(1_000)
    assert game.state()["levelTimeLeft"] is None
