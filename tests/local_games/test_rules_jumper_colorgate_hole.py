"""The rules of the vertical jumper, colour gates and hungry hole, observed the way a player would: inputs in,
the hook out, on a paused fake clock in real Chromium."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.local_games.conftest import STEP_MS, Game

pytestmark = pytest.mark.browser

W, H = 480, 720   # the three games' canvas size


def hold(g: Game, key: str, ms: int) -> list[dict[str, Any]]:
    """Hold a key down for `ms` of game time; the states seen every step."""
    seen = []
    g.page.keyboard.down(key)
    for _ in range(ms // STEP_MS):
        g.advance(STEP_MS)
        seen.append(g.state())
    g.page.keyboard.up(key)
    return seen


def until(g: Game, ms: int, done: Callable[[dict[str, Any]], bool], act: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Every step, `act` on the state (follow a hint, press a key...) until `done` holds; fail after `ms`."""
    st = g.state()
    for _ in range(ms // STEP_MS):
        if done(st):
            return st
        act(st)
        g.advance(STEP_MS)
        st = g.state()
    raise AssertionError(f"not reached in {ms} ms of game time: {st}")


# ---------------------------------------------------------------- jumper


def test_jumper_bounces_on_the_ground_by_itself_but_only_climbing_scores(build, game):
    g = game(build("jumper"))
    st = g.start()
    ys = [st["playerY"]]
    for _ in range(30):
        g.advance(STEP_MS)
        st = g.state()
        ys.append(st["playerY"])
    assert max(ys) - min(ys) > 120, f"the jumper should bounce up and down: {ys}"
    assert st["score"] == 0 and st["height"] == 0 and st["lives"] == 3 and st["phase"] == "playing"
    assert g.errors == []


def test_jumper_steering_moves_it_and_the_screen_wraps_around(build, game):
    g = game(build("jumper"))
    x0 = g.start()["playerX"]
    xs = [s["playerX"] for s in hold(g, "ArrowRight", 2_500)]
    assert xs[3] > x0, "holding → moves the jumper right"
    assert any(b < a - W / 2 for a, b in zip(xs, xs[1:], strict=False)), f"past the right edge it comes back on the left: {xs}"
    ys = [s["playerX"] for s in hold(g, "ArrowLeft", 400)]
    assert ys[-1] < xs[-1] or ys[-1] > W - 60, "holding ← moves it back left (or wraps to the right edge)"


def test_jumper_the_score_is_the_height_of_the_highest_platform_landed_on(build, game):
    g = game(build("jumper", levels=2))
    g.start()
    st = g.play(6_000)
    assert st["score"] > 20 and st["score"] == st["height"]
    assert st["falls"] == 0 and st["lives"] == 3
    # Climbing past the last level's line wins the round.
    st = g.play(60_000)
    assert st["phase"] == "won" and st["level"] == 2, st
    assert st["score"] >= 120


def test_jumper_falling_off_the_bottom_costs_a_life_and_puts_it_back(build, game):
    g = game(build("jumper", lives=3))
    g.start()
    g.play(5_000)
    before = g.state()
    assert before["score"] > 20

    def steer_wrong(st: dict[str, Any]) -> None:
        right = any(h.get("key") == "ArrowRight" for h in st["hint"])
        g.key("ArrowLeft" if right else "ArrowRight")

    st = until(g, 30_000, lambda s: s["falls"] > 0, steer_wrong)
    assert st["lives"] == 2 and st["phase"] == "playing"
    assert st["score"] >= before["score"], "a fall never takes points away"
    g.advance(300)
    back = g.state()
    assert 0 < back["playerY"] < H and back["vy"] < 0, f"the jumper is back on screen, bouncing up: {back}"


# ---------------------------------------------------------------- colorgate


def test_colorgate_the_ball_waits_for_the_first_tap_then_falls_without_more(build, game):
    g = game(build("colorgate", lives=3))
    st = g.start()
    g.advance(5_000)
    idle = g.state()
    assert idle["waiting"] and idle["ballY"] == st["ballY"] and idle["lives"] == 3
    g.key(" ")
    g.advance(STEP_MS)
    up = g.state()
    assert up["ballY"] < idle["ballY"] and up["vy"] < 0 and not up["waiting"]
    st = until(g, 5_000, lambda s: s["lives"] < 3, lambda s: None)
    assert st["lives"] == 2 and st["score"] == 0
    g.advance(STEP_MS)
    assert g.state()["waiting"], "after a fall the ball waits for a tap again"


def test_colorgate_passing_through_its_own_colour_scores_and_costs_nothing(build, game):
    g = game(build("colorgate", lives=3))
    g.start()
    st = g.play(20_000, until=lambda s: s["gatesPassed"] >= 2)
    assert st["gatesPassed"] >= 2 and st["score"] == st["gatesPassed"]
    assert st["lives"] == 3, "the hints only pass gates in the ball's colour"


def test_colorgate_a_gate_of_another_colour_costs_a_life(build, game):
    g = game(build("colorgate", lives=3))
    g.start()
    st = g.play(15_000, until=lambda s: s["gatesPassed"] >= 1)
    # Inside the first ring: its top shows the quadrant opposite the one just passed, never the ball's colour.
    assert st["nextGate"]["band"] == "top" and st["gateColor"] != st["ballColor"]
    st = until(g, 3_000, lambda s: s["lives"] < 3, lambda s: g.key(" "))
    assert st["lives"] == 2 and st["phase"] == "playing" and st["gatesPassed"] == 1


def test_colorgate_a_colour_changer_gives_the_ball_another_colour(build, game):
    g = game(build("colorgate", lives=3))
    first = g.start()["ballColor"]
    st = g.play(30_000, until=lambda s: s["changers"] >= 1)
    assert st["changers"] == 1 and st["ballColor"] != first


@pytest.mark.parametrize("seed", [1, 2])
def test_colorgate_hinted_play_clears_a_level(seed, build, game):
    g = game(build("colorgate", seed=seed, lives=3, levels=1))
    g.start()
    st = g.play(90_000)
    assert st["phase"] == "won" and st["gatesPassed"] == 4, st


# ---------------------------------------------------------------- hole


def test_hole_swallowing_smaller_things_scores_and_grows_the_hole(build, game):
    g = game(build("hole", time_limit_s=60))
    st = g.start()
    r0 = st["holeRadius"]
    st = g.play(6_000, until=lambda s: s["swallowed"] >= 5)
    assert st["swallowed"] >= 5 and st["score"] > 0
    assert st["holeRadius"] > r0


def test_hole_something_bigger_than_the_hole_does_not_fall_in(build, game):
    g = game(build("hole", time_limit_s=60))
    st = g.start()
    big = st["tooBig"]
    assert big and big["size"] > st["holeRadius"] * 0.85
    g.click(big["x"] / W, big["y"] / H)
    st = until(g, 8_000, lambda s: abs(s["holeX"] - big["x"]) < 3 and abs(s["holeY"] - big["y"]) < 3, lambda s: None)
    g.advance(500)
    st = g.state()
    assert st["tooBig"] == big, "the house (or tree) still stands on top of the hole"


def test_hole_keys_and_clicks_move_the_hole(build, game):
    g = game(build("hole", time_limit_s=60))
    st = g.start()
    down = hold(g, "ArrowDown", 500)[-1]
    assert down["holeY"] > st["holeY"] + 40 and down["holeX"] == st["holeX"]
    g.click(0.9, 0.5)
    g.advance(2_000)
    there = g.state()
    assert there["holeX"] > down["holeX"] + 100


def test_hole_the_bigger_rival_swallowing_you_costs_a_life(build, game):
    g = game(build("hole", lives=3, time_limit_s=90))
    st = g.start()
    assert st["rival"]["r"] > st["holeRadius"]
    st = until(g, 60_000, lambda s: s["lives"] < 3, lambda s: None)
    assert st["eatenBy"] == 1 and st["phase"] == "playing" and st["score"] == 0
    rival = st["rival"]
    assert ((st["holeX"] - rival["x"]) ** 2 + (st["holeY"] - rival["y"]) ** 2) ** 0.5 > rival["r"] + st["holeRadius"]


def test_hole_grown_past_the_rival_you_swallow_it(build, game):
    g = game(build("hole", lives=3, time_limit_s=120))
    g.start()
    st = g.play(60_000, until=lambda s: s["rival"] is None)
    assert st["rival"] is None and st["lives"] == 3
    assert st["score"] >= 150
    g.advance(5_500)
    back = g.state()["rival"]
    assert back is not None, "a new rival comes back a few seconds later"
