"""The rules of minesweeper, typing and slingshot, observed the way a player would: inputs in, hook out."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

AROUND = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def at_cell(st: dict[str, Any], r: int, c: int) -> tuple[float, float]:
    cells = st["cells"]
    return cells["x"] + c * cells["dx"], cells["y"] + r * cells["dy"]


def right_click(g: Any, x: float, y: float) -> None:
    box = g.page.locator("#game").bounding_box()
    g.page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"], button="right")


# ---------------------------------------------------------------- the three genres keep the contract


@pytest.mark.parametrize("genre", ["minesweeper", "typing", "slingshot"])
def test_title_hints_score_time_up_and_restart(genre, build, game):
    g = game(build(genre, time_limit_s=8))
    st = g.state()
    assert st["phase"] == "title" and st["genre"] == genre
    assert g.distinct_colours() > 20, "the title screen draws the game behind it"
    st = g.start()
    assert st["phase"] == "playing" and st["score"] == 0
    st = g.play(6_000, until=lambda s: s["score"] > 0)
    assert st["score"] > 0, f"6 s of hinted play did not score: {st}"
    g.advance(9_000)
    st = g.state()
    assert st["phase"] in ("over", "won") and st["timeLeft"] == 0
    g.advance(400)
    g.key("Enter")
    g.advance(100)
    st = g.state()
    assert st["phase"] == "playing" and st["score"] == 0 and st["timeLeft"] > 7
    assert g.errors == []


@pytest.mark.parametrize("genre", ["minesweeper", "typing", "slingshot"])
def test_playing_the_hints_beats_doing_nothing(genre, build, game):
    idle = game(build(genre, time_limit_s=30, seed=3))
    idle.start()
    idle.advance(8_000)
    played = game(build(genre, time_limit_s=30, seed=3))
    played.start()
    st = played.play(8_000)
    assert st["score"] > idle.state()["score"], st


@pytest.mark.parametrize("genre", ["minesweeper", "typing", "slingshot"])
def test_a_phone_starts_and_plays_by_touch(genre, build, browser):
    from tests.fake_clock import paused_context
    from tests.local_games.conftest import T0, Game

    ctx = paused_context(browser, T0, T0 + 1_000, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        g = Game(ctx.new_page()).open(build(genre))
        box = g.page.locator("#game").bounding_box()
        assert box["width"] <= 390 and box["height"] <= 844
        g.tap(0.5, 0.5)
        g.advance(100)
        st = g.state()
        assert st["phase"] == "playing"
        for _ in range(60):
            if st["score"] > 0:
                break
            for h in st["hint"]:
                if h["type"] == "click":
                    g.tap(h["x"], h["y"])
                else:
                    g.key(h["key"])
            g.advance(100)
            st = g.state()
        assert st["score"] > 0, st
        assert g.errors == []
    finally:
        ctx.close()


# ---------------------------------------------------------------- minesweeper


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_minesweeper_first_click_is_safe_and_a_zero_floods(seed, build, game):
    g = game(build("minesweeper", seed=seed, grid=9))
    st = g.start()
    assert st["placed"] is False and st["mineAt"] == []
    corner = (0, 0) if seed % 2 else (8, 8)
    g.click(*at_cell(st, *corner))
    g.advance(100)
    st = g.state()
    mines = {tuple(m) for m in st["mineAt"]}
    assert len(mines) == st["mines"] > 0
    assert corner not in mines and st["exploded"] == 0 and st["lives"] == 3
    r, c = corner
    assert st["board"][r][c] == "0", "the first cell has no mine around it"
    opened = [(rr, cc) for rr in range(9) for cc in range(9) if st["board"][rr][cc] != "#"]
    assert len(opened) > 4, "a zero opens its neighbours in the same move"
    assert st["revealed"] == len(opened) and st["score"] == 10 * len(opened)


def test_minesweeper_numbers_count_the_neighbouring_mines(build, game):
    g = game(build("minesweeper", seed=5, grid=8))
    st = g.start()
    g.click(*at_cell(st, 4, 4))
    g.advance(100)
    st = g.state()
    mines = {tuple(m) for m in st["mineAt"]}
    shown = 0
    for r, row in enumerate(st["board"]):
        for c, ch in enumerate(row):
            if ch.isdigit():
                assert int(ch) == sum((r + dr, c + dc) in mines for dr, dc in AROUND), (r, c, st["board"])
                shown += 1
    assert shown > 0


def test_minesweeper_a_revealed_mine_costs_a_life_and_the_last_one_ends_the_round(build, game):
    g = game(build("minesweeper", seed=2, lives=2))
    st = g.start()
    g.click(*at_cell(st, 0, 0))
    g.advance(100)
    st = g.state()
    mines = [tuple(m) for m in st["mineAt"]]
    score = st["score"]
    g.click(*at_cell(st, *mines[0]))
    g.advance(100)
    st = g.state()
    assert st["lives"] == 1 and st["exploded"] == 1 and st["phase"] == "playing"
    assert st["board"][mines[0][0]][mines[0][1]] == "*" and st["score"] == score, "a mine scores nothing"
    g.click(*at_cell(st, *mines[1]))
    g.advance(100)
    assert g.state()["phase"] == "over"


def test_minesweeper_a_flag_guards_its_cell(build, game):
    g = game(build("minesweeper", seed=4))
    st = g.start()
    g.click(*at_cell(st, 0, 0))
    g.advance(100)
    st = g.state()
    mine = tuple(st["mineAt"][0])
    right_click(g, *at_cell(st, *mine))
    g.advance(100)
    st = g.state()
    assert st["board"][mine[0]][mine[1]] == "F" and st["flags"] == 1 and st["minesLeft"] == st["mines"] - 1
    g.click(*at_cell(st, *mine))                # a plain click on a flag does nothing
    g.advance(100)
    st = g.state()
    assert st["lives"] == 3 and st["exploded"] == 0 and st["board"][mine[0]][mine[1]] == "F"


def test_minesweeper_flag_mode_by_touch_and_keyboard_flags(build, game):
    g = game(build("minesweeper", seed=6), touch=True)
    st = g.start()
    g.tap(st["modeButton"]["x"], st["modeButton"]["y"])     # the Dig/Flag switch under the board
    g.advance(100)
    assert g.state()["flagMode"] is True
    g.tap(*at_cell(st, 2, 2))
    g.advance(100)
    st = g.state()
    assert st["board"][2][2] == "F" and st["placed"] is False, "a flag is not a reveal"
    g.key("ArrowDown")                          # the cursor follows the last tap: (2,2) -> (3,2)
    g.key("f")
    g.advance(100)
    st = g.state()
    assert st["cursor"] == [3, 2] and st["board"][3][2] == "F" and st["flags"] == 2


def test_minesweeper_keyboard_reveals_and_clearing_every_level_wins(build, game):
    g = game(build("minesweeper", seed=8, grid=6, levels=2))
    st = g.start()
    g.key(" ")                                  # reveal under the cursor
    g.advance(100)
    st = g.state()
    assert st["placed"] and st["revealed"] > 0 and st["exploded"] == 0
    for level in (1, 2):
        st = g.play(20_000, until=lambda s, lv=level: s["level"] > lv or s["phase"] != "playing")
        if level == 1:
            assert st["level"] == 2 and st["phase"] == "playing", st
            g.advance(1_500)                    # the next board is dealt
            st = g.state()
            assert st["placed"] is False and st["revealed"] == 0 and st["mines"] > 0
    assert st["phase"] == "won" and st["exploded"] == 0


@pytest.mark.parametrize("grid", [5, 12])
def test_minesweeper_honours_the_grid(grid, build, game):
    st = game(build("minesweeper", grid=grid)).start()
    assert st["grid"] == grid and len(st["board"]) == grid and all(len(r) == grid for r in st["board"])


# ---------------------------------------------------------------- typing


def first_word(g: Any, ms: int = 6_000) -> dict[str, Any]:
    st = g.state()
    for _ in range(ms // 100):
        if st["words"]:
            return st
        g.advance(100)
        st = g.state()
    raise AssertionError("no word fell")


def test_typing_a_word_clears_it_and_scores_by_its_length(build, game):
    g = game(build("typing"))
    g.start()
    st = first_word(g)
    word = max(st["words"], key=lambda w: w["y"])["word"]
    for ch in word[:-1]:
        g.key(ch)
    g.advance(50)
    st = g.state()
    assert st["active"] == word and st["typed"] == len(word) - 1 and st["score"] == 0
    g.key(word[-1])
    g.advance(50)
    st = g.state()
    assert word not in [w["word"] for w in st["words"]]
    assert st["score"] == 10 * len(word) and st["cleared"] == 1 and st["combo"] == 1


def test_typing_a_wrong_letter_breaks_the_combo(build, game):
    g = game(build("typing"))
    g.start()
    st = g.play(8_000, until=lambda s: s["combo"] >= 2)
    assert st["combo"] >= 2
    st = first_word(g)
    wrong = next(ch for ch in "qzxjkv" if ch != st["nextLetter"])
    g.key(wrong)
    g.advance(50)
    st = g.state()
    assert st["combo"] == 0 and st["mistakes"] == 1


def test_typing_a_word_that_lands_costs_a_life(build, game):
    g = game(build("typing", lives=2))
    g.start()
    st = first_word(g)
    for _ in range(400):
        if st["lives"] < 2:
            break
        g.advance(100)
        st = g.state()
    assert st["lives"] == 1 and st["missed"] == 1 and st["phase"] == "playing"


def test_typing_the_on_screen_keyboard_types(build, game):
    g = game(build("typing"), touch=True)
    g.start()
    st = first_word(g)
    ch = st["nextLetter"]
    g.tap(*st["keys"][ch])
    g.advance(50)
    st = g.state()
    assert st["typed"] == 1 and st["active"] and st["active"][0] == ch
    g.key("Backspace")                          # lets go of the word
    g.advance(50)
    st = g.state()
    assert st["active"] is None and st["typed"] == 0


def test_typing_levels_speed_up_and_the_last_one_wins(build, game):
    g = game(build("typing", levels=2))
    st = g.start()
    speed = st["fallSpeed"]
    st = g.play(40_000, until=lambda s: s["level"] >= 2)
    assert st["level"] == 2 and st["fallSpeed"] > speed and st["cleared"] == 6
    st = g.play(40_000)
    assert st["phase"] == "won" and st["cleared"] == 12


# ---------------------------------------------------------------- slingshot


def test_slingshot_a_click_throws_a_bird_and_uses_a_shot(build, game):
    g = game(build("slingshot", moves=3))
    st = g.start()
    assert st["movesLeft"] == 3 and st["mode"] == "ready"
    sx, sy = st["sling"]["x"], st["sling"]["y"]
    g.click(sx + 0.2, sy - 0.3)
    g.advance(200)
    st = g.state()
    assert st["movesLeft"] == 2 and st["mode"] == "flying" and st["shots"] == 1
    assert st["bird"]["x"] > sx and st["bird"]["y"] < sy, "the bird flies up and towards the towers"


def test_slingshot_drag_back_and_release(build, game):
    g = game(build("slingshot"))
    st = g.start()
    box = g.page.locator("#game").bounding_box()
    sx, sy = box["x"] + st["sling"]["x"] * box["width"], box["y"] + st["sling"]["y"] * box["height"]
    g.page.mouse.move(sx, sy)
    g.page.mouse.down()
    g.advance(50)
    g.page.mouse.move(sx - 60, sy + 50, steps=4)
    g.advance(50)
    assert g.state()["mode"] == "ready", "the bird waits in the pouch while held"
    g.page.mouse.up()
    g.advance(150)
    st = g.state()
    assert st["mode"] == "flying" and st["movesLeft"] == 3
    assert st["bird"]["x"] > st["sling"]["x"] and st["bird"]["y"] < st["sling"]["y"]


def test_slingshot_keyboard_aims_and_fires(build, game):
    g = game(build("slingshot"))
    st = g.start()
    angle = st["aim"]["angle"]
    g.key("ArrowUp")
    g.key("ArrowUp")
    g.advance(50)
    assert g.state()["aim"]["angle"] == angle + 6
    g.key(" ")
    g.advance(100)
    assert g.state()["mode"] == "flying"


def test_slingshot_hinted_throws_pop_targets_and_clearing_every_level_wins(build, game):
    g = game(build("slingshot", levels=2, moves=6))
    st = g.start()
    targets = st["targetsLeft"]
    st = g.play(20_000, until=lambda s: s["targetsLeft"] < targets or s["level"] > 1)
    assert st["popped"] >= 1 and st["score"] >= 500
    st = g.play(60_000)
    assert st["phase"] == "won", st


def test_slingshot_out_of_birds_costs_a_life_and_replays_the_level(build, game):
    g = game(build("slingshot", moves=1, lives=2))
    st = g.start()
    sx, sy = st["sling"]["x"], st["sling"]["y"]
    g.click(sx - 0.1, sy - 0.05)                # a feeble throw backwards: nothing is hit
    st = g.state()
    for _ in range(80):
        g.advance(100)
        st = g.state()
        if st["lives"] < 2:
            break
    assert st["lives"] == 1 and st["phase"] == "playing" and st["movesLeft"] == 1 and st["targetsLeft"] > 0
    g.click(sx - 0.1, sy - 0.05)
    for _ in range(80):
        g.advance(100)
        if g.state()["phase"] != "playing":
            break
    assert g.state()["phase"] == "over"


def test_typing_p_is_a_letter_and_escape_pauses(build, game):
    g = game(build("typing"))
    g.start()
    g.key("p")
    g.advance(50)
    assert g.state()["phase"] == "playing", "P is a letter here, not pause"
    g.key("Escape")
    g.advance(50)
    st = g.state()
    assert st["phase"] == "paused" and st["hint"] == [{"type": "key", "key": "Escape"}]
    g.key("Escape")
    g.advance(50)
    assert g.state()["phase"] == "playing"
