"""The rules of rhythm (Piano Tiles), fruitslice (Fruit Ninja) and hopper (Frogger / Crossy Road), observed the
way a player would: real inputs into real Chromium under a fake clock, the hook read back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.local_games.conftest import Game

pytestmark = pytest.mark.browser

LANE_KEY = {1: "d", 2: "f", 3: "j", 4: "k"}


def advance_until(g: Game, pred: Any, ms: int, what: str, step: int = 50) -> dict[str, Any]:
    """Advance game time in small steps until pred(state) holds; fail naming `what` after `ms` of game time."""
    st = g.state()
    for _ in range(ms // step):
        if pred(st):
            return st
        g.advance(step)
        st = g.state()
    if pred(st):
        return st
    raise AssertionError(f"no {what} within {ms} ms of game time: {st}")


def drag(g: Game, x0: float, y0: float, x1: float, y1: float) -> None:
    """A mouse swipe from one canvas fraction to another: down, one frame, move, one frame, up."""
    box = g.page.locator("#game").bounding_box()
    at = lambda x, y: (box["x"] + x * box["width"], box["y"] + y * box["height"])  # noqa: E731
    g.page.mouse.move(*at(x0, y0))
    g.page.mouse.down()
    g.advance(20)
    g.page.mouse.move(*at(x1, y1), steps=4)
    g.advance(20)
    g.page.mouse.up()


# ---------------------------------------------------------------- all three


@pytest.mark.parametrize("genre", ["rhythm", "fruitslice", "hopper"])
def test_following_the_hints_scores_where_doing_nothing_does_not(genre, build, game):
    index = build(genre, time_limit_s=60)
    played = game(index)
    played.start()
    st = played.play(5_000)
    assert st["score"] > 0, st
    idle = game(index)
    idle.start()
    idle.advance(5_000)
    assert idle.state()["score"] == 0
    assert not played.errors and not idle.errors


LAYOUT = {"rhythm": "tiles", "fruitslice": "items", "hopper": "lanes"}


@pytest.mark.parametrize("genre", ["rhythm", "fruitslice", "hopper"])
def test_the_same_seed_plays_the_same_game_and_another_seed_another(genre, build, game):
    key = "ArrowUp" if genre == "hopper" else "d"
    main, twin = game.twins(build(genre, seed=3, time_limit_s=60))   # one clock for both tabs
    for g in (main, twin):
        g.key("Enter")
    main.advance(100)
    for _ in range(6):
        for g in (main, twin):
            g.key(key)
        main.advance(400)
        assert main.state() == twin.state()
    other = game(build(genre, seed=4, time_limit_s=60))
    other.start()
    other.advance(2_500)
    assert other.state()[LAYOUT[genre]] != main.state()[LAYOUT[genre]]


# ---------------------------------------------------------------- rhythm


def test_rhythm_the_next_black_tiles_lane_scores_and_a_white_tile_costs_a_life(build, game):
    g = game(build("rhythm", lives=3, time_limit_s=60))
    st = g.start()
    lane = st["nextLane"]
    g.key(LANE_KEY[lane])
    g.advance(50)
    st = g.state()
    assert st["hits"] == 1 and st["score"] > 0 and st["combo"] == 1 and st["lives"] == 3
    wrong = next(k for k in LANE_KEY if k != st["nextLane"])
    g.key(LANE_KEY[wrong])
    g.advance(50)
    after = g.state()
    assert after["lives"] == 2 and after["mistakes"] == 1 and after["combo"] == 0
    assert after["score"] == st["score"], "a white tile takes nothing from the score"
    assert after["nextLane"] == st["nextLane"], "the black tile is still there to play"


def test_rhythm_clicking_the_tile_scores_and_clicking_a_white_cell_costs_a_life(build, game):
    g = game(build("rhythm", lives=3, time_limit_s=60))
    st = g.start()
    tile = next(t for t in st["tiles"] if t["lane"] == st["nextLane"])
    g.click(tile["x"], tile["y"])
    g.advance(50)
    st = g.state()
    assert st["hits"] == 1 and st["lives"] == 3
    tile = next(t for t in st["tiles"] if t["lane"] == st["nextLane"])
    other = (tile["lane"] % 4 + 0.5) / 4                      # the next lane over, same row: a white cell
    g.click(other, tile["y"])
    g.advance(50)
    assert g.state()["lives"] == 2 and g.state()["mistakes"] == 1


def test_rhythm_a_touch_tap_on_the_tile_scores(build, game):
    g = game(build("rhythm", time_limit_s=60), touch=True)
    g.tap(0.5, 0.5)
    g.advance(100)
    st = g.state()
    assert st["phase"] == "playing"
    tile = next(t for t in st["tiles"] if t["lane"] == st["nextLane"])
    g.tap(tile["x"], tile["y"])
    g.advance(50)
    assert g.state()["hits"] == 1


def test_rhythm_a_black_tile_let_past_costs_a_life_and_the_last_life_ends_the_round(build, game):
    g = game(build("rhythm", lives=2, time_limit_s=60))
    g.start()
    st = advance_until(g, lambda s: s["lives"] < 2, 6_000, "life lost to an unplayed tile")
    assert st["mistakes"] == 1 and st["hits"] == 0
    st = advance_until(g, lambda s: s["phase"] != "playing", 6_000, "end of the round")
    assert st["phase"] == "over" and st["lives"] == 0


def test_rhythm_the_tempo_rises_and_follows_the_speed_setting(build, game):
    g = game(build("rhythm", time_limit_s=60))
    first = g.start()["tempo"]
    g.play(10_000)
    assert g.state()["tempo"] > first
    fast = game(build("rhythm", time_limit_s=60, speed=2))
    assert fast.start()["tempo"] == pytest.approx(2 * first, rel=0.05)


def test_rhythm_playing_to_the_end_of_the_song_wins(build, game):
    g = game(build("rhythm", lives=3, time_limit_s=10))
    g.start()
    st = g.play(12_000)
    assert st["phase"] == "won" and st["timeLeft"] == 0 and st["hits"] >= 12


# ---------------------------------------------------------------- fruitslice


def fruit_in_reach(st: dict[str, Any]) -> dict[str, Any] | None:
    """A whole fruit in the middle of the board with no bomb near its column."""
    for it in st["items"]:
        if it["bomb"] or not (0.25 < it["y"] < 0.7 and 0.15 < it["x"] < 0.85):
            continue
        if all(not o["bomb"] or abs(o["x"] - it["x"]) > 0.2 for o in st["items"]):
            return it
    return None


def test_fruitslice_a_swipe_through_a_fruit_slices_it(build, game):
    g = game(build("fruitslice", lives=3, time_limit_s=60))
    g.start()
    st = advance_until(g, fruit_in_reach, 8_000, "fruit in reach")
    it = fruit_in_reach(st)
    assert it is not None
    drag(g, it["x"], it["y"] - 0.2, it["x"], it["y"] + 0.2)
    g.advance(20)
    after = g.state()
    assert after["sliced"] >= 1 and after["score"] >= 10 and after["bombsHit"] == 0 and after["lives"] == 3


def test_fruitslice_a_bomb_in_the_blades_path_costs_a_life(build, game):
    g = game(build("fruitslice", lives=5, time_limit_s=60))
    g.start()

    def bomb(st: dict[str, Any]) -> dict[str, Any] | None:
        return next((o for o in st["items"] if o["bomb"] and 0.2 < o["y"] < 0.75), None)

    before = g.play(40_000, until=bomb)          # slicing fruit as the hints say until a bomb flies
    b = bomb(before)
    assert b is not None and before["phase"] == "playing", before
    g.click(b["x"], b["y"])
    g.advance(20)
    st = g.state()
    assert st["bombsHit"] == 1 and st["lives"] == before["lives"] - 1


def test_fruitslice_a_dropped_fruit_costs_a_life(build, game):
    g = game(build("fruitslice", lives=1, time_limit_s=60))
    g.start()
    st = advance_until(g, lambda s: s["phase"] != "playing", 10_000, "end of the round")
    assert st["phase"] == "over" and st["missed"] == 1 and st["sliced"] == 0


def test_fruitslice_every_12_fruit_is_a_level_and_clearing_the_last_wins(build, game):
    g = game(build("fruitslice", lives=99, levels=2))
    st = g.start()
    assert st["level"] == 1 and st["levels"] == 2 and st["levelLeft"] == 12 and st["timeLeft"] is None
    st = g.play(60_000, until=lambda s: s["level"] == 2)
    assert st["level"] == 2 and st["phase"] == "playing" and 12 <= st["sliced"] < 24, st
    st = g.play(60_000, until=lambda s: s["phase"] != "playing")
    assert st["phase"] == "won" and st["sliced"] >= 24 and st["level"] == 2, st


def test_fruitslice_a_tap_slices_where_it_lands(build, game):
    g = game(build("fruitslice", time_limit_s=60), touch=True)
    g.tap(0.5, 0.5)
    g.advance(100)
    st = advance_until(g, fruit_in_reach, 8_000, "fruit in reach")
    it = fruit_in_reach(st)
    assert it is not None
    g.tap(it["x"], it["y"])
    g.advance(20)
    assert g.state()["sliced"] >= 1


def test_fruitslice_arrows_move_the_blade_and_space_slashes_across_it(build, game):
    g = game(build("fruitslice", time_limit_s=60))
    st = g.start()
    x0 = st["blade"]["x"]
    g.page.keyboard.down("ArrowLeft")
    g.advance(300)
    g.page.keyboard.up("ArrowLeft")
    assert g.state()["blade"]["x"] < x0 - 0.1
    # bring the blade to a fruit's height and column, then slash
    st = advance_until(g, fruit_in_reach, 8_000, "fruit in reach")
    for _ in range(40):
        it = fruit_in_reach(st)
        if it is None:
            break
        dx, dy = it["x"] - st["blade"]["x"], it["y"] - st["blade"]["y"]
        if abs(dx) < 0.06 and abs(dy) < 0.03:
            break
        key = ("ArrowRight" if dx > 0 else "ArrowLeft") if abs(dx) >= 0.06 else ("ArrowDown" if dy > 0 else "ArrowUp")
        g.page.keyboard.down(key)
        g.advance(20)
        g.page.keyboard.up(key)
        st = g.state()
    g.key(" ")
    g.advance(20)
    assert g.state()["sliced"] >= 1


# ---------------------------------------------------------------- hopper


def test_hopper_a_hop_forward_scores_a_new_row_once(build, game):
    g = game(build("hopper", time_limit_s=60))
    st = g.start()
    assert st["row"] == 0 and st["lane"] == "grass"
    g.key("ArrowUp")
    g.advance(200)
    st = g.state()
    assert st["row"] == 1 and st["score"] == 10
    g.key("ArrowDown")
    g.advance(200)
    g.key("ArrowUp")
    g.advance(200)
    st = g.state()
    assert st["row"] == 1 and st["bestRow"] == 1 and st["score"] == 10, "the same row twice scores once"


def test_hopper_a_click_above_the_chicken_hops_it_forward_and_so_does_a_tap(build, game):
    g = game(build("hopper", time_limit_s=60))
    g.start()
    g.click(0.45, 0.3)
    g.advance(200)
    assert g.state()["row"] == 1
    t = game(build("hopper", time_limit_s=60), touch=True)
    t.tap(0.5, 0.5)
    t.advance(100)
    t.tap(0.45, 0.3)
    t.advance(200)
    assert t.state()["row"] == 1


def test_hopper_waiting_on_the_grass_is_safe(build, game):
    g = game(build("hopper", lives=1, time_limit_s=10))
    g.start()
    g.advance(12_000)
    st = g.state()
    assert st["phase"] == "over" and st["timeLeft"] == 0 and st["lives"] == 1 and st["deaths"] == 0


def test_hopper_hopping_blindly_into_traffic_and_water_costs_lives_and_you_come_back_on_grass(build, game):
    g = game(build("hopper", lives=9, time_limit_s=120))
    g.start()
    for _ in range(200):
        g.key("ArrowUp")
        g.advance(150)
        st = g.state()
        if st["deaths"]:
            break
    assert st["deaths"] == 1 and st["lives"] == 8 and st["lastDeath"] in ("car", "water", "edge")
    assert st["lane"] == "grass" and st["row"] <= st["bestRow"]


def test_hopper_following_the_hints_crosses_every_goal_line_and_wins(build, game):
    g = game(build("hopper", lives=3, levels=2))
    st = g.start()
    assert st["levels"] == 2 and st["goalEvery"] == 16
    st = g.play(60_000)
    assert st["phase"] == "won" and st["level"] == 2 and st["bestRow"] >= 32, st


def test_hopper_traffic_and_logs_follow_the_speed_setting(build, game):
    def lanes(speed: float) -> list[dict[str, Any]]:
        g = game(build("hopper", time_limit_s=60, speed=speed, seed=11))
        return g.start()["lanes"]              # the start meadow and the rows beyond it

    slow, fast = lanes(1), lanes(2)
    moving = [(a, b) for a, b in zip(slow, fast, strict=True) if a["speed"]]
    assert moving, slow
    for a, b in moving:
        assert (b["type"], b["dir"]) == (a["type"], a["dir"]) and b["speed"] == pytest.approx(2 * a["speed"], rel=0.01)


FROG_GREEN = "#43c853"  # the frog's body: the chicken has none of it


def test_hopper_hops_a_frog_when_the_extras_ask_and_a_chicken_otherwise(build, game):
    """A Frogger pitch's frog ("help the frog cross the road") is the spec's extra "frogs": the game draws a frog
    instead of the chicken, and says so in its state, which the criterion draws-frogs reads."""
    frog = game(build("hopper", extras=["frogs"], time_limit_s=60))
    chicken = game(build("hopper", time_limit_s=60))
    for g in (frog, chicken):
        g.start()
        g.key("ArrowUp")
        g.advance(400)
    assert frog.state()["draws"] == {"chickens": False, "frogs": True, "cars": True, "trucks": True}, frog.state()
    assert chicken.state()["draws"] == {"chickens": True, "frogs": False, "cars": True, "trucks": True}
    assert frog.pixels_of(FROG_GREEN) > 300 and chicken.pixels_of(FROG_GREEN) == 0, (frog.pixels_of(FROG_GREEN),
                                                                                    chicken.pixels_of(FROG_GREEN))
    assert not frog.errors and not chicken.errors
