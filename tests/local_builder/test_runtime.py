"""The shared runtime in real Chromium: phases, input kinds, seeding, fitting, and injected faults."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.local_builder.conftest import make_spec
from tests.wait import wait_until

pytestmark = pytest.mark.browser


def test_click_starts_and_p_pauses_the_clock(load) -> None:
    game = load(make_spec("dodge", time_limit_s=20))
    game.click(0.5, 0.5)
    assert game.state()["phase"] == "playing"
    game.run(1_000)
    game.key("p")
    paused = game.state()
    assert paused["phase"] == "paused" and paused["hint"] == [{"type": "key", "key": "p"}]
    game.run(3_000)
    assert game.state()["timeLeft"] == paused["timeLeft"], "time must stand still while paused"
    game.key("p")
    game.run(1_000)
    s = game.state()
    assert s["phase"] == "playing" and s["timeLeft"] < paused["timeLeft"]


def test_touch_tap_starts_and_swipe_steers(load) -> None:
    game = load(make_spec("snake"), touch=True)
    box = game.box()
    game.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    game.run(20)
    assert game.state()["phase"] == "playing"
    assert game.state()["dir"] == "right"
    cdp = game.context.new_cdp_session(game.page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 40}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    game.run(300)
    assert game.state()["dir"] == "up", "a swipe up must act as ArrowUp"
    assert game.errors == []


def test_same_seed_gives_the_same_world(load) -> None:
    """Same build and seed: the same first picture and state. (Runs are not compared frame by frame after
    input: Playwright's fake clock gives each page its own animation-frame phase.)"""
    pixels = """() => { const c = document.getElementById('game');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 0;
        for (let i = 0; i < d.length; i += 7) h = (h * 31 + d[i]) | 0; return h; }"""
    a, b = (load(make_spec("shooter"), name=n) for n in ("a", "b"))
    c = load(make_spec("shooter"), seed=99, name="c")
    assert a.state() == b.state()
    assert a.page.evaluate(pixels) == b.page.evaluate(pixels)
    assert c.page.evaluate("window.__crumb.seed") == 99
    assert c.page.evaluate(pixels) != a.page.evaluate(pixels), "another seed, another star field"


def test_seed_in_the_url_overrides_the_built_seed(load) -> None:
    foods = []
    for seed in (5, 6, 5):
        game = load(make_spec("snake"), query=f"?seed={seed}", name=f"s{seed}")
        assert game.page.evaluate("window.__crumb.seed") == seed
        game.start()
        game.play(3_000)
        foods.append(game.state()["food"])
    assert foods[0] == foods[2], "the same seed replays the same food"
    assert foods[0] != foods[1], "another seed puts the food elsewhere"


def test_target_score_wins_the_round(load) -> None:
    game = load(make_spec("runner", target_score=10))
    game.start()
    game.play(6_000)
    s = game.state()
    assert s["phase"] == "won" and s["score"] >= 10 and s["target"] == 10


def test_levels_cap_wins_when_the_last_level_is_cleared(load) -> None:
    game = load(make_spec("platformer", levels=1, lives=9))
    game.start()
    for _ in range(300):  # decision by decision: play() would press the Enter hinted after the round
        game.play(100)
        s = game.state()
        if s["phase"] != "playing":
            break
    assert s["phase"] == "won" and s["level"] == 1, s


def test_canvas_fits_a_phone_without_scrolling(load) -> None:
    game = load(make_spec("breakout"), viewport=(390, 844), touch=True)
    box = game.box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5 and box["y"] >= 0 and box["y"] + box["height"] <= 844.5
    assert abs(box["width"] / box["height"] - 480 / 720) < 0.01
    assert game.page.evaluate("document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth")
    game.page.set_viewport_size({"width": 844, "height": 390})
    game.run(50)
    # Chromium dispatches "resize" at its next rendering step, which a loaded machine may reach late.
    box = wait_until(lambda: (b := game.box())["height"] <= 390.5 and b, what="the canvas to refit the landscape phone")
    assert box["height"] <= 390.5 and abs(box["width"] / box["height"] - 480 / 720) < 0.01


# ---------------------------------------------------------------- injected faults


def test_fault_blank_draws_nothing(load) -> None:
    game = load(make_spec("pong"), fault="blank")
    game.start()
    game.run(1_000)
    assert game.canvas_colours() == 1
    assert game.state()["phase"] == "playing", "only the drawing is broken"


def test_fault_throws_one_second_into_the_round(load) -> None:
    game = load(make_spec("dodge"), fault="throws")
    game.start()
    game.run(900)
    assert game.errors == []
    # Under Playwright's fake clock an error thrown in a frame callback surfaces from run_for itself.
    with pytest.raises(PlaywrightError, match="fault injection: the game crashed"):
        game.run(300)
    t = game.state()["time"]
    game.run(1_000)
    assert game.state()["time"] == t, "after the crash the game is frozen"


def test_fault_noinput_starts_but_ignores_play(load) -> None:
    game = load(make_spec("snake", lives=9), fault="noinput")
    game.start()
    assert game.state()["phase"] == "playing"
    game.play(5_000)
    s = game.state()
    assert s["score"] == 0 and s["dir"] == "right"


def test_fault_wrongtimer_never_ends_the_round(load) -> None:
    game = load(make_spec("dodge", time_limit_s=10, lives=99), fault="wrongtimer")
    game.start()
    game.run(15_000)
    s = game.state()
    assert s["phase"] == "playing" and s["timeLeft"] == 10


def test_fault_syntax_is_a_page_error_and_no_hook(load) -> None:
    game = load(make_spec("breakout"), fault="syntax")
    assert any(e.startswith("pageerror: Unexpected token") for e in game.errors), game.errors
    assert game.page.evaluate("typeof window.__crumb") == "undefined"


def test_fault_wronggenre_reports_the_genre_it_built(load) -> None:
    game = load(make_spec("pong"), fault="wronggenre")
    assert game.state()["genre"] == "dodge"
    assert game.page.evaluate("window.__crumb.genre") == "dodge"


def test_text_scale_and_palette_reach_the_page(load, tmp_path: Path) -> None:
    spec = make_spec("snake")
    spec.extras = ["text_scale:1.5"]
    spec.theme.palette = ["#203040"]
    game = load(spec)
    cfg = game.page.evaluate("window.CRUMB_CONFIG")
    assert cfg["textScale"] == 1.5 and cfg["palette"]["bg"] == "#203040"
    corner = game.page.evaluate("Array.from(document.getElementById('game').getContext('2d').getImageData(1, 1, 1, 1).data)")
    assert corner[:3] != [0, 0, 0] and corner[3] == 255
