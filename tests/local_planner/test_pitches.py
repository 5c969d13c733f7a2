"""The Planner reads pitches in eight languages: genre, every stated number, language, 3–7 criteria."""

from __future__ import annotations

import pytest

from crumb.actors.embedded.catalogue import genre_ids
from crumb.actors.embedded.planner import plan
from crumb.protocol.events import ResearchPlan
from crumb.protocol.game import Spec

# (pitch, genre, numbers the spec must hold, language)
CASES: list[tuple[str, str, dict[str, float], str]] = [
    ("a neon snake game with three lives and a 60 second time limit", "snake", {"lives": 3, "time_limit_s": 60}, "en"),
    ("Breakout with 5 lives and 3 levels, reach 1000 points", "breakout",
     {"lives": 5, "levels": 3, "target_score": 1000}, "en"),
    ("flappy bird but underwater, survive 2 minutes", "flappy", {"time_limit_s": 120}, "en"),
    ("an endless runner where you jump over cacti, 90 seconds", "runner", {"time_limit_s": 90}, "en"),
    ("space invaders style shooter, four lives, first to 2,500 points wins", "shooter",
     {"lives": 4, "target_score": 2500}, "en"),
    ("a platformer with 3 levels and double jump", "platformer", {"levels": 3}, "en"),
    ("pong against the computer, first to score 7 wins", "pong", {"target_score": 7}, "en"),
    ("dodge the falling meteors for 45 seconds with 2 hearts", "dodge", {"time_limit_s": 45, "lives": 2}, "en"),
    ("match-3 with gems, 20 moves, reach 1000 points, 8x8 grid", "match3",
     {"moves": 20, "target_score": 1000, "grid": 8}, "en"),
    ("memory card game with matching pairs on a 4 by 4 board, 30 moves", "memory", {"grid": 4, "moves": 30}, "en"),
    ("2048 clone, target score 4096", "slide2048", {"target_score": 4096}, "en"),
    ("tetris with a 3 minute timer", "blocks", {"time_limit_s": 180}, "en"),
    ("whack-a-mole, 30s, pastel", "whack", {"time_limit_s": 30}, "en"),
    ("cookie clicker where you need 500 points in 20 seconds", "clicker", {"target_score": 500, "time_limit_s": 20}, "en"),
    ("simon says with 3 lives", "simon", {"lives": 3}, "en"),
    ("stack the tower as high as you can, speed 3", "stacker", {"speed": 3}, "en"),
    ("snake with twenty-five seconds and a target of 300", "snake", {"time_limit_s": 25, "target_score": 300}, "en"),
    ("minesweeper on a 9x9 grid with 3 lives", "minesweeper", {"grid": 9, "lives": 3}, "en"),
    ("uncover the safe squares of a grid without hitting the hidden mines, 2 levels", "minesweeper", {"levels": 2}, "en"),
    ("a typing game with falling words and 3 lives", "typing", {"lives": 3}, "en"),
    ("type the words before they fall to the ground, 90 seconds", "typing", {"time_limit_s": 90}, "en"),
    ("angry birds with 3 levels and 4 moves", "slingshot", {"levels": 3, "moves": 4}, "en"),
    ("pull back and launch birds at towers of blocks to knock down the pigs", "slingshot", {}, "en"),
    # Dutch
    ("Een slangenspel met drie levens en 60 seconden", "snake", {"lives": 3, "time_limit_s": 60}, "nl"),
    ("maak een spel waarin je vallende blokken stapelt? nee: tetris met tien levels", "blocks", {"levels": 10}, "nl"),
    ("een ontwijkspel: ontwijk de meteorieten, vijf levens, 45 seconden", "dodge",
     {"lives": 5, "time_limit_s": 45}, "nl"),
    ("memory met kaarten, haal 200 punten in twee minuten", "memory", {"target_score": 200, "time_limit_s": 120}, "nl"),
    ("een mijnenveger met twee levels en drie levens", "minesweeper", {"levels": 2, "lives": 3}, "nl"),
    ("een katapultspel met 3 levels", "slingshot", {"levels": 3}, "nl"),
    # German
    ("Ein Tetris mit drei Leben, Ziel 500 Punkte", "blocks", {"lives": 3, "target_score": 500}, "de"),
    ("Ein Schlangenspiel mit 90 Sekunden und fünf Leben", "snake", {"time_limit_s": 90, "lives": 5}, "de"),
    ("Hau den Maulwurf, dreißig Sekunden, 300 Punkte zum Gewinnen", "whack",
     {"time_limit_s": 30, "target_score": 300}, "de"),
    ("Ein Weltraum-Shooter mit zwei Leben", "shooter", {"lives": 2}, "de"),
    # a rule page that never says "Pong" (bench/pitches.jsonl; it was read as Breakout with a target of 1)
    ("Rechts und links befinden sich die beiden Spieler inform eines vertikalen Rechtecks. Die Spieler können sich "
     "hoch und runter bewegen, um zu verhindern, dass der Ball den Rand des Bildschirms auf ihrer Seite berührt. "
     "Tut er es doch, bekommt der Gegner ein Punkt.", "pong", {}, "de"),
    ("Ein Tippspiel mit fallenden Wörtern und fünf Leben", "typing", {"lives": 5}, "de"),
    # Italian
    ("un gioco di serpente con tre vite e 90 secondi", "snake", {"lives": 3, "time_limit_s": 90}, "it"),
    ("uno sparatutto spaziale con cinque vite e 1000 punti per vincere", "shooter",
     {"lives": 5, "target_score": 1000}, "it"),
    ("acchiappa la talpa per sessanta secondi", "whack", {"time_limit_s": 60}, "it"),
    ("gioco di memoria con coppie di carte, 20 mosse", "memory", {"moves": 20}, "it"),
    # Chinese, simplified and traditional
    ("贪吃蛇游戏，三条命，60秒", "snake", {"lives": 3, "time_limit_s": 60}, "zh-Hans"),
    ("打砖块游戏，五条命，得到1000分", "breakout", {"lives": 5, "target_score": 1000}, "zh-Hans"),
    ("俄罗斯方块，限时三分钟", "blocks", {"time_limit_s": 180}, "zh-Hans"),
    ("貪食蛇遊戲，三條命，六十秒內達到500分", "snake", {"lives": 3, "time_limit_s": 60, "target_score": 500}, "zh-Hant"),
    ("打地鼠遊戲，時間30秒", "whack", {"time_limit_s": 30}, "zh-Hant"),
    ("消消樂，20步，目標2000分", "match3", {"moves": 20, "target_score": 2000}, "zh-Hant"),
    ("扫雷游戏，三条命", "minesweeper", {"lives": 3}, "zh-Hans"),
    ("打字遊戲，六十秒", "typing", {"time_limit_s": 60}, "zh-Hant"),
    ("弹弓游戏，打倒所有小猪，三关", "slingshot", {"levels": 3}, "zh-Hans"),
    # Korean
    ("뱀 게임, 목숨 세 개, 60초", "snake", {"lives": 3, "time_limit_s": 60}, "ko"),
    ("두더지 잡기 게임, 30초 안에 500점", "whack", {"time_limit_s": 30, "target_score": 500}, "ko"),
    ("테트리스, 목숨 3개, 레벨 5", "blocks", {"lives": 3, "levels": 5}, "ko"),
    ("벽돌 깨기 게임 목숨 다섯 개", "breakout", {"lives": 5}, "ko"),
    ("지뢰찾기 게임, 목숨 세 개", "minesweeper", {"lives": 3}, "ko"),
    # Japanese
    ("スネークゲーム、ライフ3つ、60秒", "snake", {"lives": 3, "time_limit_s": 60}, "ja"),
    ("ブロック崩し、ライフは5、1000点で勝ち", "breakout", {"lives": 5, "target_score": 1000}, "ja"),
    ("モグラたたき、制限時間30秒", "whack", {"time_limit_s": 30}, "ja"),
    ("テトリス、3分間、ステージ5", "blocks", {"time_limit_s": 180}, "ja"),
    ("フラッピーな鳥のゲーム、三つのライフ", "flappy", {"lives": 3}, "ja"),
    ("タイピングゲーム、制限時間60秒", "typing", {"time_limit_s": 60}, "ja"),
    # rhythm, fruitslice, hopper: named, and described by their mechanics only
    ("piano tiles with 3 lives and a 60 second song", "rhythm", {"lives": 3, "time_limit_s": 60}, "en"),
    ("tap the black tiles to the beat and never the white ones", "rhythm", {}, "en"),
    ("een ritmespel: tik de zwarte tegels op de maat, drie levens", "rhythm", {"lives": 3}, "nl"),
    ("別踩白塊，60秒", "rhythm", {"time_limit_s": 60}, "zh-Hant"),
    ("リズムゲーム、ライフ3つ", "rhythm", {"lives": 3}, "ja"),
    ("fruit ninja with 3 lives and 60 seconds", "fruitslice", {"lives": 3, "time_limit_s": 60}, "en"),
    ("swipe to slice the flying fruit but avoid the bombs", "fruitslice", {}, "en"),
    ("切水果，三条命", "fruitslice", {"lives": 3}, "zh-Hans"),
    ("Obst schneiden: zerschneide die Früchte, nicht die Bomben, 2 Leben", "fruitslice", {"lives": 2}, "de"),
    ("과일 자르기 게임, 목숨 3개", "fruitslice", {"lives": 3}, "ko"),
    ("hop a blocky chicken across endless roads and rivers", "hopper", {}, "en"),
    ("crossy road with 3 lives and 2 minutes", "hopper", {"lives": 3, "time_limit_s": 120}, "en"),
    ("help the frog cross the busy traffic lanes and jump on the logs, 3 levels", "hopper", {"levels": 3}, "en"),
    ("een kip die de weg oversteekt, drie levens", "hopper", {"lives": 3}, "nl"),
    ("un gioco in cui la gallina attraversa la strada, con tre vite", "hopper", {"lives": 3}, "it"),
    ("青蛙过河，五条命", "hopper", {"lives": 5}, "zh-Hans"),
    # maze, towerdefense, bubbleshooter (issue 16): by name, and by their mechanics alone
    ("pac-man with 3 lives and 2 levels", "maze", {"lives": 3, "levels": 2}, "en"),
    ("guide a hungry hero through a maze eating dots while four ghosts chase you", "maze", {}, "en"),
    ("吃豆人游戏，三条命", "maze", {"lives": 3}, "zh-Hans"),
    ("Ein Labyrinth voller Punkte, Geister jagen dich, drei Leben", "maze", {"lives": 3}, "de"),
    ("Manoeuvreer het gele poppetje door nauwe gangetjes vol bolletjes en ontwijk de spookjes", "maze", {}, "nl"),
    ("tower defense with 10 lives, 90 seconds", "towerdefense", {"lives": 10, "time_limit_s": 90}, "en"),
    ("build towers along the path to stop waves of enemies before they get through", "towerdefense", {}, "en"),
    ("Turmverteidigung mit zehn Leben", "towerdefense", {"lives": 10}, "de"),
    ("タワーディフェンス、ライフ5つ", "towerdefense", {"lives": 5}, "ja"),
    ("bubble shooter with 3 lives and 2 levels", "bubbleshooter", {"lives": 3, "levels": 2}, "en"),
    ("aim and shoot coloured bubbles, three of the same colour pop and loose ones fall", "bubbleshooter", {}, "en"),
    ("泡泡龍，三條命", "bubbleshooter", {"lives": 3}, "zh-Hant"),
    ("een bellenschieter met 40 zetten", "bubbleshooter", {"moves": 40}, "nl"),
    # jumper, colorgate, hole: by name and by their mechanics alone
    ("a doodle jump clone with 3 lives and 4 levels", "jumper", {"lives": 3, "levels": 4}, "en"),
    ("bounce up from platform to platform, higher and higher, tilting left and right", "jumper", {}, "en"),
    ("spring van platform naar platform, steeds hoger, met drie levens", "jumper", {"lives": 3}, "nl"),
    ("どこまでも上へジャンプするゲーム、ライフ3つ", "jumper", {"lives": 3}, "ja"),
    ("a color switch game with 3 lives", "colorgate", {"lives": 3}, "en"),
    ("Tap to keep a ball bouncing up through rotating multicoloured obstacles", "colorgate", {}, "en"),
    ("tap to bounce a ball up through rotating multicoloured gates, 60 seconds", "colorgate", {"time_limit_s": 60}, "en"),
    ("컬러 스위치 게임, 목숨 3개", "colorgate", {"lives": 3}, "ko"),
    ("a hole.io game, 2 minutes", "hole", {"time_limit_s": 120}, "en"),
    ("move a hole around a city and swallow everything smaller than it, growing as you eat", "hole", {}, "en"),
    ("Ein schwarzes Loch verschluckt die Stadt, Ziel 500 Punkte", "hole", {"target_score": 500}, "de"),
    ("黑洞吞噬城市的游戏，限时90秒", "hole", {"time_limit_s": 90}, "zh-Hans"),
]

UNPLACEABLE = [
    "a cozy game about a cat",
    "",
    "   ",
    "asdf qwerty zxcv",
    "ein gemütliches Spiel über Katzen",
    "一个关于猫的游戏",
    "고양이에 관한 게임",
    "猫についてのゲーム",
]


@pytest.mark.parametrize(("pitch", "genre", "numbers", "language"), CASES, ids=[c[0][:40] for c in CASES])
def test_pitch_is_read(pitch: str, genre: str, numbers: dict[str, float], language: str) -> None:
    spec = plan(pitch, seed=7)
    assert isinstance(spec, Spec), spec
    assert spec.genre == genre, spec.rationale
    assert spec.language == language
    assert spec.seed == 7
    stated = spec.numbers.model_dump()
    for field, value in numbers.items():
        assert stated[field] == value, (field, stated, spec.rationale)
    assert 3 <= len(spec.criteria) <= 7
    assert spec.title and spec.core_loop and spec.win and spec.lose
    assert spec.controls.keys and spec.controls.pointer and spec.controls.touch
    assert spec.theme.palette and all(c.startswith("#") for c in spec.theme.palette)


def test_cases_cover_every_genre_and_language() -> None:
    assert {c[1] for c in CASES} == set(genre_ids())
    assert {c[3] for c in CASES} == {"en", "nl", "de", "it", "zh-Hans", "zh-Hant", "ko", "ja"}
    assert len(CASES) + len(UNPLACEABLE) >= 40


@pytest.mark.parametrize("pitch", UNPLACEABLE)
def test_pitch_without_genre_asks_for_research(pitch: str) -> None:
    out = plan(pitch)
    assert isinstance(out, ResearchPlan)
    assert out.questions and out.candidates
    assert all(c in genre_ids() for c in out.candidates)


def test_stated_numbers_become_probes() -> None:
    spec = plan("snake with 4 lives, 45 seconds and a target of 300 points")
    assert isinstance(spec, Spec)
    by_id = {c.id: c for c in spec.criteria}
    assert by_id["lives"].probe.expect[0].model_dump() == {"path": "lives", "op": "==", "value": 4}
    assert by_id["target"].probe.expect[0].value == 300
    timer = by_id["timer"].probe
    assert [s.do for s in timer.steps] == ["start", "wait"] and timer.steps[1].ms == 47_000
    assert timer.expect[0].model_dump() == {"path": "phase", "op": "in", "value": ["over", "won"]}
    assert by_id["genre"].probe.expect[0].value == "snake"
    assert by_id["title"].probe.steps == [] and by_id["title"].probe.expect[0].value == "title"


def test_timer_checks_time_left_only_where_idling_cannot_end_the_round() -> None:
    snake = plan("snake, 30 seconds")
    memory = plan("memory with pairs, 30 seconds")
    assert isinstance(snake, Spec) and isinstance(memory, Spec)
    snake_timer = next(c for c in snake.criteria if c.id == "timer")
    memory_timer = next(c for c in memory.criteria if c.id == "timer")
    assert [x.path for x in snake_timer.probe.expect] == ["phase"]  # a snake left alone crashes before time is up
    assert [x.path for x in memory_timer.probe.expect] == ["phase", "timeLeft"]


def test_unstated_numbers_stay_unset() -> None:
    spec = plan("a snake game")
    assert isinstance(spec, Spec)
    assert spec.numbers.model_dump() == {k: None for k in spec.numbers.model_dump()}
    assert [c.id for c in spec.criteria] == ["title", "genre", "start", "score"]


def test_out_of_range_numbers_are_ignored_and_said() -> None:
    spec = plan("snake with 500 lives and 0 seconds")
    assert isinstance(spec, Spec)
    assert spec.numbers.lives is None and spec.numbers.time_limit_s is None
    assert "ignored" in spec.rationale and "500 lives" in spec.rationale


def test_theme_colour_and_extras() -> None:
    spec = plan("a neon red snake with combo bonus and power-ups, fast, big text")
    assert isinstance(spec, Spec)
    assert spec.theme.name == "neon"
    assert spec.theme.palette[1] == "#e63946"
    assert "combo bonus" in spec.extras and "power-ups" in spec.extras
    assert "speed:1.25" in spec.extras and "text_scale:1.3" in spec.extras
    assert spec.title == "Neon Snake"


def test_space_bar_is_not_a_space_theme() -> None:
    spec = plan("endless runner, press space to jump")
    assert isinstance(spec, Spec) and spec.theme.name == "default"


@pytest.mark.parametrize(("pitch", "theme"), [
    ("俄罗斯方块和火车", "default"),  # a train (火车) is no fire: the lava theme's 火 was read in it
    ("テトリスと海賊", "default"),  # pirates (海賊), not the sea
    ("俄罗斯方块和吸血鬼", "default"),  # a vampire (吸血鬼), not the ghosts
    ("an ice cream tetris", "default"),
    ("火山贪吃蛇", "lava"), ("海底贪吃蛇", "underwater"), ("a spooky snake with ghosts", "spooky"),
    ("underwater snake with sharks", "underwater"),
])
def test_a_thing_to_see_whose_word_holds_a_themes_is_not_that_theme(pitch: str, theme: str) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec) and spec.theme.name == theme, spec.theme


@pytest.mark.parametrize(("pitch", "theme"), [
    ("pac-man without ghosts", "default"), ("a snake game, no neon please", "default"),
    ("un juego de serpiente sin neón", "default"), ("um jogo da cobrinha no deserto", "desert"),  # pt "no": in the
    ("a spooky snake with ghosts", "spooky"),
])
def test_a_theme_the_pitch_refuses_is_not_its_theme(pitch: str, theme: str) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec) and spec.theme.name == theme, spec.theme


def test_quoted_title_is_kept() -> None:
    spec = plan('a snake game called "Noodle Panic"')
    assert isinstance(spec, Spec) and spec.title == "Noodle Panic"


def test_longer_keyword_wins_its_span() -> None:
    spec = plan("ブロック崩しゲーム")  # breakout, though ブロック alone hints at falling blocks
    assert isinstance(spec, Spec) and spec.genre == "breakout"


def test_ten_minutes_is_not_very() -> None:
    spec = plan("贪吃蛇，十分好玩")  # 十分 = "very", not ten points
    assert isinstance(spec, Spec) and spec.numbers.target_score is None


@pytest.mark.parametrize(("pitch", "field"), [
    ("snake, 10 points per apple", "target_score"),
    ("snake where you lose a life every 10 seconds", "time_limit_s"),
    ("an 80s-style snake game", "time_limit_s"),
    ("a snake game straight from the 90s", "time_limit_s"),
    ("Schlange, 5 Punkte pro Apfel", "target_score"),
])
def test_rates_and_eras_are_not_limits(pitch: str, field: str) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec) and getattr(spec.numbers, field) is None, spec.rationale


def test_a_60s_round_is_still_a_time_limit() -> None:
    spec = plan("snake with a 60s round and 1.5 minutes of bonus")
    assert isinstance(spec, Spec) and spec.numbers.time_limit_s == 60
    assert plan("tetris, 1.5 minutes").numbers.time_limit_s == 90  # type: ignore[union-attr]


@pytest.mark.parametrize(("pitch", "title"), [
    ('a snake game called "Noodle Panic"', "Noodle Panic"), ("een slangenspel genaamd 'Sissi'", None),
    ("ein Snake namens „Zischel“", "Zischel"), ("贪吃蛇，叫做「小龙」", "小龙"), ("「뱀뱀」이라는 뱀 게임", "뱀뱀"),
    ("「ニョロ」というスネークゲーム", "ニョロ"), ('a game like "flappy bird" with 3 lives', None),
])
def test_a_named_title_is_kept(pitch: str, title: str | None) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec)
    if title is None:
        assert spec.title == plan(pitch.replace('"', "").replace("'", "")).title  # type: ignore[union-attr]
    else:
        assert spec.title == title


def test_a_timed_round_checks_that_the_clock_starts_at_the_limit_and_runs() -> None:
    spec = plan("snake, 45 seconds")
    assert isinstance(spec, Spec)
    start = next(c for c in spec.criteria if c.id == "start").probe
    assert [s.do for s in start.steps] == ["start", "wait"] and start.steps[1].ms == 2000
    assert [(x.path, x.op, x.value) for x in start.expect] == [("timeLeft", "<", 45), ("timeLeft", ">=", 42.5)]


def test_a_long_round_gets_no_end_of_round_probe() -> None:
    spec = plan("memory, 10 minutes")
    assert isinstance(spec, Spec) and spec.numbers.time_limit_s == 600
    assert "timer" not in {c.id for c in spec.criteria} and "start" in {c.id for c in spec.criteria}
