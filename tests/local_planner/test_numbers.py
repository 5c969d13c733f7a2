"""Numbers read in every language the studio reads: spelled out, compound, inflected, per level.

Table-driven: each row is what a pitch in that language says and the Numbers fields it must set (and
nothing else). The language is given, as the Planner passes the one it detected.
"""

from __future__ import annotations

import pytest

from crumb.actors.embedded.numbers import numbers_in, read_numbers
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.text import normalize
from crumb.protocol.game import Spec

# (language, text, every field it sets)
CASES: list[tuple[str, str, dict[str, float]]] = [
    # English
    ("en", "seven fast levels and three extra lives", {"levels": 7, "lives": 3}),
    ("en", "twenty-five seconds, a target of two hundred and fifty points", {"time_limit_s": 25, "target_score": 250}),
    ("en", "thirteen seconds per level, nine levels", {"level_time_s": 13, "levels": 9}),
    ("en", "30 seconds per life and 4 hearts", {"level_time_s": 30, "lives": 4}),
    ("en", "each level has 20 seconds, there are 5 stages", {"level_time_s": 20, "levels": 5}),
    ("en", "a one minute round with 13-second levels", {"time_limit_s": 60, "level_time_s": 13}),
    ("en", "you can play on three lives", {"lives": 3}),
    ("en", "a 90-second game of 5 levels, each one 15 seconds", {"time_limit_s": 90, "levels": 5, "level_time_s": 15}),
    ("en", "12 seconds on each level", {"level_time_s": 12}),
    ("en", "you have 13 seconds to catch each one", {"time_limit_s": 13}),  # no levels named: the game's clock
    # Dutch
    ("nl", "vijfentwintig seconden en drie levens", {"time_limit_s": 25, "lives": 3}),
    ("nl", "zeven snelle levels, 13 seconden per level", {"levels": 7, "level_time_s": 13}),
    # German
    ("de", "fünfundzwanzig Sekunden und drei Leben", {"time_limit_s": 25, "lives": 3}),
    ("de", "sieben schnelle Level mit je 13 Sekunden", {"levels": 7, "level_time_s": 13}),
    ("de", "30 Sekunden pro Leben, zwei Minuten insgesamt", {"level_time_s": 30, "time_limit_s": 120}),
    # Italian
    ("it", "venticinque secondi e tre vite", {"time_limit_s": 25, "lives": 3}),
    ("it", "sette livelli veloci, 13 secondi per livello", {"levels": 7, "level_time_s": 13}),
    # Spanish
    ("es", "veinticinco segundos y tres vidas", {"time_limit_s": 25, "lives": 3}),
    ("es", "treinta y cinco segundos, cien puntos, siete niveles", {"time_limit_s": 35, "target_score": 100, "levels": 7}),
    ("es", "13 segundos por nivel y una vida", {"level_time_s": 13, "lives": 1}),
    ("es", "once movimientos", {"moves": 11}),
    ("es", "diez segundos en cada nivel", {"level_time_s": 10}),
    # French
    ("fr", "quatre-vingt-dix secondes et trois vies", {"time_limit_s": 90, "lives": 3}),
    ("fr", "vingt et un niveaux, soixante-dix points", {"levels": 21, "target_score": 70}),
    ("fr", "deux cents points en une minute", {"target_score": 200, "time_limit_s": 60}),
    ("fr", "20 secondes par niveau, cinq cœurs", {"level_time_s": 20, "lives": 5}),
    # Portuguese
    ("pt", "vinte e cinco segundos, duas vidas, dez níveis", {"time_limit_s": 25, "lives": 2, "levels": 10}),
    ("pt", "quinze segundos por fase, um coração", {"level_time_s": 15, "lives": 1}),
    # Russian
    ("ru", "двадцать пять секунд и три жизни", {"time_limit_s": 25, "lives": 3}),
    ("ru", "игра с тремя жизнями и десятью уровнями", {"lives": 3, "levels": 10}),
    ("ru", "пять жизней, сто очков, 13 секунд на уровень", {"lives": 5, "target_score": 100, "level_time_s": 13}),
    ("ru", "семь уровней по 20 секунд", {"levels": 7, "level_time_s": 20}),
    # Ukrainian
    ("uk", "двадцять п’ять секунд і три життя", {"time_limit_s": 25, "lives": 3}),
    ("uk", "п'ять рівнів, дві хвилини", {"levels": 5, "time_limit_s": 120}),
    # Polish
    ("pl", "dwadzieścia pięć sekund i trzy życia", {"time_limit_s": 25, "lives": 3}),
    ("pl", "pięć żyć, sto punktów, siedem poziomów", {"lives": 5, "target_score": 100, "levels": 7}),
    ("pl", "gra z trzema życiami i 30 sekund na poziom", {"lives": 3, "level_time_s": 30}),
    # Turkish
    ("tr", "yirmi beş saniye ve üç can", {"time_limit_s": 25, "lives": 3}),
    ("tr", "on üç seviye, iki dakika", {"levels": 13, "time_limit_s": 120}),
    ("tr", "seviye başına 13 saniye, yedi seviye", {"level_time_s": 13, "levels": 7}),
    # Vietnamese
    ("vi", "hai mươi lăm giây và ba mạng", {"time_limit_s": 25, "lives": 3}),
    ("vi", "mười ba màn, một trăm điểm", {"levels": 13, "target_score": 100}),
    ("vi", "mỗi màn 20 giây, năm mạng", {"level_time_s": 20, "lives": 5}),
    # Chinese, Korean, Japanese
    ("zh-Hans", "每关13秒，七关，三条命", {"level_time_s": 13, "levels": 7, "lives": 3}),
    ("zh-Hant", "二十五秒，五條命", {"time_limit_s": 25, "lives": 5}),
    ("ko", "레벨마다 13초, 목숨 세 개", {"level_time_s": 13, "lives": 3}),
    ("ko", "스물다섯 초", {"time_limit_s": 25}),
    ("ja", "ステージごとに30秒、ライフ3つ", {"level_time_s": 30, "lives": 3}),
    ("ja", "七ステージ、六十秒", {"levels": 7, "time_limit_s": 60}),
    # phrasings of the evaluation set: a counter and words before the unit, a Latin word in CJK text, "starts with"
    ("zh-Hans", "关卡系统：8个难度递增的关卡。", {"levels": 8}),
    ("zh-Hant", "迷宮中共有42顆豆子。起始Life為3，如扣至0則失敗。", {"lives": 3}),
    ("en", "Player lives [ starts with 3 ]; Pacman loses a life when touched by a ghost", {"lives": 3}),
    ("en", "lives start at 5, the score starts at 0", {"lives": 5}),
]

#: words that are numbers in one language and ordinary words in another
NOT_NUMBERS: list[tuple[str, str]] = [
    ("en", "tap on levels to unlock them"), ("en", "you can lose lives"), ("en", "once lives run out it is over"),
    ("de", "ich bin Level-Designer"), ("it", "sto livelli"), ("en", "lose a life every 10 seconds"),
    ("en", "snake, 10 points per apple"), ("es", "5 puntos por manzana"), ("en", "the game starts with 3 enemies"),
    ("zh-Hans", "有5个可爱的小猫的游戏"),
]


@pytest.mark.parametrize(("language", "text", "numbers"), CASES, ids=[f"{c[0]}:{c[1][:30]}" for c in CASES])
def test_numbers_are_read(language: str, text: str, numbers: dict[str, float]) -> None:
    read = read_numbers(normalize(text), language)
    got = {k: v for k, v in read.numbers.model_dump().items() if v is not None}
    assert got == numbers, (read.said, read.ignored)


def test_every_language_has_cases() -> None:
    assert {c[0] for c in CASES} == {"en", "nl", "de", "it", "es", "fr", "pt", "ru", "pl", "tr", "uk", "vi",
                                     "zh-Hans", "zh-Hant", "ko", "ja"}


@pytest.mark.parametrize(("language", "text"), NOT_NUMBERS)
def test_a_word_that_is_a_number_only_elsewhere_is_not_read(language: str, text: str) -> None:
    read = read_numbers(normalize(text), language)
    assert read.numbers.lives is None and read.numbers.levels is None and read.numbers.target_score is None, read.said
    assert read.numbers.time_limit_s is None and read.numbers.level_time_s is None, read.said


@pytest.mark.parametrize(("text", "values"), [
    ("one two three", [1, 2, 3]), ("vingt et un", [21]), ("quatre-vingt-onze", [91]), ("hai mươi mốt", [21]),
    ("dwa tysiące", [2000]), ("tres mil quinientos", [3500]), ("сто двадцать", [120]), ("yüz yirmi", [120]),
])
def test_compounds_are_one_number(text: str, values: list[int]) -> None:
    lang = {"vingt": "fr", "quatre": "fr", "hai": "vi", "dwa": "pl", "tres": "es", "сто": "ru", "yüz": "tr"}.get(text.split()[0].split("-")[0], "en")
    assert [v for _, _, v in numbers_in(normalize(text), lang)] == values


def test_a_per_level_time_is_not_the_games_clock() -> None:
    spec = plan("a platformer with seven fast levels and 13 seconds to get through each one")
    assert isinstance(spec, Spec)
    assert spec.numbers.levels == 7 and spec.numbers.level_time_s == 13 and spec.numbers.time_limit_s is None
    ids = {c.id for c in spec.criteria}
    assert {"levels", "levelclock"} <= ids and "timer" not in ids
    clock = next(c for c in spec.criteria if c.id == "levelclock").probe
    assert [(s.do, s.ms) for s in clock.steps] == [("start", 0), ("wait", 14_000)]
    assert ("phase", "==", "playing") in [(x.path, x.op, x.value) for x in clock.expect]
    assert ("lives", "decreased") in [(x.path, x.op) for x in clock.expect]


def test_a_genre_without_levels_reports_the_level_clock_as_not_built() -> None:
    spec = plan("a dodge game with 20 seconds per life")
    assert isinstance(spec, Spec)
    assert spec.reading is not None
    stated = {n.field: n for n in spec.reading.numbers}
    assert stated["level_time_s"].honoured is False and "not built" in stated["level_time_s"].note
    assert any("time per level" in s for s in spec.reading.shortfalls())


@pytest.mark.parametrize(("pitch", "probe"), [
    ("breakout with 20 seconds per level", "start"),  # no round clock: the start probe reads the level clock
    ("breakout, 60 seconds, 20 seconds per level", "levelclock"),  # waiting costs breakout lives: the countdown
    ("memory, 60 seconds, 20 seconds per level", "levelclock"),  # waiting is safe: it runs out in the probe
])
def test_every_stated_level_clock_has_a_probe_that_reads_it(pitch: str, probe: str) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec) and spec.reading is not None
    stated = {n.field: n for n in spec.reading.numbers}
    assert stated["level_time_s"].honoured and stated["level_time_s"].criterion == probe
    checked = next(c for c in spec.criteria if c.id == probe)
    assert "levelTimeLeft" in {x.path for x in checked.probe.expect}


def test_a_speed_the_game_cannot_play_is_reported_not_clamped_silently() -> None:
    spec = plan("stack the tower as high as you can, speed 5")
    assert isinstance(spec, Spec) and spec.reading is not None
    assert "speed" not in {c.id for c in spec.criteria}
    assert any("0.25–4, not 5" in s for s in spec.reading.shortfalls())


def test_a_speed_factor_is_a_stated_speed_the_game_is_checked_for() -> None:
    spec = plan("snake at 2x speed")
    assert isinstance(spec, Spec) and spec.reading is not None
    assert spec.numbers.speed == 2
    speed = next(c for c in spec.criteria if c.id == "speed").probe.expect[0]
    assert (speed.path, speed.op, speed.value) == ("speed", "==", 2)
    assert [(n.field, n.said, n.criterion) for n in spec.reading.numbers] == [("speed", "2x speed", "speed")]


@pytest.mark.parametrize(("language", "text"), [
    ("de", "Tut er es doch, bekommt der Gegner ein Punkt."),
    ("en", "miss the ball and your opponent scores a point"),
    ("fr", "chaque brique cassée rapporte un point"),
    ("en", "1 point for every coin"),
])
def test_one_point_is_how_scoring_goes_not_a_target(language: str, text: str) -> None:
    """A target of 1 read from "ein Punkt" made a Pong pitch a game won by its first point."""
    assert read_numbers(normalize(text), language).numbers.target_score is None


def test_a_real_target_is_still_read() -> None:
    assert read_numbers(normalize("first to 7 points wins"), "en").numbers.target_score == 7
