"""Steering messages amend the spec, regenerate its criteria, and say what they changed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crumb.actors.embedded.pitch import knob
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.steering import apply_steering
from crumb.protocol.game import Spec


@pytest.fixture()
def spec() -> Spec:
    out = plan("a neon snake game with three lives and a 60 second time limit")
    assert isinstance(out, Spec)
    return out


def _probe_value(spec: Spec, cid: str) -> object:
    return next(c for c in spec.criteria if c.id == cid).probe.expect[0].value


@pytest.mark.parametrize("message", ["make it red", "maak het rood", "mach es rot", "rendilo rosso", "变成红色",
                                     "改成紅色", "빨간색으로", "赤にして"])
def test_make_it_red(spec: Spec, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.theme.palette[1] == "#e63946"
    assert out.theme.palette[0] == spec.theme.palette[0]  # background kept
    assert any("colour" in n for n in notes)


@pytest.mark.parametrize("message", ["no more neon", "without the neon please", "kein Neon mehr"])
def test_a_theme_refused_is_the_games_own_look_again(spec: Spec, message: str) -> None:
    assert spec.theme.name == "neon"
    out, notes = apply_steering(spec, [message])
    assert out.theme.name == "default" and out.theme.palette == plan("a snake game").theme.palette, notes
    assert notes == ["theme: neon → default ('neon' refused)"], notes
    kept, _ = apply_steering(spec, ["no more pastel"])  # not its theme: nothing to take back
    assert kept.theme == spec.theme


@pytest.mark.parametrize(("message", "factor"), [("faster", 1.25), ("sneller", 1.25), ("schneller bitte", 1.25),
                                                 ("più veloce", 1.25), ("快一点", 1.25), ("더 빠르게", 1.25),
                                                 ("もっと速く", 1.25), ("slower", 0.8), ("langzamer", 0.8),
                                                 ("langsamer", 0.8), ("più lento", 0.8), ("慢一點", 0.8),
                                                 ("느리게 해줘", 0.8), ("ゆっくりにして", 0.8)])
def test_speed_knob(spec: Spec, message: str, factor: float) -> None:
    out, notes = apply_steering(spec, [message])
    assert knob(out.extras, "speed") == pytest.approx(factor)
    assert any(n.startswith("speed") for n in notes)


def test_speed_steps_compound_and_clamp(spec: Spec) -> None:
    out, _ = apply_steering(spec, ["faster", "faster"])
    assert knob(out.extras, "speed") == pytest.approx(1.5625)
    out, _ = apply_steering(spec, ["faster"] * 20)
    assert knob(out.extras, "speed") == 4
    back, _ = apply_steering(out, ["slower"] * 40)
    assert knob(back.extras, "speed") == 0.25


@pytest.mark.parametrize("message", ["30 seconds", "30 seconden", "30 Sekunden", "trenta secondi", "30秒",
                                     "三十秒", "30초", "time limit 30"])
def test_time_limit_and_its_probes_follow(spec: Spec, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.numbers.time_limit_s == 30
    timer = next(c for c in out.criteria if c.id == "timer")
    assert timer.probe.steps[1].ms == 32_000
    assert "30" in out.lose or "30" in out.win
    assert any("time_limit_s: 60 → 30" in n for n in notes)


@pytest.mark.parametrize("message", ["five lives", "vijf levens", "fünf Leben", "cinque vite", "五条命", "五條命",
                                     "목숨 다섯 개", "ライフ5つ", "lives: 5"])
def test_lives(spec: Spec, message: str) -> None:
    out, _ = apply_steering(spec, [message])
    assert out.numbers.lives == 5
    assert _probe_value(out, "lives") == 5


@pytest.mark.parametrize("message", ["target 500", "doel 500 punten", "Ziel 500", "obiettivo 500", "目标500分",
                                     "목표 500점", "目標500点"])
def test_target(spec: Spec, message: str) -> None:
    out, _ = apply_steering(spec, [message])
    assert out.numbers.target_score == 500
    assert _probe_value(out, "target") == 500
    assert "500" in out.win


@pytest.mark.parametrize("message", ["bigger text", "make the text bigger", "grotere tekst", "größere Schrift",
                                     "testo più grande", "字大一点", "글자 크게", "文字を大きくして"])
def test_bigger_text(spec: Spec, message: str) -> None:
    out, _ = apply_steering(spec, [message])
    assert knob(out.extras, "text_scale") == pytest.approx(1.3)


def test_unrecognised_text_changes_nothing_and_says_so(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["the vibes are off"])
    assert out == spec
    assert len(notes) == 1 and notes[0].startswith("Not understood") and "vibes" in notes[0]


def test_no_time_limit_removes_the_timer_probe(spec: Spec) -> None:
    out, _ = apply_steering(spec, ["no time limit please"])
    assert out.numbers.time_limit_s is None
    assert "timer" not in {c.id for c in out.criteria}


def test_genre_wish_re_aims_the_spec(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["make it a breakout game instead"])
    assert out.genre == "breakout" and _probe_value(out, "genre") == "breakout"
    assert out.numbers == spec.numbers and out.title == "Neon Breakout"
    assert " " in out.controls.keys  # breakout's launch key
    assert notes == ["genre: snake → breakout ('make it a breakout game instead')"]


def test_several_changes_in_one_message(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["make it red and faster, with 45 seconds"])
    assert out.theme.palette[1] == "#e63946" and knob(out.extras, "speed") == 1.25 and out.numbers.time_limit_s == 45
    assert len(notes) == 3


def test_steering_is_deterministic(spec: Spec) -> None:
    msgs = ["faster", "make it red", "drei Leben", "???"]
    assert apply_steering(spec, msgs) == apply_steering(spec, msgs)


def test_a_word_that_only_suggests_a_genre_does_not_switch_it(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["avoid the walls better"])
    assert out.genre == "snake"


@pytest.mark.parametrize(("message", "genre"), [("tetris!", "blocks"), ("pong please", "pong"), ("2048", "slide2048"),
                                                ("改成打砖块", "breakout"), ("テトリスにして", "blocks")])
def test_naming_a_genre_switches_to_it(spec: Spec, message: str, genre: str) -> None:
    out, _ = apply_steering(spec, [message])
    assert out.genre == genre


def test_a_stated_speed_is_steered_itself() -> None:
    spec = plan("stack the tower, speed 4")
    assert isinstance(spec, Spec) and spec.numbers.speed == 4
    out, notes = apply_steering(spec, ["faster"])
    assert out.numbers.speed == 5 and knob(out.extras, "speed") == 1.0 and notes == ["speed: 4 → 5 (faster)"]


def test_a_speed_factor_is_set_not_compounded(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["2x faster"])
    assert knob(out.extras, "speed") == 2 and len(notes) == 1

_BASE = plan("a neon snake game with three lives and a 60 second time limit")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=80), max_size=4))
def test_any_steering_text_leaves_a_valid_spec(messages: list[str]) -> None:
    assert isinstance(_BASE, Spec)
    out, notes = apply_steering(_BASE, messages)
    Spec.model_validate_json(out.model_dump_json())
    assert 3 <= len(out.criteria) <= 7
    assert len(notes) >= sum(1 for m in messages if m.strip())
