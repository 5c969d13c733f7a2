"""A number a pitch states that no field of the spec carries ("12 pairs", "40 mines", "every 10 seconds") is
named, never dropped: the verdict waits for a person with it, whoever planned and whoever judged.

The reader's table (what counts as such a number, in several languages, and what is how rules are told
rather than a setting), then the Planner, steering, an agent's spec and the Verifier with the validator.
"""

from __future__ import annotations

import pytest

from crumb.actors.embedded.fidelity import reading_for_agent
from crumb.actors.embedded.numbers import read_numbers
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.verifier import judge
from crumb.protocol.game import Criterion, Spec
from tests.local_planner.test_fidelity import all_held, audited, plan_fully, rules_of


def unread(text: str) -> list[str]:
    return [u.said for u in read_numbers(text).unread]


@pytest.mark.parametrize(("text", "said"), [
    ("memory game with 12 pairs of cards", ["12 pairs of cards"]),
    ("minesweeper 16x16 with 40 mines", ["40 mines"]),
    ("breakout with 3 balls at once", ["3 balls"]),
    ("tower defense, start with 100 gold", ["100 gold"]),
    ("snake, 10 points per apple", ["10 points per apple"]),
    ("every 10 seconds a new enemy", ["every 10 seconds"]),
    ("a 50% chance of a bonus", ["50% chance"]),
    ("Minesweeper mit 40 Minen", ["40 Minen"]),
    ("шутер, 5 боссов", ["5 боссов"]),
    ("迷宮中共有42顆豆子", ["42顆豆子"]),
    ("8色で彩られたスネーク", ["8色"]),
    ("memory with twelve pairs", ["twelve pairs"]),
])
def test_a_number_no_field_takes_is_kept_with_its_words(text: str, said: list[str]) -> None:
    assert unread(text) == said


@pytest.mark.parametrize("text", [
    "match three or more gems", "pop 3 or more bubbles", "同じ色のバブルを3つ以上くっつけると", "at least 4 in a row",
    "a 2d platformer", "the 3rd level is harder", "an 80s arcade snake", "flip two cards", "a snake, one apple at a time",
    "cards show a digit from 1 to 8", "floating +1 on every click",
    "snake with 3 lives and 60 seconds", "pong, first to 11", "minesweeper 16x16",
])
def test_how_rules_are_told_and_numbers_a_field_takes_are_not_unread(text: str) -> None:
    assert unread(text) == []


@pytest.mark.parametrize(("pitch", "field", "value"), [
    ("tower defense with 10 waves", "levels", 10),
    ("space invaders: survive 5 waves", "levels", 5),
    ("塔防游戏，10波敌人", "levels", 10),
    ("bubble shooter with 30 shots", "moves", 30),
    ("un juego de lanza burbujas con 30 disparos", "moves", 30),
    ("gioco della fionda con 5 lanci", "moves", 5),
])
def test_waves_are_levels_and_shots_are_moves_where_a_game_counts_them(pitch: str, field: str, value: int) -> None:
    spec = plan_fully(pitch)
    assert getattr(spec.numbers, field) == value
    assert not spec.reading.shortfalls(), spec.reading
    assert judge(all_held(spec)).verdict == "PASS"


@pytest.mark.parametrize(("pitch", "said", "game"), [
    ("snake with 12 apples at once", "12 apples", "Snake"),
    ("minesweeper 10x10 with 40 mines", "40 mines", "Minesweeper"),
    ("snake where every 10 seconds a wall appears", "every 10 seconds", "Snake"),
    ("Schlangenspiel mit 5 Äpfeln gleichzeitig", "5 äpfeln", "Snake"),
])
def test_the_embedded_planner_names_it_and_the_verdict_waits_for_a_person(pitch: str, said: str, game: str) -> None:
    spec = plan_fully(pitch)
    named = f"the pitch states {said!r}, which no number of the {game} game carries"
    assert named in spec.reading.unhonoured, spec.reading
    verdict = judge(all_held(spec))
    assert verdict.verdict == "PARTIAL" and said in verdict.scores["goal_fit"].note
    result = audited(spec, {"verdict": "PASS", "total": 5.0})  # any Verifier's PASS is held to it too
    assert result["verdict"] == "PARTIAL" and "pitch_fidelity" in rules_of(result) and said in result["feedback"]


@pytest.mark.parametrize("pitch", ["match-3: line up 3 gems of a colour", "simon with 4 coloured pads",
                                   "tetris: a well 10 wide and 20 deep", "pac-man with 4 ghosts",
                                   "combine tiles to reach 2048"])
def test_a_number_the_genres_own_rules_say_asks_for_nothing(pitch: str) -> None:
    spec = plan_fully(pitch)
    assert not spec.reading.shortfalls(), spec.reading
    assert judge(all_held(spec)).verdict == "PASS"


def test_the_same_number_in_another_genre_is_named() -> None:
    spec = plan_fully("snake with 4 ghosts")
    assert "the pitch states '4 ghosts', which no number of the Snake game carries" in spec.reading.unhonoured


@pytest.mark.parametrize(("pitch", "grid"), [
    ("memory game with 12 pairs of cards", 5), ("memory cards with 8 pairs", 4), ("memory with 16 cards", 4),
    ("Memory mit 18 Paaren", 6), ("記憶翻牌，全部 8 對卡片", 4), ("мемори на 32 пары", 8),
])
def test_a_count_in_the_genres_own_nouns_is_played_by_the_number_that_deals_it(pitch: str, grid: int) -> None:
    spec = plan_fully(pitch)  # an n × n memory board deals n²/2 pairs
    assert spec.genre == "memory" and spec.numbers.grid == grid
    stated = {n.field: n for n in spec.reading.numbers}
    assert stated["grid"].honoured and stated["grid"].criterion == "grid", spec.reading
    assert not spec.reading.shortfalls() and judge(all_held(spec)).verdict == "PASS"


def test_a_count_the_game_cannot_deal_or_that_contradicts_the_grid_is_named() -> None:
    spec = plan_fully("memory with 10 pairs")
    assert spec.numbers.grid is None
    assert spec.reading.unhonoured == [
        "the pitch states '10 pairs': the Memory game deals 2, 4, 8, 12, 18, 24 or 32, not 10"]
    spec = plan_fully("4x4 memory with 12 pairs")
    assert spec.numbers.grid == 4
    assert any("'12 pairs' (grid 5) for grid: kept the first, '4x4'" in x for x in spec.reading.unhonoured)
    assert judge(all_held(spec)).verdict == "PARTIAL"


def test_steering_says_what_it_did_not_carry_and_plays_a_count_it_can() -> None:
    spec = plan_fully("minesweeper")
    steered, notes = apply_steering(spec, ["make it 40 mines"])
    assert "Not carried: the message states '40 mines', which no number of the Minesweeper game carries" in notes
    assert steered.numbers == spec.numbers
    spec = plan_fully("memory game")
    steered, notes = apply_steering(spec, ["make it 18 pairs"])
    assert steered.numbers.grid == 6 and "grid: unset → 6 ('18 pairs')" in notes


def _agent_spec(expect_value: int | None) -> Spec:
    criteria = [Criterion.model_validate({"id": "genre", "text": "memory",
                                          "probe": {"expect": [{"path": "genre", "op": "==", "value": "memory"}]}})]
    if expect_value is not None:
        criteria.append(Criterion.model_validate({"id": "pairs", "text": "12 pairs",
                                                  "probe": {"expect": [{"path": "pairs", "op": "==", "value": expect_value}]}}))
    return Spec(title="Pairs", genre="memory", criteria=criteria)  # an agent's memory game: its own numbers


def test_an_agents_spec_whose_criteria_check_the_number_keeps_its_pass() -> None:
    agent = _agent_spec(12)
    spec = agent.model_copy(update={"reading": reading_for_agent(agent, "memory game with 12 pairs of cards")})
    assert not spec.reading.unhonoured
    assert audited(spec, {"verdict": "PASS", "total": 5.0})["verdict"] == "PASS"


def test_an_agents_spec_that_does_not_check_the_number_is_not_a_pass() -> None:
    agent = _agent_spec(None)
    spec = agent.model_copy(update={"reading": reading_for_agent(agent, "memory game with 12 pairs of cards")})
    assert spec.reading.unhonoured == [
        "the pitch states '12 pairs of cards', and no acceptance criterion checks 12: QA does not measure it"]
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PARTIAL" and "12 pairs of cards" in result["feedback"]


def test_the_noun_a_number_counts_is_not_a_second_genre() -> None:
    spec = plan_fully("slingshot: knock over all 18 blocks in 60 seconds")
    assert spec.genre == "slingshot"
    assert spec.reading.unhonoured == ["the pitch states '18 blocks', which no number of the Slingshot game carries"]
    assert "No field takes '18 blocks'" in spec.rationale


def test_a_rule_number_is_not_listed_as_unread_in_the_rationale() -> None:
    spec = plan_fully("match-3 with gems, 20 moves")
    assert "No field takes" not in spec.rationale and "Numbers read: moves 20" in spec.rationale
