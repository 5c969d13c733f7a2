"""Numbers in a pitch or a steering message ("three lives", "60秒", "drei Leben", "veinticinco segundos",
"двадцать пять секунд", "hai mươi lăm giây"), each assigned to the Numbers field its unit or its leading
word names; a time "per level", "per life" or "to get through each one" is the per-level clock
(level_time_s), kept apart from the whole round's (time_limit_s).

Pure and table-driven: every language the studio reads (en nl de it es fr pt ru pl tr uk vi, CJK and
Korean numerals) has a row of number words and one of unit words. A rate ("10 points per apple"), an era
("the 80s") or a value out of range is not a stated number. A number no unit assigns ("12 pairs",
"40 mines", "every 10 seconds") is kept as unread, so that the Planner can name it instead of dropping it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from crumb.actors.embedded.language import detect_language
from crumb.actors.embedded.number_words import MULTIPLIERS, ONLY_IN, language_words
from crumb.actors.embedded.pace import Pace, read_pace
from crumb.actors.embedded.text import is_cjk, word_pattern
from crumb.protocol.game import NUMBER_LIMITS, Numbers

MAX_NUMBERS = 200  # a pitch stating more numbers than this is not a pitch; the first ones count

_KANA_NUMBERS = {"ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4, "いつつ": 5, "むっつ": 6, "ななつ": 7,
                 "やっつ": 8, "ここのつ": 9}
_KO_NATIVE = {"하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "넷": 4, "네": 4, "다섯": 5, "여섯": 6,
              "일곱": 7, "여덟": 8, "아홉": 9}
_KO_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60}
_KO_COUNTERS = "개|번|초|분|점|판|칸|목숨|레벨|단계|스테이지|라운드|차례|생명|하트|기회|수"
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_KO_SINO = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}


def _cjk_value(s: str) -> int:
    total, section, digit = 0, 0, 0
    for ch in s:
        if ch in _CJK_DIGITS:
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_UNITS:
            section += (digit or 1) * _CJK_UNITS[ch]
            digit = 0
        elif ch in "万萬":
            total += (section + digit or 1) * 10_000
            section, digit = 0, 0
    return total + section + digit


def _ko_sino_value(s: str) -> int:
    total, digit = 0, 0
    for ch in s:
        if ch in _KO_SINO:
            digit = _KO_SINO[ch]
        else:
            total += (digit or 1) * {"십": 10, "백": 100, "천": 1000}[ch]
            digit = 0
    return total + digit


_LATIN_LANGUAGES = ("en", "nl", "de", "it", "es", "fr", "pt", "ru", "uk", "pl", "tr", "vi")
#: what may join the words of one number: a space or hyphen, and "and" / "et" / "y" / "e" ("vingt et un")
_JOIN_WORDS = frozenset({"and", "et", "y", "e"})
#: the letters of the scripts whose number words are words (Latin with Vietnamese, Cyrillic); CJK has its own
_LETTERS = "[a-z\u00c0-\u024f\u1e00-\u1eff\u0400-\u04ff]"
_JOIN = re.compile(r"[\s\-]+(?:(?:and|et|y|e)[\s\-]+)?")


def _key(word: str) -> str:
    return re.sub(r"[\s\-]+", " ", word)


@lru_cache(maxsize=32)
def _number_regex(language: str) -> tuple[re.Pattern[str], dict[str, int], dict[str, int]]:
    """The number reader for a text in `language`: (a number word or a numeral, values, multipliers).
    Every language's words count, except the few that are ordinary words elsewhere."""
    words: dict[str, int] = {}
    mult: dict[str, int] = {}
    per_language = language_words()
    for lang in _LATIN_LANGUAGES:
        skip = frozenset() if lang == language else ONLY_IN.get(lang, frozenset())
        words.update({w: v for w, v in per_language[lang].items() if w not in skip and w not in words})
        mult.update({w: v for w, v in MULTIPLIERS[lang].items() if w not in skip and w not in mult})
    for lang, only in ONLY_IN.items():  # a word of one language stays a number there, even if another has it
        if lang == language:
            words.update({w: v for w, v in per_language[lang].items() if w in only})
            mult.update({w: v for w, v in MULTIPLIERS[lang].items() if w in only})
    words = {_key(w): v for w, v in words.items()}
    mult = {_key(w): v for w, v in mult.items()}
    ko_native = "|".join(sorted(_KO_NATIVE, key=len, reverse=True))
    ko_tens = "|".join(sorted(_KO_TENS, key=len, reverse=True))
    pattern = (
        r"(?P<digits>\d+(?:[.,]\d+)*)(?P<k>k(?![^\W\d_]))?"
        rf"|(?<![^\W\d_'])(?P<word>{_LETTERS}+(?:'{_LETTERS}+)*)(?![^\W\d_'])"
        r"|(?P<kana>" + "|".join(_KANA_NUMBERS) + ")"
        r"|(?P<cjk>[零〇一二两兩三四五六七八九十百千万萬]+)"
        rf"|(?<![\uac00-\ud7af])(?P<ko>(?:(?:{ko_tens})\s?)?(?:{ko_native})|{ko_tens})(?=\s?(?:{_KO_COUNTERS}))"
        rf"|(?<![\uac00-\ud7af])(?P<kosino>[일이삼사오육칠팔구십백천]+)(?=\s?(?:초|분|점|개|레벨|단계|판|칸|번))"
    )
    return re.compile(pattern), words, mult


def _word_run(tokens: Sequence[tuple[int, int, str]], language: str) -> list[tuple[int, int, float]]:
    """The numbers in a run of number words (start, end, word): "twenty five" is 25, "quatre-vingt-dix"
    90, "hai mươi lăm" 25, "dwa tysiące" 2000; "one two" are two numbers."""
    _, words, mult = _number_regex(language)
    out: list[tuple[int, int, float]] = []
    total = cur = added = 0
    first = last = -1

    def flush() -> None:
        if first >= 0:
            out.append((first, last, float(total + cur)))

    for start, end, w in tokens:
        if w in mult:
            v = mult[w]
            if first < 0:
                first, total, cur, added = start, 0, 0, 0
            if v >= 1000:
                total, cur = total + (cur or 1) * v, 0
            else:  # "hai mươi": the words since the last multiplier are multiplied
                cur = cur - added + (added or 1) * v
            added, last = 0, end
            continue
        v = words.get(w, 0)
        fits = first >= 0 and (
            (v < 10 and cur % 10 == 0 and cur > 0) or (v < 100 and cur % 100 == 0) or (v < 1000 and cur == 0)
            or (cur in (60, 80) and 10 <= v <= 19))  # soixante-dix, quatre-vingt-onze
        if first >= 0 and not fits:
            flush()
            first = -1
        if first < 0:
            first, total, cur, added = start, 0, 0, 0
        cur += v
        added += v
        last = end
    flush()
    return out


def _digits_value(s: str) -> float:
    parts = re.split(r"[.,]", s)
    if len(parts) > 1 and all(len(p) == 3 for p in parts[1:]):
        return float("".join(parts))  # 1,000 or 1.000: thousands
    if len(parts) == 2:
        return float(parts[0] + "." + parts[1])  # 1.5 or 1,5
    return float(parts[0]) if parts[0] else 0.0


def _ko_value(s: str) -> int:
    s = s.replace(" ", "")
    value = 0
    for tens, v in sorted(_KO_TENS.items(), key=lambda kv: -len(kv[0])):
        if s.startswith(tens):
            value, s = v, s[len(tens):]
            break
    return value + _KO_NATIVE.get(s, 0)


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "`": "'"})


def numbers_in(text: str, language: str = "en") -> list[tuple[int, int, float]]:
    """Every number in normalized text as (start, end, value): digits, number words (compounds written as
    several words read as one number), CJK numerals."""
    text = text.translate(_APOSTROPHES)
    rx, words, mult = _number_regex(language)
    out: list[tuple[int, int, float]] = []
    run: list[tuple[int, int, str]] = []  # number words joined by spaces, hyphens, "and", "et", "y", "e"
    for m in rx.finditer(text):
        if m.group("word") is not None:
            w = m.group("word")
            if w in _JOIN_WORDS:
                continue  # "vingt et un": the next word says whether it joins
            if run and not _JOIN.fullmatch(text, run[-1][1], m.start()):
                out += _word_run(run, language)
                run = []
            if w not in words and w not in mult:
                if run:
                    out += _word_run(run, language)
                    run = []
                continue
            two = f"{run[-1][2]} {w}" if run else ""
            if two in words or two in mult:  # "quatre-vingt": one number word written as two
                run[-1] = (run[-1][0], m.end(), two)
            else:
                run.append((m.start(), m.end(), w))
            continue
        if run:
            out += _word_run(run, language)
            run = []
        if m.group("digits") is not None:
            out.append((m.start(), m.end(), _digits_value(m.group("digits")) * (1000 if m.group("k") else 1)))
            continue
        if m.group("kana") is not None:
            value = float(_KANA_NUMBERS[m.group("kana")])
        elif m.group("cjk") is not None:
            value = float(_cjk_value(m.group("cjk")))
        elif m.group("ko") is not None:
            value = float(_ko_value(m.group("ko")))
        else:
            value = float(_ko_sino_value(m.group("kosino")))
        out.append((m.start(), m.end(), value))
    if run:
        out += _word_run(run, language)
    return out


# ---------------------------------------------------------------- unit words, language by language

#: unit words after a number, per field and language (catalogue keyword syntax: "seconde*" is a prefix)
_UNIT_WORDS: dict[str, dict[str, str]] = {
    "time_limit_s": {
        "en": "seconds second secs sec s", "nl": "seconde* sec", "de": "sekunde* sek", "it": "secondi secondo",
        "es": "segundos segundo seg", "fr": "seconde* sec", "pt": "segundos segundo seg",
        "ru": "секунд* сек", "uk": "секунд* сек", "pl": "sekund* sek", "tr": "saniye* sn", "vi": "giây",
    },
    "minutes": {
        "en": "minute* mins min", "nl": "minuut minuten", "de": "minute*", "it": "minuti minuto",
        "es": "minutos minuto", "fr": "minute*", "pt": "minutos minuto", "ru": "минут* мин", "uk": "хвилин* хв",
        "pl": "minut*", "tr": "dakika*", "vi": "phút",
    },
    "hours": {"en": "hour hours", "nl": "uur", "de": "stunde*", "it": "ore", "es": "horas hora",
              "fr": "heure*", "pt": "horas hora", "ru": "час часа часов", "uk": "година години годин",
              "pl": "godzin*", "tr": "saat*", "vi": "giờ"},
    "lives": {
        "en": "lives life heart* tries chances", "nl": "levens leven kansen hartjes harten",
        "de": "leben herz* versuch*", "it": "vite vita cuori cuore tentativi",
        "es": "vidas vida corazones corazón intentos oportunidades", "fr": "vies vie cœurs cœur coeurs coeur essais chances",
        "pt": "vidas vida corações coração tentativas chances", "ru": "жизн* сердц* сердец сердечк* попыт* шанс*",
        "uk": "житт* серц* сердець спроб* шанс*", "pl": "życi* żyć życiami serc* serduszk* szans* prób*",
        "tr": "can canla canlı canı hak hakkı hakla", "vi": "mạng|mạng sống|trái tim|tim|cơ hội",
    },
    "target_score": {
        "en": "points point pts", "nl": "punten punt", "de": "punkte* punkt", "it": "punti punto",
        "es": "puntos punto", "fr": "points point", "pt": "pontos ponto", "ru": "очк* очко балл*",
        "uk": "очк* очок бал бали балів", "pl": "punkt*", "tr": "puan*", "vi": "điểm",
    },
    "moves": {  # a game counted in shots (bubble shooter, slingshot) plays them as its moves
        "en": "moves move turns shots throws launches", "nl": "zetten zet schoten worpen", "de": "züge* zug schüsse würfe",
        "it": "mosse mossa colpi lanci tiri", "es": "movimientos movimiento jugadas jugada disparos tiros lanzamientos",
        "fr": "coups coup mouvements mouvement tirs lancers", "pt": "jogadas jogada movimentos movimento disparos tiros lançamentos",
        "ru": "ход хода ходов ходами выстрел* бросков", "uk": "хід ходи ходів ходами постріл* кидків",
        "pl": "ruch* strzał* rzut*", "tr": "hamle* atış*", "vi": "nước đi|lượt đi|lượt|bước|lượt bắn|phát bắn",
    },
    "levels": {
        "en": "levels level stages", "nl": "niveaus levels level", "de": "stufen level", "it": "livelli livello",
        "es": "niveles nivel fases", "fr": "niveaux niveau manches étapes", "pt": "níveis nível fases",
        "ru": "уровн* уровень", "uk": "рівн* рівень", "pl": "poziom* etap*", "tr": "seviye* bölüm*", "vi": "màn chơi|màn|cấp độ|cấp",
    },
    "waves": {  # a game in waves (tower defense, shooter) counts its levels in them
        "en": "waves", "nl": "golven", "de": "wellen", "it": "ondate", "es": "oleadas", "fr": "vagues",
        "pt": "ondas hordas", "ru": "волн волны волнами", "uk": "хвиль хвилі хвилями", "pl": "fal fale falami",
        "tr": "dalga", "vi": "đợt",
    },
}
#: unit words read only in a text of their language ("can" is English elsewhere)
_UNITSONLY_IN: dict[str, frozenset[str]] = {"tr": frozenset({"can"}), "fr": frozenset({"vagues"}),
                                             "pl": frozenset({"fal", "fale"}), "pt": frozenset({"ondas"})}
_FIELD_OF = {"minutes": ("time_limit_s", 60.0), "hours": ("time_limit_s", 3600.0), "waves": ("levels", 1.0)}

_UNITS_CJK: dict[str, tuple[tuple[str, str, float], ...]] = {
    "zh": (("秒钟", "time_limit_s", 1), ("秒鐘", "time_limit_s", 1), ("秒", "time_limit_s", 1),
           ("分钟", "time_limit_s", 60), ("分鐘", "time_limit_s", 60), ("小时", "time_limit_s", 3600),
           ("小時", "time_limit_s", 3600), ("命", "lives", 1), ("生命", "lives", 1), ("机会", "lives", 1),
           ("機會", "lives", 1), ("颗心", "lives", 1), ("顆心", "lives", 1), ("心", "lives", 1),
           ("分", "target_score", 1), ("积分", "target_score", 1), ("積分", "target_score", 1),
           ("步", "moves", 1), ("关卡", "levels", 1), ("關卡", "levels", 1), ("关", "levels", 1),
           ("關", "levels", 1), ("级", "levels", 1), ("級", "levels", 1), ("波", "levels", 1)),
    "ja": (("秒", "time_limit_s", 1), ("分間", "time_limit_s", 60), ("分", "time_limit_s", 60),
           ("時間", "time_limit_s", 3600), ("ライフ", "lives", 1), ("ハート", "lives", 1), ("残機", "lives", 1),
           ("機", "lives", 1), ("命", "lives", 1), ("点", "target_score", 1), ("ポイント", "target_score", 1),
           ("手", "moves", 1), ("ステージ", "levels", 1), ("レベル", "levels", 1), ("面", "levels", 1), ("ウェーブ", "levels", 1)),
    "ko": (("초", "time_limit_s", 1), ("분", "time_limit_s", 60), ("시간", "time_limit_s", 3600),
           ("목숨", "lives", 1), ("생명", "lives", 1), ("라이프", "lives", 1), ("하트", "lives", 1),
           ("기회", "lives", 1), ("점", "target_score", 1), ("포인트", "target_score", 1), ("이동", "moves", 1),
           ("수", "moves", 1), ("레벨", "levels", 1), ("단계", "levels", 1), ("스테이지", "levels", 1),
           ("판", "levels", 1), ("웨이브", "levels", 1)),
}
# words that name a field before its number ("target 500", "lives: 3", "目标500", "vidas: 3")
_BEFORE_WORDS: dict[str, dict[str, str]] = {
    "time_limit_s": {
        "en": "time limit|timer|time", "nl": "tijdslimiet|tijd", "de": "zeitlimit|zeit", "it": "limite di tempo|tempo",
        "es": "límite de tiempo|tiempo", "fr": "limite de temps|temps|chrono", "pt": "limite de tempo|tempo",
        "ru": "лимит времени|время|таймер", "uk": "ліміт часу|час|таймер", "pl": "limit czasu|czas", "tr": "süre sınırı|süre",
        "vi": "giới hạn thời gian|thời gian",
        "cjk": "时间限制|時間限制|限时|限時|时间|倒计时|倒計時|제한 시간|제한시간|制限時間|タイム",
    },
    "lives": {"en": "lives|life|hearts", "nl": "levens", "de": "leben", "it": "vite", "es": "vidas", "fr": "vies",
              "pt": "vidas", "ru": "жизни", "uk": "життя", "pl": "życia", "vi": "mạng",
              "cjk": "生命|命|목숨|생명|ライフ|残機"},
    "target_score": {
        "en": "target score|target|first to|goal|score|reach", "nl": "doelscore|doel|haal", "de": "ziel|erreiche",
        "it": "obiettivo|punteggio|raggiungi", "es": "objetivo|meta|llega a|alcanza", "fr": "objectif|atteindre|atteins",
        "pt": "objetivo|meta|alcance|atinja", "ru": "цель|набери|набрать", "uk": "ціль|мета|набери|набрати",
        "pl": "cel|zdobądź|zdobyć", "tr": "hedef", "vi": "mục tiêu|đạt",
        "cjk": "目标分数|目標分數|目标|目標|达到|達到|목표 점수|목표",
    },
    "moves": {"en": "moves", "nl": "zetten", "de": "züge", "it": "mosse", "es": "movimientos|jugadas", "fr": "coups",
              "pt": "jogadas", "ru": "ходы", "uk": "ходи", "pl": "ruchy", "tr": "hamle", "vi": "nước đi",
              "cjk": "步数|步數|이동 횟수|手数"},
    "levels": {"en": "levels|level", "nl": "niveaus", "de": "stufen", "it": "livelli", "es": "niveles", "fr": "niveaux",
               "pt": "níveis|fases", "ru": "уровни|уровней", "uk": "рівні|рівнів", "pl": "poziomy|poziomów",
               "tr": "seviye|bölüm", "vi": "màn|cấp độ", "cjk": "关卡|關卡|레벨|ステージ数"},
    "speed": {"en": "speed", "nl": "snelheid", "de": "geschwindigkeit", "it": "velocità", "es": "velocidad",
              "fr": "vitesse", "pt": "velocidade", "ru": "скорость", "uk": "швидкість", "pl": "prędkość|szybkość",
              "tr": "hız", "vi": "tốc độ", "cjk": "速度|속도|スピード"},
    "grid": {"en": "grid size|grid|board size", "nl": "raster", "de": "gitter", "it": "griglia", "es": "cuadrícula",
             "fr": "grille", "pt": "grade|grelha", "ru": "сетка|поле", "uk": "сітка|поле", "pl": "siatka|plansza",
             "tr": "ızgara", "vi": "lưới", "cjk": "网格|網格|격자|グリッド"},
}
_BEFORE: tuple[tuple[str, str], ...] = tuple(
    (kw, field) for field, rows in _BEFORE_WORDS.items() for words in rows.values() for kw in words.split("|"))

_FILLERS = (r"(?:extra|more|bonus|spare|full|whole|total|starting|weitere|zusätzliche|volle|in più|de plus|"
            r"supplémentaires|más|a mais|extras|дополнительных|додаткових|dodatkowe|dodatkowych|ekstra|thêm)")
_COUNTERS = r"[个個条條只隻颗顆次つ개번]?\s?[的의の]?"
#: a word between a number and its unit that is not part of either ("seven fast levels"); not these:
_NOT_BETWEEN = (r"(?:and|or|of|to|per|each|every|in|on|at|for|with|by|a|an|the|und|oder|en|of|et|ou|y|o|e|ed|i|"
                r"ve|và|и|і|й|или|або|lub|albo|de|da|di|van|von|zu|à|a)")
_CONNECT = (r"(?:\s|:|=|-|of|to|at|is|van|op|von|auf|di|a|da|de|à|в|на|是|为|為|：|은|는|이|가|을|를|は|が|を|の|\(|\)|\[|\]|"
            r"starts? with|starting with|start at|starts? at)*")
_RATE_BEFORE = re.compile(r"(?<![^\W\d_])(?:every|each|elke|iedere|alle|jede[nm]?|ogni|ciascun[oa]?|cada|chaque|"
                          r"tous les|toutes les|каждые|каждую|кожні|кожну|co|her|mỗi)\s*$|每\s*$|마다\s*$")
_RATE_AFTER = re.compile(r"\s*(?:per(?!\s+[^\W\d_]+(?:are|ere|ire)\b)|each|for each|for every|every|apiece|a piece|pro|"
                         r"voor elke|voor iedere|für jede[nm]?|je|ogni|per ogni|por cada|por|par|pour chaque|"
                         r"na każd[yąe]|za każd[yąe]|за каждый|за каждое|за кожен|за кожне|başına|mỗi|每|마다|ごと|毎)"
                         r"(?![^\W\d_])"
                         # "3 vies par partie", "90 seconds per game": per round is the whole round's number
                         r"(?!\s+(?:game|round|match|play|run|partie|manche|jeu|partida|jogo|spiel|runde|partita|"
                         r"spel|ronde|gra|rozgrywk[eę]|oyun|ván|игру|гру|раунд)\b)")
_DECADES = {20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0}
_STYLE_AFTER = re.compile(r"[\s\-]*(?:style|vibe|retro|aesthetic|era|look|feel|theme|arcade|music|synth|kid)")

# ---------------------------------------------------------------- per level, per life

_LEVEL = (r"(?:levels?|stages?|niveaus?|stufen?|livell[oi]|nivel(?:es)?|niveaux?|níve(?:l|is)|fases?|"
          r"manches?|уров\w*|рів\w*|poziom\w*|etap\w*|seviye\w*|bölüm\w*|màn(?: chơi)?|cấp(?: độ)?)")
_LIFE = (r"(?:li(?:fe|ves)|tr(?:y|ies)|lev(?:en|ens)|leben|vit[ae]|vidas?|vies?|жизн\w*|житт\w*|życi\w*|can|mạng)")
_EACH = (r"(?:per|each|every|a|an|for each|for every|on each|on every|in each|in every|in jedem|in jeder|in ogni|"
         r"en cada|em cada|à chaque|dans chaque|in elk[e]?|op elk[e]?|pro|je|jede[snm]?|per ogni|ogni|ciascun[oa]?|voor elk[e]?|elk[e]?|"
         r"ieder[e]?|por|por cada|cada|para cada|par|pour chaque|chaque|на|на каждый|на каждую|за|за каждый|"
         r"на кожен|на кожну|na|na każdy|na każdą|za każdy|mỗi|cho mỗi)")
#: "13 seconds per level", "30 Sekunden pro Leben", "13 секунд на уровень"
_PER_UNIT_AFTER = re.compile(rf"[\s,]*{_EACH}\s+(?:{_LEVEL}|{_LIFE})(?![^\W\d_])|[\s\-]*{_LEVEL}(?![^\W\d_])")
#: "13 seconds to get through each one": the clause goes on to "each one" (the levels it named)
_EACH_ONE_AFTER = re.compile(r"^[^.,;:!?\n。，；！？\d]{0,60}?(?<![^\W\d_])(?:each one|every one|each of them|each|every one of them|"
                             r"cada uno|cada una|chacun|chacune|cada um|cada uma|jedes|jeden|jede|ciascuno|ognuno|"
                             r"elk|ieder|каждый|кожен|każdy|każdego|her biri|mỗi màn)(?![^\W\d_])")
#: "each level has 13 seconds", "每关13秒", "레벨마다 13초", "seviye başına 13 saniye", "ステージごとに30秒"
_PER_LEVEL_BEFORE = re.compile(
    rf"(?<![^\W\d_])(?:{_EACH}|her)\s+{_LEVEL}(?![^\W\d_])[^.;!?\n]{{0,30}}$"
    rf"|(?<![^\W\d_]){_LEVEL}\s+başına\s*$"
    r"|每[一个個]?(?:关卡|關卡|关|關|级|級)[^。；！？，,]{0,6}$"
    r"|(?:各|1)(?:ステージ|レベル)[^。、]{0,6}$|(?:ステージ|レベル)(?:ごとに|毎に|あたり)[^。、]{0,6}$"
    r"|(?:레벨|단계|스테이지|판)(?:마다|당)\s*$|각\s?(?:레벨|단계|스테이지)[^.,]{0,6}$")
#: "je 20 Sekunden", "each 20 seconds long": a distributive before the number, when the text names levels
_EACH_BEFORE = re.compile(r"(?<![^\W\d_])(?:je|jeweils|each|each one|each of them|cada uno|cada una|chacun|chacune|"
                          r"по|po|ciascuno|elk)\s*$")
_LEVEL_WORD = re.compile(rf"(?<![^\W\d_]){_LEVEL}(?![^\W\d_])|关|關|ステージ|레벨|단계")


@lru_cache(maxsize=32)
def _unit_tables(language: str) -> dict[str, tuple[re.Pattern[str], list[tuple[str, float]]]]:
    def comp(units: Sequence[tuple[str, str, float]], latin: bool,
             zh: bool = False) -> tuple[re.Pattern[str], list[tuple[str, float]]]:
        ordered = sorted(units, key=lambda u: -len(u[0]))
        alts = "|".join(f"(?P<u{i}>{word_pattern(kw) if latin else re.escape(kw)})" for i, (kw, _, _) in enumerate(ordered))
        between = ""
        if zh:  # a counter, then a few words ending in 的 before the unit: "8个难度递增的关卡"
            between = r"(?:[个個]\s?[^\d\s。，,；;：:！!？?、]{1,8}?的)?"
        if latin:  # one word may stand between a number and its unit: "seven fast levels", "drei schnelle Level"
            plain = "|".join(word_pattern(kw) for kw, _, _ in ordered)
            between = (rf"(?:[\s\-]+(?!(?:{plain}|{_NOT_BETWEEN})(?![^\W\d_]))[^\W\d_]{{2,20}}(?=[\s\-]))?")
        rx = re.compile(r"(?:[\s\-]*" + _FILLERS + r")?" + between + r"[\s\-]*" + _COUNTERS + r"\s?(?:" + alts + ")")
        return rx, [(field, mult) for _, field, mult in ordered]

    latin: list[tuple[str, str, float]] = []
    for kind, rows in _UNIT_WORDS.items():
        field, mult = _FIELD_OF.get(kind, (kind, 1.0))
        for lang, kws in rows.items():
            for kw in kws.split("|") if "|" in kws else kws.split():
                if kw in _UNITSONLY_IN.get(lang, frozenset()) and lang != language:
                    continue
                latin.append((kw, field, mult))
    tables = {"latin": comp(latin, True)}
    for group, units in _UNITS_CJK.items():
        tables[group] = comp(units, False, zh=group == "zh")
    return tables


@lru_cache(maxsize=1)
def _before_table() -> list[tuple[str, str]]:
    return sorted(_BEFORE, key=lambda u: -len(u[0]))


_CONNECT_TAIL = re.compile(_CONNECT + r"$")


def _named_before(before: str) -> tuple[str, str] | None:
    """The field a word just before a number names ("target 500", "lives: 3"), and that word."""
    raw = re.sub(r"[\s\-]+", " ", before[-40:]).rstrip()
    for flat in (raw, re.sub(r"[\s\-]+", " ", _CONNECT_TAIL.sub("", before[-40:]))):
        for kw, field in _before_table():
            if flat.endswith(kw):
                head = flat[: len(flat) - len(kw)]
                # CJK text has no spaces: a Latin word right after a CJK character starts there ("起始Life為3")
                if is_cjk(kw) or not head or is_cjk(head[-1]) or not (head[-1].isalnum() or head[-1] == "_"):
                    return field, kw
    return None


def _script_group(language: str) -> str:
    return "zh" if language.startswith("zh") else language if language in ("ja", "ko") else "latin"


def per_level(before: str, rest: str, text: str) -> str | None:
    """Whether a time just read is the clock of each level (or each life), not of the whole game:
    "13 seconds per level", "30 s per life", "13-second levels", "13 seconds to get through each one"
    (when the text names levels), "each level has 13 seconds", "每关13秒", "레벨마다 13초". None when it is
    not; else the words that make it per level ("" when they come before the number)."""
    after = _PER_UNIT_AFTER.match(rest)
    if after:
        return after.group(0)
    if _PER_LEVEL_BEFORE.search(before):
        return ""
    if _EACH_BEFORE.search(before) and _LEVEL_WORD.search(text):
        return ""  # "three levels of je 20 Sekunden", "по 20 секунд"
    each = _EACH_ONE_AFTER.match(rest)
    return each.group(0) if each and _LEVEL_WORD.search(text) else None


class UnreadNumber(BaseModel):
    """A number the text states that no Numbers field takes: what it asks for is the Planner's to name."""

    value: float
    said: str = Field(description="the number and the word after it, as written (\"12 pairs\")")
    noun: str = Field(default="", description="the words after the number (\"pairs of cards\"); empty for a rate")


class NumberRead(BaseModel):
    """The numbers a text states, with what each was read from (for the rationale)."""

    numbers: Numbers = Field(default_factory=Numbers)
    said: dict[str, str] = Field(default_factory=dict)
    ignored: list[str] = Field(default_factory=list)
    unread: list[UnreadNumber] = Field(default_factory=list, description="numbers no field takes (a rate included)")
    pace: Pace = Field(default_factory=Pace, description="the pace the text asks for, stated or in words (pace.py)")


#: a threshold of the game's own rules ("three or more of a colour", "at least 3 in a row"), not a setting
_THRESHOLD_AFTER = re.compile(
    r"\s*(?:\+|or more|or above|or higher|or longer|ou plus|o más|o mas|oder mehr|o più|ou mais|of meer|of meerdere|"
    r"или более|и более|или больше|або більше|і більше|lub więcej|i więcej|veya daha fazla|ve üzeri|veya fazla|"
    r"trở lên)(?![^\W\d_])|\s*(?:[个個颗顆つ개칸]\s?)?(?:\(含\)|（含）)?\s?(?:以上|이상)")
_THRESHOLD_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:at least|au moins|mindestens|wenigstens|almeno|al menos|por lo menos|pelo menos|ao menos|minstens|"
    r"minimaal|ten minste|хотя бы|не менее|как минимум|щонайменше|принаймні|co najmniej|przynajmniej|en az|ít nhất)\s*$"
    r"|(?:至少|最少|최소)\s*$")
#: the number and the word after it, for naming an unread number ("12 pairs", "40 Minen", "42顆豆子")
_SAID_AFTER = re.compile(r"%?(?:[\s\-]*(?:[^\W\d_]+[\s\-]+(?:of|de|di|van|von|d')\s*)?[^\W\d_]{2,}|[\s\-]*[^\W\d_]+)?")


def _noun_after(text: str, end: int) -> str:
    """The word (or the few CJK characters) after a number: what it counts."""
    after = text[end:end + 40]
    if is_cjk(after[:1]) or (after[:1] == " " and is_cjk(after[1:2])):
        tail = re.match(r"\s?[^\s\d。，,；;：:！!？?、.()（）でをがのにはとへもや이가을를은는에의]{0,4}", after)
    else:
        tail = _SAID_AFTER.match(after)
    return tail.group(0) if tail else ""


def _said_unread(text: str, start: int, end: int) -> str:
    return (text[start:end] + _noun_after(text, end)).strip()


def _unread_kind(text: str, start: int, end: int, value: float) -> bool:
    """Whether an unassigned number may be a setting the pitch asks for: not a one or a two (how rules are
    told: "flip two cards", "a snake", "un jeu"), not glued to letters ("2D", "3rd"), not a threshold of the
    game's own rules ("three or more")."""
    if value <= 2 or value != int(value):
        return False
    if text[end:end + 1].isalpha() and not is_cjk(text[end:end + 1]) and text[start:end].isdigit():
        return False
    if text[start - 1:start] in "+#№" and start > 0:
        return False
    return not (_THRESHOLD_AFTER.match(text, end) or _THRESHOLD_BEFORE.search(text[max(0, start - 30):start]))


_NO_LIVES = re.compile(r"\b(?:no|without|zero|geen|zonder|keine|ohne|nessuna|senza|sin|sans|sem|без|bez|không)\s+"
                       r"(?:extra\s+)?(?:lives|levens|leben|vite|vidas|vies|жизней|життів|żyć|mạng)\b")


def read_numbers(text: str, language: str | None = None) -> NumberRead:
    """Every number a normalized text states, assigned to the Numbers field its unit names."""
    language = language or detect_language(text)
    text = text.translate(_APOSTROPHES)
    out = NumberRead()
    values: dict[str, float] = {}
    taken: list[tuple[int, int]] = []

    def put(field: str, value: float, said: str) -> None:
        lo, hi = NUMBER_LIMITS[field]
        if field in values:
            if not math.isnan(values[field]) and value != values[field]:
                out.ignored.append(f"the pitch also says {said.strip()!r} for {field}: kept the first, "
                                   f"{out.said.get(field, '')!r}")
            return
        if not (lo <= value <= hi) or (field not in ("speed", "time_limit_s", "level_time_s") and value != int(value)):
            out.ignored.append(f"ignored {said.strip()!r}: {field} must be {lo:g}–{hi:g}")
            values[field] = math.nan
            return
        values[field] = value
        out.said[field] = said.strip()

    for m in re.finditer(r"(\d{1,2})\s?(?:x|×|х|\*|by|bij|mal|per|por|par|на|na|乘)\s?(\d{1,2})(?!\d)", text):
        a, b = int(m.group(1)), int(m.group(2))
        if 2 <= a <= 64 and 2 <= b <= 64:
            put("grid", max(a, b), m.group(0))
            taken.append(m.span())
    out.pace = read_pace(text)
    taken += out.pace.spans

    groups = ["latin"] if _script_group(language) == "latin" else [_script_group(language), "latin"]
    tables = _unit_tables(language)

    def unread(start: int, end: int, value: float, rate: str = "") -> None:
        noun = "" if rate else _noun_after(text, end).strip(" -")
        said = rate or _said_unread(text, start, end)
        if _unread_kind(text, start, end, value) and said != text[start:end]:  # a bare number ("1 to 8") names nothing
            out.unread.append(UnreadNumber(value=value, said=said, noun=noun))

    for start, end, value in numbers_in(text, language)[:MAX_NUMBERS]:
        if any(s <= start < e for s, e in taken):
            continue
        after = text[end:end + 60]
        if value == 10 and text[start:end] == "十" and after.startswith("分") and not after.startswith(
            ("分钟", "分鐘", "分間")
        ):
            continue  # 十分 = "very / enough", not ten points
        before = text[max(0, start - 40):start]
        hit = None
        era = False
        rest = after
        for group in groups:
            rx, fields = tables[group]
            unit = rx.match(after)
            if unit and unit.lastgroup:
                field, mult = fields[int(unit.lastgroup[1:])]
                hit = (field, mult, text[start:end + unit.end()])
                rest = after[unit.end():]
                if unit.group(unit.lastgroup) == "s" and value in _DECADES and (
                        before.endswith(("the ", "'", "’")) or _STYLE_AFTER.match(rest)):
                    hit, era = None, True  # "the 80s", "a 90s-style arcade": an era, not a time limit
                break
        each = per_level(before, rest, text) if hit and hit[0] == "time_limit_s" else None
        if hit and each is not None:
            hit = ("level_time_s", hit[1], (hit[2] + each).strip())  # the clock of each level, not of the game
        elif rate := _RATE_BEFORE.search(before):  # "every 10 seconds", "each 3 moves": a rate, not a limit
            unread(start, end, value, f"{rate.group(0).strip()} {_said_unread(text, start, end)}")
            continue
        if hit is None:
            named = _named_before(before)
            if named:
                hit = (named[0], 1.0, f"{named[1]} {text[start:end]}")
        if hit and hit[0] != "level_time_s" and (rate := _RATE_AFTER.match(rest)):
            what = _SAID_AFTER.match(rest, rate.end())  # always matches: every part of it is optional
            unread(start, end, value, f"{hit[2]}{rest[:rate.end()]}{what.group(0) if what else ''}".strip())
            continue  # "10 points per apple": a rate, not a target
        if hit and hit[0] == "target_score" and value == 1:
            continue  # "bekommt der Gegner ein Punkt", "score a point": one point is how scoring goes, no target
        if hit is None and not era:
            unread(start, end, value)
        if hit:
            field, mult, said = hit
            v = value * mult
            if field in ("time_limit_s", "level_time_s"):
                v = float(round(v))
            put(field, v, said)
    denied = _NO_LIVES.search(text)
    if denied and "lives" in values and not math.isnan(values["lives"]):
        out.ignored.append(f"the pitch says both {out.said.get('lives', '')!r} and {denied.group(0)!r}: kept the first")
    clean = {k: (int(v) if k != "speed" else v) for k, v in values.items() if not math.isnan(v)}
    out.numbers = Numbers.model_validate(clean)
    return out
