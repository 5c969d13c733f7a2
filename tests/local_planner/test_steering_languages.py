"""Steering in every language the embedded studio reads: 'plus rapide', 'más lento', 'rojo', 'drei Leben',
'更快', 'быстрее', 'daha hızlı' reach the spec (and so the Builder) as 'faster' and 'make it red' do."""

from __future__ import annotations

import pytest

from crumb.actors.embedded.pitch import knob
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.steering import apply_steering
from crumb.genres import LANGUAGES
from crumb.protocol.game import Spec

RED = "#e63946"
BLUE = "#3a86ff"

# per language: faster, slower, red, blue, bigger text, smaller text, no time limit, a genre by name,
# a genre with "instead"/"make it", another genre, more lives, less time, 3 lives (digits), 45 seconds (digits)
TABLE: dict[str, dict[str, str]] = {
    "en": {"faster": "faster please", "slower": "slower", "red": "make it red", "blue": "blue",
           "bigger": "bigger text", "smaller": "smaller text", "untimed": "no time limit",
           "genre": "tetris!", "instead": "make it a breakout game instead", "other": "something else",
           "more_lives": "more lives", "less_time": "less time", "lives": "3 lives", "time": "45 seconds"},
    "nl": {"faster": "sneller", "slower": "langzamer", "red": "maak het rood", "blue": "blauw",
           "bigger": "grotere tekst", "smaller": "kleinere tekst", "untimed": "geen tijdslimiet",
           "genre": "tetris!", "instead": "maak er een steenbreker van", "other": "iets anders",
           "more_lives": "meer levens", "less_time": "minder tijd", "lives": "3 levens", "time": "45 seconden"},
    "de": {"faster": "schneller bitte", "slower": "langsamer", "red": "mach es rot", "blue": "blau",
           "bigger": "größere Schrift", "smaller": "kleinere Schrift", "untimed": "ohne Zeitlimit",
           "genre": "tetris!", "instead": "mach daraus einen Mauerbrecher", "other": "etwas anderes",
           "more_lives": "mehr Leben", "less_time": "weniger Zeit", "lives": "drei Leben", "time": "45 Sekunden"},
    "it": {"faster": "più veloce", "slower": "più lento", "red": "rendilo rosso", "blue": "blu",
           "bigger": "testo più grande", "smaller": "testo più piccolo", "untimed": "senza limite di tempo",
           "genre": "tetris!", "instead": "trasformalo in spaccamattoni", "other": "altro gioco",
           "more_lives": "più vite", "less_time": "meno tempo", "lives": "3 vite", "time": "45 secondi"},
    "es": {"faster": "más rápido", "slower": "más lento", "red": "rojo", "blue": "ponlo azul",
           "bigger": "texto más grande", "smaller": "texto más pequeño", "untimed": "sin límite de tiempo",
           "genre": "tetris!", "instead": "mejor hazlo un rompeladrillos", "other": "otro juego",
           "more_lives": "más vidas", "less_time": "menos tiempo", "lives": "3 vidas", "time": "45 segundos"},
    "fr": {"faster": "plus rapide", "slower": "plus lent", "red": "en rouge", "blue": "mets-le en bleu",
           "bigger": "texte plus grand", "smaller": "texte plus petit", "untimed": "sans limite de temps",
           "genre": "tetris!", "instead": "plutôt un casse-briques", "other": "autre chose",
           "more_lives": "plus de vies", "less_time": "moins de temps", "lives": "3 vies", "time": "45 secondes"},
    "pt": {"faster": "mais rápido", "slower": "mais devagar", "red": "deixa vermelho", "blue": "azul",
           "bigger": "texto maior", "smaller": "texto menor", "untimed": "sem limite de tempo",
           "genre": "tetris!", "instead": "em vez disso, quero um quebra-tijolos", "other": "outro jogo",
           "more_lives": "mais vidas", "less_time": "menos tempo", "lives": "3 vidas", "time": "45 segundos"},
    "ru": {"faster": "быстрее", "slower": "медленнее", "red": "сделай красным", "blue": "синий",
           "bigger": "текст крупнее", "smaller": "текст мельче", "untimed": "без ограничения времени",
           "genre": "тетрис!", "instead": "лучше сделай арканоид", "other": "другую игру",
           "more_lives": "больше жизней", "less_time": "меньше времени", "lives": "3 жизни", "time": "45 секунд"},
    "pl": {"faster": "szybciej", "slower": "wolniej", "red": "na czerwono", "blue": "niebieski",
           "bigger": "większy tekst", "smaller": "mniejszy tekst", "untimed": "bez limitu czasu",
           "genre": "tetris!", "instead": "zamiast tego arkanoid", "other": "coś innego",
           "more_lives": "więcej żyć", "less_time": "mniej czasu", "lives": "3 życia", "time": "45 sekund"},
    "tr": {"faster": "daha hızlı", "slower": "daha yavaş", "red": "kırmızı yap", "blue": "mavi olsun",
           "bigger": "yazıyı büyüt", "smaller": "yazıyı küçült", "untimed": "süre sınırı olmadan",
           "genre": "tetris!", "instead": "bunun yerine tuğla kırma olsun", "other": "başka bir oyun",
           "more_lives": "daha fazla can", "less_time": "daha az süre", "lives": "3 can", "time": "45 saniye"},
    "uk": {"faster": "швидше", "slower": "повільніше", "red": "зроби червоним", "blue": "синій",
           "bigger": "збільш текст", "smaller": "зменш текст", "untimed": "без обмеження часу",
           "genre": "тетріс!", "instead": "замість цього арканоїд", "other": "іншу гру",
           "more_lives": "більше життів", "less_time": "менше часу", "lives": "3 життя", "time": "45 секунд"},
    "vi": {"faster": "nhanh hơn", "slower": "chậm hơn", "red": "màu đỏ", "blue": "màu xanh dương",
           "bigger": "chữ to hơn", "smaller": "chữ nhỏ hơn", "untimed": "không giới hạn thời gian",
           "genre": "xếp hình!", "instead": "đổi thành phá gạch", "other": "game khác",
           "more_lives": "thêm mạng", "less_time": "bớt thời gian", "lives": "3 mạng", "time": "45 giây"},
    "zh-Hans": {"faster": "快一点", "slower": "慢一点", "red": "变成红色", "blue": "蓝色",
                "bigger": "字大一点", "smaller": "字小一点", "untimed": "不限时",
                "genre": "俄罗斯方块", "instead": "改成打砖块", "other": "换个类型",
                "more_lives": "多一条命", "less_time": "少一点时间", "lives": "3条命", "time": "45秒"},
    "zh-Hant": {"faster": "快一點", "slower": "慢一點", "red": "改成紅色", "blue": "藍色",
                "bigger": "字大一點", "smaller": "字小一點", "untimed": "不限時",
                "genre": "俄羅斯方塊", "instead": "改成打磚塊", "other": "換個類型",
                "more_lives": "多一條命", "less_time": "少一點時間", "lives": "3條命", "time": "45秒"},
    "ko": {"faster": "더 빠르게", "slower": "느리게 해줘", "red": "빨간색으로", "blue": "파란색",
           "bigger": "글자 크게", "smaller": "글자 작게", "untimed": "시간 제한 없이",
           "genre": "테트리스", "instead": "벽돌 깨기로 바꿔", "other": "다른 게임",
           "more_lives": "목숨 더 줘", "less_time": "시간 줄여", "lives": "목숨 3개", "time": "45초"},
    "ja": {"faster": "もっと速く", "slower": "ゆっくりにして", "red": "赤にして", "blue": "ブルー",
           "bigger": "文字を大きくして", "smaller": "文字を小さく", "untimed": "時間制限なし",
           "genre": "テトリスにして", "instead": "ブロック崩しに変えて", "other": "別のゲーム",
           "more_lives": "ライフを増やして", "less_time": "時間を減らして", "lives": "ライフ3", "time": "45秒"},
}


@pytest.fixture(scope="module")
def spec() -> Spec:
    out = plan("a neon snake game with two lives and a 60 second time limit")
    assert isinstance(out, Spec) and out.numbers.lives == 2 and out.numbers.time_limit_s == 60
    return out


def _cases(key: str) -> list[tuple[str, str]]:
    return [(lang, TABLE[lang][key]) for lang in TABLE]


def test_the_table_covers_every_language() -> None:
    assert set(TABLE) == set(LANGUAGES)


@pytest.mark.parametrize(("language", "message"), _cases("faster"))
def test_faster(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert knob(out.extras, "speed") == pytest.approx(1.25), notes


@pytest.mark.parametrize(("language", "message"), _cases("slower"))
def test_slower(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert knob(out.extras, "speed") == pytest.approx(0.8), notes


@pytest.mark.parametrize(("language", "message"), _cases("red"))
def test_red(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.theme.palette[1] == RED and out.theme.palette[0] == spec.theme.palette[0], notes


@pytest.mark.parametrize(("language", "message"), _cases("blue"))
def test_blue(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.theme.palette[1] == BLUE, notes


@pytest.mark.parametrize(("language", "message"), _cases("bigger"))
def test_bigger_text(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert knob(out.extras, "text_scale") == pytest.approx(1.3), notes


@pytest.mark.parametrize(("language", "message"), _cases("smaller"))
def test_smaller_text(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert knob(out.extras, "text_scale") == pytest.approx(1 / 1.3, abs=1e-3), notes


@pytest.mark.parametrize(("language", "message"), _cases("untimed"))
def test_no_time_limit(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.numbers.time_limit_s is None and "timer" not in {c.id for c in out.criteria}, notes


@pytest.mark.parametrize(("language", "message"), _cases("genre"))
def test_naming_a_genre_switches_to_it(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.genre == "blocks" and any(c.id == "genre" and c.probe.expect[0].value == "blocks"
                                         for c in out.criteria), notes


@pytest.mark.parametrize(("language", "message"), _cases("instead"))
def test_asking_for_a_genre_instead_re_aims_the_spec(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.genre == "breakout", notes
    assert out.numbers == spec.numbers  # the person's numbers are kept


@pytest.mark.parametrize(("language", "message"), _cases("other"))
def test_asking_for_another_genre_redesigns_with_a_different_one(spec: Spec, language: str, message: str) -> None:
    out = plan(spec.pitch, previous=spec, steering=[message], feedback="the person asked for changes")
    assert isinstance(out, Spec) and out.genre != spec.genre


@pytest.mark.parametrize(("language", "message"), _cases("more_lives"))
def test_more_lives(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.numbers.lives == 3 and next(c for c in out.criteria if c.id == "lives").probe.expect[0].value == 3, notes


@pytest.mark.parametrize(("language", "message"), _cases("less_time"))
def test_less_time(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out.numbers.time_limit_s == 40, notes
    assert next(c for c in out.criteria if c.id == "timer").probe.steps[1].ms == 42_000


@pytest.mark.parametrize(("language", "message"), _cases("lives"))
def test_a_stated_number_of_lives(spec: Spec, language: str, message: str) -> None:
    """Read in the session's language: "3 can" alone is too short to tell, and is three lives in Turkish."""
    out, notes = apply_steering(spec.model_copy(update={"language": language}), [message])
    assert out.numbers.lives == 3, notes


@pytest.mark.parametrize(("language", "message"), _cases("time"))
def test_a_stated_time(spec: Spec, language: str, message: str) -> None:
    out, notes = apply_steering(spec.model_copy(update={"language": language}), [message])
    assert out.numbers.time_limit_s == 45, notes


def test_a_number_in_the_message_wins_over_more(spec: Spec) -> None:
    out, notes = apply_steering(spec, ["5 more lives"])
    assert out.numbers.lives == 5 and len([n for n in notes if n.startswith("lives")]) == 1, notes


def test_more_lives_in_a_game_without_lives_says_so_and_changes_nothing() -> None:
    spec = plan("a clicker game")
    assert isinstance(spec, Spec)
    out, notes = apply_steering(spec, ["más vidas"])
    assert out.numbers == spec.numbers and any("has no lives" in n for n in notes), notes


@pytest.mark.parametrize("message", ["más lento", "plus rapide", "rojo", "drei Leben", "更快", "быстрее", "daha hızlı"])
def test_the_issues_examples_change_the_spec(spec: Spec, message: str) -> None:
    out, notes = apply_steering(spec, [message])
    assert out != spec and not any(n.startswith("Not understood") for n in notes), notes


@pytest.mark.parametrize("message", ["bấm nhanh hơn", "kaç saniye kaldı", "szersze klocki", "más bloques"])
def test_an_everyday_word_is_not_read_as_a_genres_name(message: str) -> None:
    """Display names are what a person may say to switch genre, so none is an everyday word: Turkish
    'kaç' is 'how many' (dodge is 'Kaçış'), Vietnamese 'bấm nhanh' is 'press fast'."""
    stacker = plan("stack the tower as high as you can")
    assert isinstance(stacker, Spec)
    out, notes = apply_steering(stacker, [message])
    assert out.genre == "stacker", notes
