"""Pitch fidelity: the spec records how the pitch was read, and a game that is not the pitch is never a PASS.

Table-driven over every genre the embedded studio cannot build, languages it does not read and every
number a pitch can state; each case goes through the Planner (with research, as the reducer routes it)
and the local Verifier on QA evidence in which every probe held — the best a game can do — so what keeps
a verdict from PASS is the reading alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.fidelity import reading_for_agent
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.research import plan_researched
from crumb.actors.embedded.rules import SPEC_RULES
from crumb.actors.embedded.unbuilt import UNBUILT
from crumb.actors.embedded.verifier import judge
from crumb.protocol.game import NUMBER_PATHS, Criterion, Numbers, Spec
from crumb.protocol.spec_markdown import parse_spec_markdown as read_spec_md
from crumb.protocol.spec_markdown import spec_markdown
from crumb.reducer.validator import validate
from crumb.settings import Settings


def parse_spec_markdown(text: str, base: Spec) -> Spec:
    """spec.md read back with the embedded studio's rules, as the daemon reads a person's save."""
    return read_spec_md(text, base, rules=SPEC_RULES)


def plan_fully(pitch: str) -> Spec:
    first, _ = plan_researched(pitch)
    assert first.reading is not None, "the embedded Planner always records its reading"
    return first


def all_held(spec: Spec) -> dict[str, Any]:
    """The projection of a game on which QA found nothing wrong and every probe held."""
    return {
        "goal": {"id": "G", "pitch": spec.pitch},
        "spec": {"id": "S", **spec.model_dump(mode="json")},
        "build": {"id": "B", "manifest": {"dir": "artifacts/game", "entry": "index.html",
                                          "files": [{"path": "index.html", "sha256": "0" * 64, "bytes": 1}]}},
        "qa": {"id": "Q", "ok": True, "exec_ok": True, "static_ok": True, "loaded": True, "hook": True,
               "canvas_nonblank": True, "canvas_animates": True, "input_responds": True, "fps": 60.0,
               "probes": [{"id": c.id, "ok": True} for c in spec.criteria]},
    }


def audited(spec: Spec, judge_data: dict[str, Any], probes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    qa = all_held(spec)["qa"]
    if probes is not None:
        qa = {**qa, "probes": probes, "ok": all(p["ok"] for p in probes)}
    return validate(judge_data, qa=qa, spec=spec.model_dump(mode="json"),
                    build={"manifest": all_held(spec)["build"]["manifest"]}, input_ids=["G", "S", "B", "Q"],
                    judge_provider=None, builder_provider=None, settings=Settings().judge)


def rules_of(result: dict[str, Any]) -> set[str]:
    return {c["rule"] for c in result["corrections"]}


# ---------------------------------------------------------------- genres the embedded studio cannot build


@pytest.mark.parametrize("entry", UNBUILT, ids=[g.id for g in UNBUILT])
def test_a_genre_outside_the_catalogue_is_built_as_the_nearest_and_said_so(entry) -> None:
    spec = plan_fully(f"a {entry.names[0]} game for my friends")
    g = spec.reading.genre
    assert (g.how, g.fits, g.asked) == ("nearest", False, entry.name), g
    assert spec.genre in cat.genre_ids()
    assert entry.name in g.note and "/approve" in g.note
    verdict = judge(all_held(spec))
    assert verdict.verdict == "PARTIAL", verdict.feedback
    assert entry.name in verdict.feedback and "needs a person" in verdict.feedback


@pytest.mark.parametrize(("pitch", "asked"), [
    ("Pinball: flick the flippers to keep the ball off the drain and hit the bumpers", "pinball"),
])
def test_pitches_that_describe_a_missing_genre_by_its_mechanics(pitch: str, asked: str) -> None:
    spec = plan_fully(pitch)
    assert spec.reading.genre.asked == asked and spec.reading.genre.fits is False, spec.reading.genre
    assert judge(all_held(spec)).verdict == "PARTIAL"


@pytest.mark.parametrize("pitch", ["a cozy game about a lonely lighthouse keeper", "🐝🌼", "x"])
def test_a_pitch_no_genre_fits_says_the_genre_is_a_guess(pitch: str) -> None:
    spec = plan_fully(pitch)
    assert spec.reading.genre.fits is False and spec.reading.genre.how == "evidence", spec.reading.genre
    assert "nearest" in spec.reading.genre.note
    assert judge(all_held(spec)).verdict == "PARTIAL"


@pytest.mark.parametrize(("pitch", "genre"), [
    ("a game like Galaga", "shooter"), ("a game like Centipede", "shooter"), ("a game like Subway Surfers", "runner"),
    ("a game like Geometry Dash", "runner"), ("slither.io clone with 3 lives", "snake"),
    # "corsa" alone is a race (not built); "corsa infinita" is an endless run
    ("un gioco di corsa infinita con ostacoli e monete", "runner"),
])
def test_a_famous_game_or_a_genres_own_phrase_names_it(pitch: str, genre: str) -> None:
    """Before, Galaga and Centipede were built as Dodge by a guess, and "corsa infinita" was read as a race."""
    spec = plan_fully(pitch)
    assert spec.genre == genre and spec.reading.genre.fits is True and not spec.reading.shortfalls(), spec.reading
    assert judge(all_held(spec)).verdict == "PASS"


@pytest.mark.parametrize("pitch", ["60-second snake", "breakout with 5 lives", "60-second match-3 with combo bonus",
                                   "falling blocks like tetris", "贪吃蛇游戏，三条命", "Schlangenspiel mit drei Leben"])
def test_a_pitch_the_catalogue_fits_passes_when_every_probe_holds(pitch: str) -> None:
    spec = plan_fully(pitch)
    assert spec.reading.genre.fits is True and spec.reading.language.recognised
    assert not spec.reading.shortfalls()
    assert judge(all_held(spec)).verdict == "PASS"


def test_two_genres_named_builds_one_and_says_the_other_was_not_built() -> None:
    spec = plan_fully("snake meets breakout, 3 lives")
    assert spec.genre == "snake"
    assert any("also names Breakout" in x for x in spec.reading.unhonoured), spec.reading
    assert judge(all_held(spec)).verdict == "PARTIAL"


# Pitches from public READMEs (bench/pitches.jsonl) that a generic word ('블록' block, '피해' avoid, 'disparar'
# shoot) once placed in a genre outright: a Tetris, a Dodge and a Shooter game, each a plain PASS.
@pytest.mark.parametrize(("pitch", "pitched"), [
    ("캐릭터는 캐릭터와 같은 색깔의 블록만 밟을 수 있습니다. 블록을 밟으면 캐릭터는 점프합니다. "
     "캐릭터의 색깔을 바꾸고 좌우로 움직이면서 최대한 높이 올라가세요.", "jumper"),
    ("플레이어가 캐릭터를 조작해 장애물을 피해 점프하며 오른쪽 끝까지 도달하는 것을 목표로 하는 간단한 점프 게임입니다.",
     "runner"),
    ("O objetivo é acertar um objeto em um alvo. O jogador usa um canhão para disparar o objeto, e manipula a "
     "direção e módulo da velocidade inicial do objeto usando o mouse.", "slingshot"),
], ids=["ko-climb-on-blocks", "ko-jump-and-avoid", "pt-cannon-shoots"])
def test_a_generic_word_does_not_name_a_genre_outright(pitch: str, pitched: str) -> None:
    spec = plan_fully(pitch)
    verdict = judge(all_held(spec)).verdict
    # another genre than the one pitched is built only as the nearest: it says so and waits for a person
    assert spec.genre == pitched or (spec.reading.genre.fits is False and verdict == "PARTIAL"), (spec.genre, verdict)


@pytest.mark.parametrize(("pitch", "genre"), [
    ("Pac-Man moves through the maze eating dots and must avoid the ghosts", "maze"),
    ("a snake that grows with every fruit; avoid the walls and your own tail", "snake"),
    ("uncover every square of the minefield while avoiding the mines", "minesweeper"),
    ("stack the blocks as high as you can", "stacker"),
    ("Apunta y dispara para conectar tres o más burbujas del mismo color", "bubbleshooter"),
])
def test_a_game_whose_own_play_avoids_shoots_or_stacks_names_no_second_genre(pitch: str, genre: str) -> None:
    spec = plan_fully(pitch)
    assert spec.genre == genre and spec.reading.genre.fits is True
    assert not any("also names" in x for x in spec.reading.unhonoured), spec.reading.unhonoured
    assert judge(all_held(spec)).verdict == "PASS"


@pytest.mark.parametrize(("pitch", "genre"), [
    ("an endless runner, not a platformer", "runner"), ("a shooter without any dodging", "shooter"),
    ("breakout but not pong", "breakout"), ("kein Tetris, sondern Match-3", "match3"), ("a match-3, not tetris", "match3"),
    # "not" before a verb is a rule of play, not a refusal
    ("fruit ninja with bombs you must not slice", "fruitslice"),
    ("不要俄罗斯方块，要贪吃蛇", "snake"), ("un runner senza piattaforme", "runner"),
    # Portuguese "no" is "in the": not a refusal
    ("Este é um jogo inspirado no Angry Birds: controle o pássaro principal, arraste e solte-o para lançar contra "
     "os inimigos.", "slingshot"),
    # a verb that takes things away is how some genres play: "remove lines" names blocks
    ("remove lines by filling rows of blocks, tetris style", "blocks"),
])
def test_a_genre_the_pitch_refuses_is_not_named_by_it(pitch: str, genre: str) -> None:
    """Before, "a runner, not a platformer" also named Platformer and waited for a person."""
    spec = plan_fully(pitch)
    assert spec.genre == genre and spec.reading.genre.fits is True, spec.reading.genre
    assert not any("also names" in x for x in spec.reading.unhonoured), spec.reading.unhonoured
    assert judge(all_held(spec)).verdict == "PASS"


@pytest.mark.parametrize(("pitch", "word"), [("pac-man without ghosts", "ghosts"),
                                             ("a flappy bird clone without pipes", "pipes")])
def test_a_genres_own_word_the_pitch_refuses_is_named_and_the_verdict_waits(pitch: str, word: str) -> None:
    """The embedded game has its ghosts and pipes: a game without them is another game."""
    spec = plan_fully(pitch)
    assert [x.split(",")[0] for x in spec.reading.shortfalls()] == [f"the pitch leaves out {word!r}"], spec.reading
    assert judge(all_held(spec)).verdict == "PARTIAL"


# ---------------------------------------------------------------- languages


@pytest.mark.parametrize(("pitch", "language"), [
    ("ett ormspel med tre liv och sextio sekunder", "sv"),
    ("et slangespil med tre liv og tres sekunder", "da"),
    ("permainan ular dengan tiga nyawa dan enam puluh detik", "id"),
    ("hra s hadem se třemi životy a šedesáti sekundami", "cs"),
    ("kígyós játék három élettel és hatvan másodperccel", "hu"),
    ("joc cu șarpele cu trei vieți și șaizeci de secunde", "ro"),
])
def test_a_language_the_studio_does_not_read_is_named_and_never_a_plain_pass(pitch: str, language: str) -> None:
    spec = plan_fully(pitch)
    lang = spec.reading.language
    assert (lang.language, lang.recognised, lang.read_as) == (language, False, "en"), lang
    assert "does not read" in lang.how
    verdict = judge(all_held(spec))
    assert verdict.verdict == "PARTIAL" and "does not read" in verdict.feedback


@pytest.mark.parametrize(("pitch", "language"), [
    ("a neon snake game with three lives", "en"), ("slang spel met 3 levens en een timer", "nl"),
    ("Schlangenspiel mit drei Leben", "de"), ("gioco del serpente con tre vite", "it"),
    ("贪吃蛇游戏，三条命", "zh-Hans"), ("뱀 게임 목숨 3개", "ko"), ("ヘビゲーム、ライフ3", "ja"),
    ("juego de la serpiente de 60 segundos", "es"), ("un jeu de serpent de 60 secondes avec trois vies", "fr"),
    ("jogo da cobrinha com três vidas e sessenta segundos", "pt"),
    ("gra w węża z trzema życiami na sześćdziesiąt sekund", "pl"), ("üç canlı ve altmış saniyelik yılan oyunu", "tr"),
    ("Змейка на шестьдесят секунд с тремя жизнями", "ru"), ("Змійка на шістдесят секунд з трьома життями", "uk"),
    ("trò chơi rắn săn mồi với ba mạng và sáu mươi giây", "vi"),
])
def test_the_languages_the_studio_reads_are_recognised(pitch: str, language: str) -> None:
    lang = plan_fully(pitch).reading.language
    assert (lang.language, lang.recognised) == (language, True), lang


# ---------------------------------------------------------------- stated numbers


NUMBER_PITCHES = [
    ("snake with 3 lives", "lives", 3),
    ("a 45 second dodge game", "time_limit_s", 45),
    ("clicker, 500 points to win", "target_score", 500),
    ("platformer with 7 levels", "levels", 7),
    ("match-3 with 25 moves", "moves", 25),
    ("snake on a 12x12 grid", "grid", 12),
]


@pytest.mark.parametrize(("pitch", "field", "value"), NUMBER_PITCHES)
def test_every_stated_number_gets_a_criterion_that_reads_it_in_the_game(pitch: str, field: str, value: int) -> None:
    spec = plan_fully(pitch)
    stated = {n.field: n for n in spec.reading.numbers}
    assert stated[field].value == value and stated[field].honoured, spec.reading
    criterion = next(c for c in spec.criteria if c.id == stated[field].criterion)
    paths = {NUMBER_PATHS[field], "phase"} if field == "time_limit_s" else {NUMBER_PATHS[field]}
    assert any(x.path in paths for x in criterion.probe.expect), criterion


@pytest.mark.parametrize(("pitch", "field"), [("clicker with 3 lives", "lives"), ("dodge with 5 levels", "levels"),
                                              ("match-3 on a 20x20 grid", "grid"), ("snake with 30 moves", "moves")])
def test_a_number_the_game_cannot_carry_is_not_built_and_said_so(pitch: str, field: str) -> None:
    spec = plan_fully(pitch)
    stated = {n.field: n for n in spec.reading.numbers}
    assert stated[field].honoured is False and "is not built" in stated[field].note, stated
    assert not any(c.id == stated[field].criterion for c in spec.criteria if stated[field].criterion)
    verdict = judge(all_held(spec))
    assert verdict.verdict == "PARTIAL" and "is not built" in verdict.feedback


def test_out_of_range_and_contradicting_numbers_are_reported() -> None:
    spec = plan_fully("snake with 500 lives")
    assert any("500" in x for x in spec.reading.unhonoured), spec.reading
    assert judge(all_held(spec)).verdict == "PARTIAL"


@pytest.mark.parametrize("pitch", ["snake with 3 lives, no lives", "snake with 3 lives and 5 lives"])
def test_numbers_that_contradict_each_other_are_named_not_silently_resolved(pitch: str) -> None:
    spec = plan_fully(pitch)
    assert spec.numbers.lives == 3
    assert any("kept the first" in x for x in spec.reading.unhonoured), spec.reading
    assert judge(all_held(spec)).verdict == "PARTIAL"


def test_a_pitch_of_one_word_says_what_was_guessed() -> None:
    spec = plan_fully("snake")
    assert spec.reading.genre.fits is True
    assert any("no numbers" in g for g in spec.reading.guesses)
    assert any("language" in g for g in spec.reading.guesses)


def test_a_number_changed_by_steering_is_the_persons_choice_not_a_shortfall() -> None:
    spec = plan("snake with 3 lives", steering=["5 lives"])
    assert isinstance(spec, Spec) and spec.numbers.lives == 5
    lives = next(n for n in spec.reading.numbers if n.field == "lives")
    assert lives.honoured and "a person changed" in lives.note and lives.criterion == "lives"


# ---------------------------------------------------------------- spec.md and agents' specs


def test_spec_md_shows_the_reading_and_a_persons_edit_keeps_it_true() -> None:
    spec = plan_fully("Pinball: flick the flippers to hit the bumpers, 3 lives")
    md = spec_markdown(spec)
    assert "## How the pitch was read" in md and "NOT what the pitch asks for" in md and "pinball" in md
    edited = parse_spec_markdown(md.replace("- genre: breakout", "- genre: snake", 1), spec)
    assert edited.genre == "snake" and edited.reading.genre.how == "person" and edited.reading.genre.fits is True
    assert parse_spec_markdown(md, spec) == spec


def test_an_agents_spec_is_read_by_crumb_and_a_dropped_number_is_seen() -> None:
    agent = Spec(title="Snek", genre="snake", numbers=Numbers(time_limit_s=60), criteria=[
        Criterion.model_validate({"id": "genre", "text": "snake", "probe": {"expect": [{"path": "genre", "op": "==", "value": "snake"}]}})])
    reading = reading_for_agent(agent, "60-second snake with 3 lives")
    stated = {n.field: n for n in reading.numbers}
    assert reading.by == "crumb" and reading.genre.fits is None
    assert stated["lives"].honoured is False and "the spec does not set lives" in stated["lives"].note
    assert stated["time_limit_s"].honoured and stated["time_limit_s"].criterion is None
    spec = agent.model_copy(update={"reading": reading})
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PARTIAL" and "numbers_checked" in rules_of(result), result
    assert "60-second" in result["feedback"] and "does not set lives" in result["feedback"]


# ---------------------------------------------------------------- the validator holds any Verifier to it


def test_an_agent_pass_whose_number_probe_failed_becomes_fail() -> None:
    spec = plan_fully("snake with 3 lives")
    probes = [{"id": c.id, "ok": c.id != "lives"} for c in spec.criteria]
    result = audited(spec, {"verdict": "PASS", "total": 5.0}, probes)
    assert result["verdict"] == "FAIL" and result["severity"] == "Important"
    assert "fidelity_probes" in rules_of(result) and "lives" in result["feedback"]


def test_an_agent_pass_of_the_wrong_genre_becomes_fail() -> None:
    spec = plan_fully("breakout with 3 lives")
    probes = [{"id": c.id, "ok": c.id != "genre", "observed": {"genre": "pong"}} for c in spec.criteria]
    assert audited(spec, {"verdict": "PASS", "total": 5.0}, probes)["verdict"] == "FAIL"


def test_an_agent_pass_on_a_nearest_genre_becomes_partial_with_the_reason() -> None:
    spec = plan_fully("a pinball game")
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PARTIAL" and "pitch_fidelity" in rules_of(result)
    assert "pinball" in result["feedback"]


def test_an_agent_pass_on_an_unchecked_number_becomes_partial() -> None:
    spec = plan_fully("snake with 3 lives")
    probes = [{"id": c.id, "ok": True} for c in spec.criteria if c.id != "lives"]
    result = audited(spec, {"verdict": "PASS", "total": 5.0}, probes)
    assert result["verdict"] == "PARTIAL" and "numbers_checked" in rules_of(result)


def test_a_faithful_game_keeps_its_pass() -> None:
    spec = plan_fully("snake with 3 lives")
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PASS", result
