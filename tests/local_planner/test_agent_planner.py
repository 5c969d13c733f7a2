"""CRUMB reads the pitch beside an agent Planner's spec: its extras and things to see, not only its numbers.

An agent's spec was read for stated numbers only, so "match-3 with combo bonus" planned and built by agents
passed with nothing measuring the combo. Now an extra the pitch asks for counts as measured only when a
criterion reads a state field named for it in a way a game without it fails; a thing to see, or an extra
left out, no criterion measures in an agent's game. Either way the verdict waits for a person.
"""

from __future__ import annotations

from typing import Any

import pytest

from crumb.actors.embedded.fidelity import reading_for_agent, shows_extra
from crumb.protocol.game import Criterion, Numbers, Spec
from tests.local_planner.test_fidelity import audited, rules_of

PITCH = "60-second match-3 with combo bonus"
TIMER = {"id": "timer", "text": "The round ends after 60 s", "path": "timeLeft", "op": "==", "value": 60}


def criterion(id: str = "feature", path: str = "combo", op: str = "increased", value: Any = None) -> Criterion:
    return Criterion.model_validate({"id": id, "text": f"{path} {op}", "probe": {
        "steps": [{"do": "start"}, {"do": "play", "ms": 5000}], "expect": [{"path": path, "op": op, "value": value}]}})


def agents_spec(*criteria: Criterion, genre: str = "match3", pitch: str = PITCH, builder: str = "claude",
                extras: tuple[str, ...] = ()) -> Spec:
    timer = criterion(TIMER["id"], TIMER["path"], TIMER["op"], TIMER["value"])
    spec = Spec(title="Gems", genre=genre, numbers=Numbers(time_limit_s=60), extras=list(extras), criteria=[timer, *criteria])
    return spec.model_copy(update={"reading": reading_for_agent(spec, pitch, builder)})


def test_an_asked_extra_no_criterion_measures_keeps_an_agents_pass_waiting() -> None:
    spec = agents_spec()
    assert spec.reading is not None
    assert spec.reading.unhonoured == [
        "the extra 'combo bonus' is asked for, which no acceptance criterion checks in the game the claude Builder "
        "makes: look at the game, then approve or veto it"]
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PARTIAL" and "pitch_fidelity" in rules_of(result), result
    assert "'combo bonus'" in result["feedback"]


@pytest.mark.parametrize(("path", "op", "value"), [
    ("combo", "increased", None), ("comboCount", ">", 1), ("stats.combo_best", ">=", 2), ("comboBonus", "==", True),
    ("combo-chain", "changed", None)])
def test_a_criterion_on_a_state_field_named_for_the_extra_measures_it(path: str, op: str, value: Any) -> None:
    spec = agents_spec(criterion(path=path, op=op, value=value))
    assert spec.reading is not None and spec.reading.unhonoured == []
    assert audited(spec, {"verdict": "PASS", "total": 5.0})["verdict"] == "PASS"


@pytest.mark.parametrize(("c", "why"), [
    (criterion(path="combo", op=">=", value=0), "any game holds it"),
    (criterion(path="combo", op="unchanged"), "any game without a combo holds it"),
    (criterion(path="comboBonus", op="==", value=False), "it expects no combo"),
    (criterion(id="combo", path="score", op="increased"), "an id names it, the probe reads the score"),
    (criterion(path="cascade", op="increased"), "another field"),
])
def test_a_criterion_any_game_holds_or_that_only_names_the_extra_measures_nothing(c: Criterion, why: str) -> None:
    assert not shows_extra("combo bonus", [c]), why
    assert any("'combo bonus'" in line for line in agents_spec(c).reading.unhonoured), why  # type: ignore[union-attr]


def test_other_extras_are_read_by_their_words_in_a_path() -> None:
    assert shows_extra("power-ups", [criterion(path="powerUpsCollected")])
    assert shows_extra("high score", [criterion(path="highScore", op=">", value=0)])
    assert not shows_extra("high score", [criterion(path="highScore", op=">=", value=0)])
    assert shows_extra("boss", [criterion(path="bossHealth", op=">", value=0)])
    assert not shows_extra("bombs", [criterion(path="bombermanLives")]), "a word holding bomb is not bombs"
    assert not shows_extra("not an extra", [criterion(path="not an extra")])


def test_no_time_limit_is_measured_only_by_a_round_without_a_clock() -> None:
    untimed = "untimed snake"
    unmeasured = agents_spec(genre="snake", pitch=untimed).reading
    assert unmeasured is not None and any("'no time limit'" in line for line in unmeasured.unhonoured), unmeasured
    for value, op in (([None], "in"), (None, "==")):
        measured = agents_spec(criterion(path="timeLeft", op=op, value=value), genre="snake", pitch=untimed).reading
        assert measured is not None and not any("'no time limit'" in line for line in measured.unhonoured), measured


def test_things_to_see_and_extras_left_out_wait_for_a_person_in_any_genre_an_agent_names() -> None:
    reading = agents_spec(criterion(path="powerUps", op="==", value=0), genre="gem-swap",
                          pitch="match-3 with cats and no power-ups").reading
    assert reading is not None
    assert reading.genre.how == "planner" and reading.genre.genre == "gem-swap"
    assert [line.split(",")[0] for line in reading.unhonoured] == [
        "the extra 'power-ups' is left out", "the pitch asks for 'cats'"], reading.unhonoured


def test_for_the_embedded_builder_an_agents_plan_is_weighed_against_the_embedded_game() -> None:
    has_combo = agents_spec(builder="local").reading
    assert has_combo is not None and has_combo.unhonoured == [], "the embedded match-3 game has a combo bonus"
    boss = agents_spec(genre="snake", pitch="snake with a boss", builder="local").reading
    assert boss is not None and any("the embedded Snake game has no boss" in line for line in boss.unhonoured), boss
    frog = agents_spec(genre="hopper", pitch="frogger", builder="local").reading
    assert frog is not None and frog.unhonoured == [
        "the pitch asks to see frogs, and the spec's extras do not carry frogs: the embedded Road Hopper game "
        "draws frogs only when they do"], frog.unhonoured
    carried = agents_spec(genre="hopper", pitch="frogger", builder="local", extras=("frogs",)).reading
    assert carried is not None and carried.unhonoured == []


def test_a_pace_asked_of_one_thing_is_read_beside_an_agents_spec() -> None:
    pitch = "a tiny snake where the snake grows twice as fast"
    agents = agents_spec(genre="snake", pitch=pitch).reading
    assert agents is not None and [x.split(", which")[0] for x in agents.unhonoured] == [
        "the pace the pitch asks for, 'grows twice as fast'"], agents.unhonoured
    embedded = agents_spec(genre="snake", pitch=pitch, builder="local").reading
    assert embedded is not None and [x.split(":")[0] for x in embedded.unhonoured] == ["grows twice as fast"]


def test_a_theme_and_colours_asked_for_wait_for_a_person_in_an_agents_game_only() -> None:
    pitch = "space-themed snake in red and gold"
    agents = agents_spec(genre="snake", pitch=pitch).reading
    assert agents is not None and [x.split(", which")[0] for x in agents.unhonoured] == [
        "the pitch asks for the Space theme ('space')", "the pitch asks for 'red' and 'gold'"], agents.unhonoured
    embedded = agents_spec(genre="snake", pitch=pitch, builder="local").reading
    assert embedded is not None and embedded.unhonoured == [], "the embedded games paint the spec's palette"
