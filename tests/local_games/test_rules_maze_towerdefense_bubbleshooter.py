"""The rules of maze, towerdefense and bubbleshooter as a player notices them, in real Chromium on a
fake clock: inputs in (keys, clicks, the hints QA follows), the test hook out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.local_games.conftest import Game

pytestmark = pytest.mark.browser

State = dict[str, Any]


def advance_until(g: Game, done: Callable[[State], bool], ms: int, step: int = 100) -> State:
    """Advance game time in steps until `done(state)`; fail if `ms` of game time pass first."""
    st = g.state()
    for _ in range(ms // step):
        if done(st):
            return st
        g.advance(step)
        st = g.state()
    if done(st):
        return st
    raise AssertionError(f"not reached within {ms} ms of game time: {summary(st)}")


def play_until(g: Game, done: Callable[[State], bool], ms: int) -> State:
    """Follow the hints (QA's play step) until `done(state)`; fail if `ms` of game time pass first."""
    st = g.play(ms, until=done)
    assert done(st), f"not reached within {ms} ms of hinted play: {summary(st)}"
    return st


def summary(st: State) -> dict[str, Any]:
    return {k: v for k, v in st.items() if k not in ("maze", "board", "road")}


# ---------------------------------------------------------------- maze


def is_wall(maze: list[str], x: int, y: int) -> bool:
    return maze[y][x % len(maze[0])] in "#X-G"


def test_maze_the_hero_never_enters_a_wall_and_a_remembered_turn_is_taken_at_the_first_opening(build, game):
    g = game(build("maze", lives=3))
    st = g.start()
    x0, y0 = st["player"]["cell"]
    assert is_wall(st["maze"], x0, y0 - 1), "the hero starts under a wall"
    g.key("ArrowUp")                                 # not possible here: remembered until a corridor opens
    st = advance_until(g, lambda s: s["player"]["dir"] == "up", 3_000, 50)
    x, y = st["player"]["cell"]
    assert y == y0 and x < x0, "it kept going left until it could turn"
    assert all(is_wall(st["maze"], c, y0 - 1) for c in range(x + 1, x0 + 1)), "it turned at the first opening"
    for _ in range(40):
        g.key(["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp"][_ % 4])
        g.advance(150)
        st = g.state()
        cx, cy = st["player"]["cell"]
        assert not is_wall(st["maze"], cx, cy), f"the hero is inside a wall at {cx},{cy}"
    assert g.errors == []


def test_maze_a_dot_scores_10_and_is_gone(build, game):
    g = game(build("maze", lives=3))
    st = g.start()
    dots = sum(row.count(".") for row in st["maze"])
    st = advance_until(g, lambda s: s["pelletsEaten"] >= 3, 4_000)
    assert st["score"] == 10 * st["pelletsEaten"]
    assert sum(row.count(".") for row in st["maze"]) == dots - st["pelletsEaten"]
    assert st["pelletsLeft"] == sum(row.count(".") + row.count("o") for row in st["maze"])


def test_maze_a_ghost_touching_the_hero_costs_a_life_and_the_round_restarts_from_the_start(build, game):
    g = game(build("maze", lives=3))
    start = g.start()
    st = advance_until(g, lambda s: s["deaths"] >= 1, 40_000)      # left alone, the ghosts catch the hero
    assert st["dying"] and st["lives"] == 3, "the life goes once the hero has folded up"
    st = advance_until(g, lambda s: not s["dying"], 3_000)
    assert st["lives"] == 2 and st["phase"] == "playing"
    assert st["player"]["cell"] == start["player"]["cell"]
    assert [gh["mode"] for gh in st["ghosts"]] == [gh["mode"] for gh in start["ghosts"]]


def test_maze_the_last_life_lost_ends_the_round(build, game):
    g = game(build("maze", lives=1))
    g.start()
    st = advance_until(g, lambda s: s["phase"] != "playing", 60_000)
    assert st["phase"] == "over" and st["lives"] == 0 and st["deaths"] == 1


def test_maze_a_power_pellet_makes_the_ghosts_edible_and_eating_one_scores_200(build, game):
    g = game(build("maze", lives=9))
    g.start()
    st = play_until(g, lambda s: s["powered"] > 0, 60_000)
    modes = [gh["mode"] for gh in st["ghosts"]]
    assert "fright" in modes and "hunt" not in modes, modes
    before = st
    st = play_until(g, lambda s: s["ghostsEaten"] > before["ghostsEaten"] or s["powered"] == 0, 8_000)
    assert st["ghostsEaten"] > before["ghostsEaten"], "the hints chase blue ghosts: one is caught before they turn back"
    assert st["score"] - before["score"] >= 200
    assert "eyes" in [gh["mode"] for gh in st["ghosts"]], "an eaten ghost goes home as eyes"


def test_maze_clearing_every_dot_starts_the_next_level_with_a_full_maze(build, game):
    g = game(build("maze", lives=99, levels=2))
    first = g.start()
    st = play_until(g, lambda s: s["level"] == 2, 150_000)
    st = advance_until(g, lambda s: s["pelletsLeft"] == first["pelletsLeft"], 2_000)
    assert st["phase"] == "playing" and st["score"] >= 10 * first["pelletsLeft"]


# ---------------------------------------------------------------- towerdefense


def tile(st: State, x: int, y: int) -> tuple[float, float]:
    at = st["cells"]
    return at["x"] + x * at["dx"], at["y"] + y * at["dy"]


def far_from_road(st: State, reach: float) -> list[tuple[int, int]]:
    road = {tuple(c) for c in st["road"]}
    return [(x, y) for y in range(14) for x in range(12)
            if (x, y) not in road and all((x - rx) ** 2 + (y - ry) ** 2 > reach ** 2 for rx, ry in road)]


def test_towerdefense_a_tower_beside_the_road_shoots_the_creeps_that_pass(build, game):
    g = game(build("towerdefense", lives=10))
    st = g.start()
    assert st["coins"] == 120 and st["towers"] == []
    g.click(*tile(st, 4, 2))                         # right beside the first stretch of road
    g.advance(50)
    st = g.state()
    assert st["towers"] == [{"x": 4, "y": 2, "level": 1}] and st["coins"] == 70
    st = advance_until(g, lambda s: s["kills"] >= 1, 15_000)
    assert st["score"] >= 10 and st["coins"] > 70, "a stopped creep pays"
    assert st["leaked"] == 0


def test_towerdefense_a_tower_out_of_range_never_fires_and_the_creeps_that_get_through_cost_lives(build, game):
    g = game(build("towerdefense", lives=10))
    st = g.start()
    x, y = far_from_road(st, 3.2)[0]
    g.click(*tile(st, x, y))
    st = advance_until(g, lambda s: s["leaked"] >= 2, 30_000)
    assert len(st["towers"]) == 1 and st["kills"] == 0 and st["score"] == 0
    assert st["lives"] == 10 - st["leaked"]


def test_towerdefense_the_road_cannot_be_built_on_and_coins_limit_building(build, game):
    g = game(build("towerdefense", lives=10))
    st = g.start()
    road = st["road"][3]
    g.click(*tile(st, *road))
    g.advance(50)
    assert g.state()["towers"] == [] and g.state()["coins"] == 120
    spots = far_from_road(st, 3.2)[:3]
    for x, y in spots:
        g.click(*tile(st, x, y))
        g.advance(50)
    st = g.state()
    assert len(st["towers"]) == 2 and st["coins"] == 20, "120 coins buy two 50-coin towers, not three"


def test_towerdefense_clicking_a_tower_upgrades_it_when_there_are_coins(build, game):
    g = game(build("towerdefense", lives=10))
    st = g.start()
    x, y = far_from_road(st, 3.2)[0]
    g.click(*tile(st, x, y))
    g.advance(50)
    g.click(*tile(st, x, y))
    g.advance(50)
    st = g.state()
    assert st["towers"] == [{"x": x, "y": y, "level": 2}] and st["coins"] == 10
    g.click(*tile(st, x, y))                         # the next level costs 90: not enough coins
    g.advance(50)
    assert g.state()["towers"][0]["level"] == 2 and g.state()["coins"] == 10


def test_towerdefense_arrows_move_the_cursor_and_space_builds_there(build, game):
    g = game(build("towerdefense", lives=10))
    st = g.start()
    cx, cy = st["cursor"]
    g.key("ArrowLeft")
    g.key("ArrowDown")
    g.advance(50)
    st = g.state()
    assert st["cursor"] == [cx - 1, cy + 1]
    g.key(" ")
    g.advance(50)
    st = g.state()
    on_road = [cx - 1, cy + 1] in st["road"]
    assert st["towers"] == ([] if on_road else [{"x": cx - 1, "y": cy + 1, "level": 1}])


def test_towerdefense_holding_out_through_every_wave_wins(build, game):
    g = game(build("towerdefense", lives=30, levels=2))
    g.start()
    st = play_until(g, lambda s: s["phase"] != "playing", 90_000)
    assert st["phase"] == "won" and st["wave"] == 2 and st["kills"] > 0


# ---------------------------------------------------------------- bubbleshooter


def neighbours(board: list[list[int]], r: int, c: int) -> list[tuple[int, int]]:
    """The six cells touching (r, c) on the game's offset grid (odd rows sit half a bubble right)."""
    d = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)] if r % 2 else [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)]
    return [(r + a, c + b) for a, b in d if 0 <= r + a < len(board) and 0 <= c + b < len(board[r + a])]


def group(board: list[list[int]], r: int, c: int) -> set[tuple[int, int]]:
    colour, seen, todo = board[r][c], {(r, c)}, [(r, c)]
    while todo:
        for n in neighbours(board, *todo.pop()):
            if n not in seen and board[n[0]][n[1]] == colour:
                seen.add(n)
                todo.append(n)
    return seen


def hanging(board: list[list[int]]) -> set[tuple[int, int]]:
    """Bubbles connected to the ceiling (row 0) through other bubbles."""
    seen = {(0, c) for c, t in enumerate(board[0]) if t >= 0}
    todo = list(seen)
    while todo:
        for n in neighbours(board, *todo.pop()):
            if n not in seen and board[n[0]][n[1]] >= 0:
                seen.add(n)
                todo.append(n)
    return seen


def cells(board: list[list[int]]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, t in enumerate(row) if t >= 0}


def landed(g: Game, shots: int) -> State:
    """Wait until shot number `shots + 1` has landed and settled (or ended the round)."""
    return advance_until(g, lambda s: s["shots"] > shots and (not s["flying"] or s["phase"] != "playing"), 3_000, 50)


def shoot(g: Game, before: State) -> State:
    """Fire what the hint says and wait until the shot has landed and settled."""
    g.perform(before["hint"])
    g.advance(50)
    return landed(g, before["shots"])


def test_bubbleshooter_three_of_a_colour_pop_and_what_no_longer_hangs_falls(build, game):
    g = game(build("bubbleshooter", lives=3))
    st = g.start()
    pops = 0
    for _ in range(12):
        if st["phase"] != "playing" or st["level"] > 1:
            break
        before = st
        st = shoot(g, before)
        if st["level"] > 1 or st["lives"] != before["lives"]:
            break                                    # a new board: nothing to compare
        was, now = cells(before["board"]), cells(st["board"])
        added, removed = now - was, was - now
        assert len(added) <= 1
        if not removed:                              # it stuck: next to a bubble or on the ceiling, no group of 3
            (r, c), = added
            assert st["board"][r][c] == before["current"]
            assert r == 0 or any(st["board"][n[0]][n[1]] >= 0 for n in neighbours(st["board"], r, c))
            assert len(group(st["board"], r, c)) < 3
            assert st["score"] == before["score"]
        else:
            pops += 1
            popped = st["popped"] - before["popped"]
            dropped = st["dropped"] - before["dropped"]
            assert popped >= 3 and popped + dropped == len(removed) + 1   # the shot bubble itself went too
            assert st["score"] - before["score"] == 10 * popped + 20 * dropped * (2 if dropped > 3 else 1)
            coloured = [b for b in removed if before["board"][b[0]][b[1]] == before["current"]]
            assert len(coloured) >= popped - 1
        assert cells(st["board"]) == hanging(st["board"]), "a bubble hangs in mid-air"
    assert pops >= 2, "following the hints should pop groups"
    assert g.errors == []


def test_bubbleshooter_six_shots_that_pop_nothing_bring_the_ceiling_down(build, game):
    g = game(build("bubbleshooter", lives=3))
    st = g.start()
    misses = 0
    for k in range(14):
        before = st
        g.key("ArrowLeft" if k % 2 else "ArrowRight")   # aim a little off each time, then fire
        g.key(" ")
        g.advance(50)
        st = landed(g, before["shots"])
        if st["level"] > 1 or st["lives"] != before["lives"]:
            break
        if st["popped"] == before["popped"]:
            misses += 1
        assert st["ceilingDrop"] == misses // 6, (misses, st["ceilingDrop"])
    assert misses >= 6, "the test needs six misses to see the ceiling come down"


def test_bubbleshooter_keys_aim_and_swap_the_next_bubble(build, game):
    g = game(build("bubbleshooter", lives=3))
    st = g.start()
    g.key("ArrowLeft")
    g.advance(50)
    left = g.state()
    assert left["aim"] > st["aim"], "← turns the launcher to the left"
    g.key("ArrowDown")
    g.advance(50)
    swapped = g.state()
    assert (swapped["current"], swapped["next"]) == (left["next"], left["current"])
    assert swapped["shots"] == 0


def test_bubbleshooter_a_shot_limit_is_honoured(build, game):
    g = game(build("bubbleshooter", lives=3, moves=3))
    st = g.start()
    assert st["movesLeft"] == 3
    for _ in range(3):
        if st["phase"] != "playing":
            break
        st = shoot(g, st)
    assert st["shots"] == 3 and st["movesLeft"] == 0
    assert st["phase"] in ("over", "won")


def test_bubbleshooter_a_tap_fires_where_it_points(build, game):
    g = game(build("bubbleshooter", lives=3), touch=True)
    g.tap(0.5, 0.5)                                  # a tap starts the round...
    g.advance(100)
    st = g.state()
    assert st["phase"] == "playing" and st["shots"] == 0
    g.tap(0.25, 0.5)                                 # ...and then shoots up and to the left
    st = landed(g, 0)
    assert st["shots"] == 1 and st["aim"] > 1.5708


def test_maze_a_tap_beside_the_hero_turns_it_that_way(build, game):
    g = game(build("maze", lives=3), touch=True)
    g.tap(0.5, 0.5)
    g.advance(100)
    st = g.state()
    assert st["phase"] == "playing" and st["player"]["want"] == "left"
    at, (x, y) = st["cells"], st["player"]["cell"]
    g.tap(at["x"] + (x + 3) * at["dx"], at["y"] + y * at["dy"])   # three cells to its right
    g.advance(50)
    assert g.state()["player"]["want"] == "right"
