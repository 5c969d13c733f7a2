"""The pace a pitch or a steering message asks for (crumb.actors.embedded.pace), as the spec carries it.

"twice as fast" used to give the 1.25 × step of the bare word "fast", "half as fast" sped the game up, and
"the snake grows twice as fast" sped the whole game up while the reading called the pitch honoured.
"""

from __future__ import annotations

import pytest

from crumb.actors.embedded.pace import read_pace
from crumb.actors.embedded.pitch import knob
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.text import normalize
from crumb.protocol.game import Spec
from crumb.protocol.spec_markdown import spec_markdown


def _spec(pitch: str) -> Spec:
    spec = plan(pitch)
    assert isinstance(spec, Spec) and spec.reading is not None
    return spec


@pytest.mark.parametrize(("pitch", "factor", "said"), [
    ("a snake game twice as fast", 2, "twice as fast"),
    ("a snake that moves half as fast", 0.5, "half as fast"),
    ("pong at half speed", 0.5, "half speed"),
    ("breakout at double speed", 2, "double speed"),
    ("a snake game 3 times faster", 3, "3 times faster"),
    ("a snake game three times as fast", 3, "three times as fast"),
    ("a snake game twice as slow", 0.5, "twice as slow"),
    ("pong with 1.5x speed", 1.5, "1.5x speed"),
    ("snake at 50% faster", 1.5, "50% faster"),
    ("snake at 150% speed", 1.5, "150% speed"),
    ("eine Schlange doppelt so schnell", 2, "doppelt so schnell"),
    ("slang half zo snel", 0.5, "half zo snel"),
    ("un serpent deux fois moins vite", 0.5, "deux fois moins vite"),
    ("serpiente el doble de rápido", 2, "el doble de rápido"),
    ("serpente due volte più veloce", 2, "due volte più veloce"),
    ("cobrinha duas vezes mais rápida", 2, "duas vezes mais rápida"),
    ("змейка в два раза быстрее", 2, "два раза быстрее"),
    ("wąż dwa razy szybciej", 2, "dwa razy szybciej"),
    ("iki kat daha hızlı yılan", 2, "iki kat daha hızlı"),
    ("rắn nhanh gấp đôi", 2, "nhanh gấp đôi"),
    ("两倍速贪吃蛇", 2, "两倍速"),
    ("2배 빠른 뱀 게임", 2, "2배 빠른"),
])
def test_a_factor_in_words_is_a_stated_speed_the_game_is_checked_for(pitch: str, factor: float, said: str) -> None:
    spec = _spec(pitch)
    assert spec.numbers.speed == factor and knob(spec.extras, "speed") == factor
    probe = next(c for c in spec.criteria if c.id == "speed").probe.expect[0]
    assert (probe.path, probe.op, probe.value) == ("speed", "==", factor)
    assert [(n.field, n.said) for n in spec.reading.numbers] == [("speed", said)]
    assert spec.reading.unhonoured == []


def test_a_count_of_times_is_not_read_as_another_number() -> None:
    spec = _spec("snake three times as fast with 5 lives")
    assert spec.numbers.speed == 3 and spec.numbers.lives == 5


@pytest.mark.parametrize(("pitch", "said"), [
    ("a tiny snake where the snake grows twice as fast", "grows twice as fast"),
    ("a snake that grows very fast", "grows fast"),
    ("a shooter where enemies spawn 3x faster", "spawn 3x faster"),
])
def test_a_pace_asked_of_one_thing_is_named_and_not_applied_to_the_whole_game(pitch: str, said: str) -> None:
    spec = _spec(pitch)
    assert spec.numbers.speed is None and knob(spec.extras, "speed") == 1.0
    assert [u for u in spec.reading.unhonoured if u.startswith(said + ":")], spec.reading.unhonoured
    assert "not honoured: " + said in spec_markdown(spec)


def test_fast_and_slow_at_once_keep_the_normal_pace_and_say_why() -> None:
    spec = _spec("a breakout game where the paddle moves fast but the ball is slow")
    assert knob(spec.extras, "speed") == 1.0
    assert any("'fast' and 'slow'" in u for u in spec.reading.unhonoured), spec.reading.unhonoured


@pytest.mark.parametrize(("pitch", "step"), [("fast snake", 1.25), ("a relaxed snake game", 0.8), ("snake", 1.0),
                                             ("a quick game of snake", 1.0), ("a quick round of pong", 1.0),
                                             ("een snel potje pong", 1.0), ("a quick snake", 1.25),
                                             ("eine schnelle Runde Snake", 1.0), ("ein schnelles Snake", 1.25),
                                             ("une partie rapide de pong", 1.0), ("un pong rapide", 1.25),
                                             ("una partida rápida de snake", 1.0), ("una partita veloce a pong", 1.0),
                                             ("uma partida rápida de pong", 1.0), ("быстрая партия в змейку", 1.0),
                                             ("szybka partia w węża", 1.0), ("hızlı bir tur yılan oyunu", 1.0),
                                             ("швидка партія в змійку", 1.0), ("một ván nhanh rắn săn mồi", 1.0),
                                             ("빠른 한 판 스네이크 게임", 1.0), ("快速来一局贪吃蛇", 1.0),
                                             ("来一局快速的贪吃蛇", 1.0), ("快速的贪吃蛇", 1.25),
                                             ("快節奏的貪吃蛇", 1.25)])
def test_a_pace_word_alone_is_a_step_the_spec_does_not_promise(pitch: str, step: float) -> None:
    spec = _spec(pitch)
    assert knob(spec.extras, "speed") == step and spec.numbers.speed is None
    assert "speed" not in {c.id for c in spec.criteria} and spec.reading.unhonoured == []


@pytest.mark.parametrize("text", [
    "snake with a 50% speed boost", "snake with double speed power-ups", "a speed x2 power-up in snake",
    "o dobro do tempo, cobrinha",
    "a platformer with double jump", "tetris with a score multiplier, 2 times",
    # slow motion is a mechanic of its own (an extra), not a slower game
    "a dodge game with slow motion", "un dodge con cámara lenta", "a runner where time slows when you jump", "慢动作的躲避游戏",
])
def test_what_is_not_the_games_pace_is_not_read_as_one(text: str) -> None:
    assert read_pace(normalize(text)).factor is None


def test_steering_a_factor_in_words_sets_it() -> None:
    out, notes = apply_steering(_spec("a neon snake game"), ["twice as fast"])
    assert knob(out.extras, "speed") == 2 and notes == ["speed: ×1 → ×2"]


def test_steering_a_factor_onto_a_stated_speed_changes_the_number_the_game_is_checked_for() -> None:
    """The builder lets a stated speed outrank the knob, so setting the knob alone changed nothing in the game."""
    spec = _spec("pong at 2x speed")
    out, notes = apply_steering(spec, ["3x faster"])
    assert out.numbers.speed == 3 and knob(out.extras, "speed") == 3 and notes == ["speed: 2 → 3 ('3x faster')"]
    assert next(c for c in out.criteria if c.id == "speed").probe.expect[0].value == 3


def test_steering_a_pace_of_one_thing_changes_nothing_and_says_so() -> None:
    spec = _spec("a neon snake game")
    for message in ("make it grow faster", "the snake should grow twice as fast"):
        out, notes = apply_steering(spec, [message])
        assert knob(out.extras, "speed") == 1.0 and out.numbers.speed is None
        assert len(notes) == 1 and notes[0].startswith("Not carried: grow"), notes


def test_a_second_pace_is_named_not_dropped() -> None:
    spec = _spec("pong at double speed, or maybe half speed")
    assert spec.numbers.speed == 2
    assert any(u.startswith("half speed as well") for u in spec.reading.unhonoured), spec.reading.unhonoured


def test_a_factor_beyond_what_the_games_play_is_held_to_it_and_named() -> None:
    spec = _spec("snake 10x faster")
    assert spec.numbers.speed == 4
    assert "10x faster: the games play at 0.25–4 × their pace, so at 4 ×" in spec.reading.unhonoured


@pytest.mark.parametrize(("pitch", "genre"), [("快节奏的射击游戏", "shooter"), ("快節奏的貪吃蛇", "snake"),
                                              ("慢节奏的消消乐", "match3"), ("节奏游戏", "rhythm")])
def test_a_pace_word_holding_a_genres_word_does_not_name_that_genre(pitch: str, genre: str) -> None:
    """快节奏 is "fast-paced", and 节奏 ("rhythm") names rhythm games: a fast-paced shooter was built as Rhythm Tiles."""
    spec = _spec(pitch)
    assert spec.genre == genre and not any("also names" in x for x in spec.reading.unhonoured), spec.reading

