"""An extra a pitch asks for ("with a boss", "with sound") that the genre's embedded game does not have is
named as not built, never a PASS; the ones it has are built (sound turned on), and steering says the same.

Each genre folder declares its game's extras (Genre.extras); tests/genres/test_registry.py holds the
declaration to the game's code where the code can show it (sound is api.beep).
"""

from __future__ import annotations

import json

import pytest

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.builder import build_game
from crumb.actors.embedded.fidelity import unbuilt_extras
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.verifier import judge
from tests.local_planner.test_fidelity import all_held, audited, plan_fully, rules_of


@pytest.mark.parametrize(("pitch", "missing"), [
    ("space invaders with a boss", ["boss"]),
    ("snake with sound and a high score", ["sound", "high score"]),
    ("a platformer with double jump and shields", ["double jump", "shield"]),
    ("Schlangenspiel mit Soundeffekten", ["sound"]),
    ("pong for two players", ["two-player mode"]), ("Pong na dwóch graczy", ["two-player mode"]),
    ("a co-op space shooter", ["two-player mode"]), ("a platformer where gravity flips", ["gravity flip"]),
    ("a snake game on a hexagonal grid", ["hexagonal grid"]), ("贪吃蛇双人对战", ["two-player mode"]),
    ("Tetris in 3D", ["3D"]), ("a three-dimensional snake", ["3D"]), ("2人で遊べるスネーク", ["two-player mode"]),
    # mechanics a pitch adds to its genre: each passed unnamed before
    ("a snake game where the snake wraps around the edges", ["wrap-around edges"]),
    ("asteroids-style shooter where your ship wraps around the screen", ["wrap-around edges"]),
    ("Snake, bei dem die Schlange durch die Wände geht", ["passing through walls"]), ("贪吃蛇，可以穿墙", ["passing through walls"]),
    ("a breakout game with multiple balls", ["multiball"]), ("un breakout con varias bolas", ["multiball"]),
    ("tetris with a hold piece", ["hold piece"]), ("Tetris mit Geisterstein", ["ghost piece"]),
    ("2048 with undo", ["undo"]), ("una partita a 2048 con annulla la mossa", ["undo"]),
    ("platformer with wall jumps", ["wall jump"]), ("platformer with a grappling hook", ["grappling hook"]),
    ("match-3 with bombs that clear a row", ["bombs"]), ("a shooter with an upgrade shop between waves", ["upgrades"]),
    ("a rhythm game with a song editor", ["level editor"]), ("a platformer with checkpoints", ["checkpoints"]),
    ("snake where the snake goes through walls", ["passing through walls"]),
    ("a dodge game with slow motion", ["slow motion"]), ("gra w węża z bonusami", ["power-ups"]), ("a platformer that tells the story of a lost robot", ["story"]),
    ("flappy bird but you can shoot", ["shooting"]), ("a platformer where you shoot the enemies", ["shooting"]),
    ("Snake, bei dem die Schlange schießen kann", ["shooting"]), ("会开枪的贪吃蛇", ["shooting"]),
    ("a dodge game where the enemies chase you", ["chasing enemies"]),
    ("un juego de esquivar donde los enemigos te persiguen", ["chasing enemies"]),
])
def test_an_extra_the_game_does_not_have_is_named_and_the_verdict_waits(pitch: str, missing: list[str]) -> None:
    spec = plan_fully(pitch)
    name = cat.entry(spec.genre).name
    for extra in missing:
        assert any(x.startswith(f"the embedded {name} game has no {extra}: it is not built") for x in spec.reading.unhonoured), \
            spec.reading.unhonoured
    assert judge(all_held(spec)).verdict == "PARTIAL"
    result = audited(spec, {"verdict": "PASS", "total": 5.0})  # any Verifier's PASS is held to it
    assert result["verdict"] == "PARTIAL" and "pitch_fidelity" in rules_of(result)


@pytest.mark.parametrize("pitch", ["tower defense with a boss every few waves", "60-second match-3 with combo bonus",
                                   "pac-man with power-ups", "pong with sound", "minesweeper with screen shake",
                                   "fruit ninja with bombs you must not slice", "Fruit Ninja mit Bomben",
                                   "cookie clicker with upgrades", "a tower defense where you can upgrade towers",
                                   "doodle jump where you wrap around the screen", "pac-man where the tunnels wrap around",
                                   "a bubble shooter where you shoot bubbles", "tower defense where towers shoot the enemies",
                                   "angry birds: shoot the birds at the pigs' towers", "space invaders where you shoot aliens",
                                   "a maze where ghosts chase you", "吃豆人，鬼会追你",
                                   "hungry hole io game where a rival hole hunts you"])
def test_an_extra_the_game_has_keeps_the_pass(pitch: str) -> None:
    spec = plan_fully(pitch)
    assert spec.extras and not spec.reading.shortfalls(), spec.reading
    assert judge(all_held(spec)).verdict == "PASS"


@pytest.mark.parametrize("pitch", ["breakout: break through the wall of bricks", "stack a tower many stories high",
                                   "match-3 tiles with a drop shadow"])
def test_a_games_own_words_are_not_taken_for_an_extra(pitch: str) -> None:
    """Breaking through a wall of bricks is breakout, not passing through walls; a tower's stories are floors."""
    spec = plan_fully(pitch)
    assert [e for e in spec.extras if ":" not in e] == [] and not spec.reading.shortfalls(), (spec.extras, spec.reading)


def test_a_pitch_asking_for_sound_gets_a_game_with_sound_on(tmp_path) -> None:
    for pitch, on in (("pong with sound", True), ("pong", False)):
        build_game(plan_fully(pitch), tmp_path / pitch)
        config = (tmp_path / pitch / "config.js").read_text()
        assert json.loads(config.split("=", 1)[1].rstrip().rstrip(";"))["sound"] is on


@pytest.mark.parametrize(("pitch", "asked"), [
    ("pong without sound", []), ("pong, sound off", []), ("a dodge game with no power-ups", []),
    ("snake with no power-ups or boss", []), ("tower defense with a boss, no shields", ["boss"]),
    ("Pong ohne Soundeffekte", []), ("pong sans le son", []), ("Snake sem som", []), ("サウンドなしのスネーク", []),
    ("不要音效的贪吃蛇", []), ("소리 없이 뱀 게임", []), ("Змейка без звука", []),
    ("a shooter where you lose your shield when hit", ["shield"]), ("simon says, with sound and no particles", ["sound"]),
])
def test_an_extra_the_pitch_refuses_is_not_asked_for(pitch: str, asked: list[str], tmp_path) -> None:
    """Before, "pong without sound" built pong with its sound on, and "a dodge game with no power-ups" waited
    for a person because the Dodge game has no power-ups."""
    spec = plan_fully(pitch)
    assert [e for e in spec.extras if ":" not in e] == asked, spec.extras
    assert spec.reading.shortfalls() == unbuilt_extras(asked, spec.genre), spec.reading  # what is asked, and only that
    build_game(spec, tmp_path)
    config = json.loads((tmp_path / "config.js").read_text().split("=", 1)[1].rstrip().rstrip(";"))
    assert config["sound"] is ("sound" in asked)


@pytest.mark.parametrize(("pitch", "always"), [
    ("fruit ninja without bombs", "bombs"), ("pac-man without power-ups", "power-ups"),
    ("match-3 without particles", "particles"), ("Tower Defense ohne Upgrades", "upgrades"),
])
def test_an_extra_refused_that_the_game_always_has_is_named_and_the_verdict_waits(pitch: str, always: str) -> None:
    """Sound is turned on only when asked (config.js); the rest a game has it always has, so a pitch that
    refuses one does not get the game it asked for."""
    spec = plan_fully(pitch)
    name = cat.entry(spec.genre).name
    assert spec.reading.shortfalls() == [f"the embedded {name} game always has {always}: a game without them is not "
                                         "built; bind an agent to build it (e.g. --role builder=claude:sonnet)"]
    assert judge(all_held(spec)).verdict == "PARTIAL"


def test_an_extra_steered_in_that_the_game_lacks_is_a_shortfall_until_steered_out() -> None:
    """A steering message decides like the pitch: "add a boss" to snake is not built, so the verdict waits for
    a person, as it does for a pitch asking for one; "no boss after all" takes it back."""
    spec = plan_fully("snake")
    steered, _ = apply_steering(spec, ["add a boss"])
    assert [x.split(":")[0] for x in steered.reading.shortfalls()] == ["the embedded Snake game has no boss"]
    assert judge(all_held(steered)).verdict == "PARTIAL"
    back, _ = apply_steering(steered, ["no boss after all"])
    assert back.reading.shortfalls() == [] and judge(all_held(back)).verdict == "PASS"
    kept, notes = apply_steering(plan_fully("fruit ninja without bombs"), ["keep the bombs"])
    assert kept.reading.shortfalls() == [] and notes == ["extra: + bombs"], (kept.reading, notes)
    steered, notes = apply_steering(plan_fully("match-3 with sound"), ["turn off particles"])
    assert notes == ["Not carried: the embedded Match-3 game always has particles: a game without them is not built; "
                     "bind an agent to build it (e.g. --role builder=claude:sonnet)"], notes


def test_after_a_change_of_genre_what_the_pitch_refuses_is_weighed_against_the_new_game() -> None:
    """"pac-man without ghosts" is not the maze game; steered to snake, nothing of the pitch is left out, and
    the verdict need not wait. "fruit ninja without bombs" steered to minesweeper: that game has bombs too."""
    steered, _ = apply_steering(plan_fully("pac-man without ghosts"), ["make it a snake game"])
    assert steered.genre == "snake" and steered.reading.shortfalls() == [], steered.reading
    assert judge(all_held(steered)).verdict == "PASS"
    steered, _ = apply_steering(plan_fully("fruit ninja without bombs"), ["make it minesweeper"])
    assert steered.reading.shortfalls() == ["the embedded Minesweeper game always has bombs: a game without them is "
                                            "not built; bind an agent to build it (e.g. --role builder=claude:sonnet)"]
    assert judge(all_held(steered)).verdict == "PARTIAL"
    steered, _ = apply_steering(steered, ["make it snake"])
    assert steered.reading.shortfalls() == [] and judge(all_held(steered)).verdict == "PASS"


def test_steering_can_take_an_extra_away() -> None:
    spec = plan_fully("pong with sound")
    steered, notes = apply_steering(spec, ["turn off the sound and add a boss"])
    assert steered.extras == ["boss"] and "extra: − sound" in notes and "extra: + boss" in notes, (steered.extras, notes)
    steered, notes = apply_steering(steered, ["no boss after all"])
    assert steered.extras == [] and notes == ["extra: − boss"], notes
    steered, notes = apply_steering(plan_fully("pong"), ["no sound"])  # nothing to take away: understood all the same
    assert steered.extras == [] and notes == ["extra: sound: already without it"], notes


def test_steering_an_extra_the_game_lacks_says_so() -> None:
    spec = plan_fully("snake")
    steered, notes = apply_steering(spec, ["add a shield"])
    assert "shield" in steered.extras
    assert any(n.startswith("Not carried: the embedded Snake game has no shield") for n in notes), notes
    steered, notes = apply_steering(plan_fully("tower defense"), ["add a boss"])
    assert "boss" in steered.extras and not any(n.startswith("Not carried") for n in notes), notes
    for message, extra in (("make it two player", "two-player mode"), ("flip the gravity now and then", "gravity flip")):
        steered, notes = apply_steering(plan_fully("pong"), [message])
        assert extra in steered.extras
        assert any(n.startswith(f"Not carried: the embedded Pong game has no {extra}") for n in notes), notes


@pytest.mark.parametrize("pitch", ["match-3 with gems, no timer", "whack-a-mole without a timer",
                                   "Match-3 ohne Zeitlimit", "貪食蛇，不限時"])
def test_no_timer_drops_the_genres_default_clock_and_is_checked(pitch: str, tmp_path) -> None:
    spec = plan_fully(pitch)
    assert cat.NO_CLOCK in spec.extras and spec.numbers.time_limit_s is None and not spec.reading.shortfalls()
    noclock = next(c for c in spec.criteria if c.id == "noclock")
    assert [(x.path, x.op, x.value) for x in noclock.probe.expect] == [("timeLeft", "in", [None])]
    notes = build_game(spec, tmp_path)
    config = json.loads((tmp_path / "config.js").read_text().split("=", 1)[1].rstrip().rstrip(";"))
    assert config["timeLimit"] is None, notes


@pytest.mark.parametrize("message", ["remove the timer", "no more timer", "turn off the timer", "no timer"])
def test_steering_the_timer_away_drops_the_clock_and_is_checked(message: str) -> None:
    """Before, "remove the timer" was not understood."""
    steered, notes = apply_steering(plan_fully("match-3"), [message])
    assert cat.NO_CLOCK in steered.extras and notes == ["extra: + no time limit"], notes
    assert "noclock" in {c.id for c in steered.criteria}


def test_a_stated_clock_and_no_timer_at_once_keep_the_clock_and_say_so() -> None:
    spec = plan_fully("60-second match-3, no timer")
    assert spec.numbers.time_limit_s == 60 and cat.NO_CLOCK not in spec.extras
    assert any("says both '60-second' and 'no timer': kept the first" in x for x in spec.reading.unhonoured)
    assert judge(all_held(spec)).verdict == "PARTIAL"


def test_steering_no_timer_then_a_clock_again() -> None:
    spec, notes = apply_steering(plan_fully("whack-a-mole"), ["no timer"])
    assert cat.NO_CLOCK in spec.extras and "noclock" in {c.id for c in spec.criteria}, notes
    spec, notes = apply_steering(spec, ["make it 45 seconds"])
    assert cat.NO_CLOCK not in spec.extras and spec.numbers.time_limit_s == 45, notes
    assert "noclock" not in {c.id for c in spec.criteria} and "timer" in {c.id for c in spec.criteria}
