"""Numbers in a pitch or a steering message ("three lives", "60秒", "drei Leben", "target 500"),
each assigned to the Numbers field its unit or its leading word names.

Pure. Digits, number words in four Latin-script languages, CJK and Korean numerals; a rate ("10
points per apple"), an era ("the 80s") or a value out of range is not a stated number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from crumb.actors.embedded.text import detect_language, is_cjk, word_pattern
from crumb.protocol.game import NUMBER_LIMITS, Numbers

MAX_NUMBERS = 200  # a pitch stating more numbers than this is not a pitch; the first ones count


def _number_words() -> dict[str, int]:
    words: dict[str, int] = {}
    en_units = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
               "sixteen seventeen eighteen nineteen".split()
    en_tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()
    nl_units = "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien " \
               "zestien zeventien achttien negentien".split()
    nl_tens = "twintig dertig veertig vijftig zestig zeventig tachtig negentig".split()
    de_units = "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn " \
               "sechzehn siebzehn achtzehn neunzehn".split()
    de_tens = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()
    it_units = "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici " \
               "quindici sedici diciassette diciotto diciannove".split()
    it_tens = "venti trenta quaranta cinquanta sessanta settanta ottanta novanta".split()
    for units, tens in ((en_units, en_tens), (nl_units, nl_tens), (de_units, de_tens), (it_units, it_tens)):
        for i, w in enumerate(units):
            words[w] = i
        for i, w in enumerate(tens):
            words[w] = 20 + 10 * i
    for ti, t in enumerate(en_tens):
        for u in range(1, 10):
            words[f"{t}-{en_units[u]}"] = 20 + 10 * ti + u
            words[f"{t} {en_units[u]}"] = 20 + 10 * ti + u
    for ti, t in enumerate(nl_tens):
        for u in range(1, 10):
            unit = nl_units[u]
            joiner = "ën" if unit.endswith("e") else "en"
            words[f"{unit}{joiner}{t}"] = 20 + 10 * ti + u
    for ti, t in enumerate(de_tens):
        for u in range(1, 10):
            unit = "ein" if u == 1 else de_units[u]
            words[f"{unit}und{t}"] = 20 + 10 * ti + u
    for ti, t in enumerate(it_tens):
        for u in range(1, 10):
            unit = it_units[u]
            stem = t[:-1] if unit[0] in "uo" else t
            words[stem + ("tré" if u == 3 else unit)] = 20 + 10 * ti + u
            words[stem + unit] = 20 + 10 * ti + u
    words.update({"ein": 1, "eine": 1, "einen": 1, "einem": 1, "één": 1, "un": 1, "una": 1, "dreissig": 30,
                  "a dozen": 12, "dozen": 12, "single": 1})
    for u in range(1, 10):
        words[f"{en_units[u]} hundred"] = 100 * u
        words[f"{en_units[u]} thousand"] = 1000 * u
        words[f"{nl_units[u] if u > 1 else ''}honderd"] = 100 * u
        words[f"{nl_units[u] if u > 1 else ''}duizend"] = 1000 * u
        words[f"{'ein' if u == 1 else de_units[u]}hundert"] = 100 * u
        words[f"{'ein' if u == 1 else de_units[u]}tausend"] = 1000 * u
        words[f"{it_units[u] if u > 1 else ''}cento"] = 100 * u
        words[f"{it_units[u]}mila" if u > 1 else "mille"] = 1000 * u
    words.update({"a hundred": 100, "hundred": 100, "a thousand": 1000, "thousand": 1000, "hundert": 100,
                  "tausend": 1000})
    return words


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


@lru_cache(maxsize=1)
def _number_regex() -> tuple[re.Pattern[str], dict[str, int]]:
    words = _number_words()
    alts = sorted(words, key=len, reverse=True)
    latin = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in alts)
    ko_native = "|".join(sorted(_KO_NATIVE, key=len, reverse=True))
    ko_tens = "|".join(sorted(_KO_TENS, key=len, reverse=True))
    pattern = (
        r"(?P<digits>\d+(?:[.,]\d+)*)(?P<k>k(?![^\W\d_]))?"
        rf"|(?<![^\W\d_])(?P<word>{latin})(?![^\W\d_])"
        r"|(?P<kana>" + "|".join(_KANA_NUMBERS) + ")"
        r"|(?P<cjk>[零〇一二两兩三四五六七八九十百千万萬]+)"
        rf"|(?<![\uac00-\ud7af])(?P<ko>(?:(?:{ko_tens})\s?)?(?:{ko_native})|{ko_tens})(?=\s?(?:{_KO_COUNTERS}))"
        rf"|(?<![\uac00-\ud7af])(?P<kosino>[일이삼사오육칠팔구십백천]+)(?=\s?(?:초|분|점|개|레벨|단계|판|칸|번))"
    )
    return re.compile(pattern), words


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


def numbers_in(text: str) -> list[tuple[int, int, float]]:
    """Every number in normalized text as (start, end, value): digits, number words, CJK numerals."""
    rx, words = _number_regex()
    out: list[tuple[int, int, float]] = []
    for m in rx.finditer(text):
        if m.group("digits") is not None:
            value = _digits_value(m.group("digits")) * (1000 if m.group("k") else 1)
        elif m.group("word") is not None:
            value = float(words[re.sub(r"\s+", " ", m.group("word"))])
        elif m.group("kana") is not None:
            value = float(_KANA_NUMBERS[m.group("kana")])
        elif m.group("cjk") is not None:
            value = float(_cjk_value(m.group("cjk")))
        elif m.group("ko") is not None:
            value = float(_ko_value(m.group("ko")))
        else:
            value = float(_ko_sino_value(m.group("kosino")))
        out.append((m.start(), m.end(), value))
    return out


# unit words: (keyword, field, multiplier). Latin keywords use the catalogue syntax.
_UNITS_LATIN: tuple[tuple[str, str, float], ...] = (
    ("seconds", "time_limit_s", 1), ("second", "time_limit_s", 1), ("secs", "time_limit_s", 1),
    ("sec", "time_limit_s", 1), ("s", "time_limit_s", 1), ("seconde*", "time_limit_s", 1),
    ("sekunde*", "time_limit_s", 1), ("sek", "time_limit_s", 1), ("secondi", "time_limit_s", 1),
    ("secondo", "time_limit_s", 1),
    ("minute*", "time_limit_s", 60), ("mins", "time_limit_s", 60), ("min", "time_limit_s", 60),
    ("minuut", "time_limit_s", 60), ("minuten", "time_limit_s", 60), ("minuti", "time_limit_s", 60),
    ("minuto", "time_limit_s", 60), ("hour", "time_limit_s", 3600), ("hours", "time_limit_s", 3600),
    ("uur", "time_limit_s", 3600), ("stunde*", "time_limit_s", 3600),
    ("lives", "lives", 1), ("life", "lives", 1), ("heart*", "lives", 1), ("tries", "lives", 1),
    ("chances", "lives", 1), ("levens", "lives", 1), ("leven", "lives", 1), ("kansen", "lives", 1),
    ("hartjes", "lives", 1), ("harten", "lives", 1), ("leben", "lives", 1), ("herz*", "lives", 1),
    ("versuch*", "lives", 1), ("vite", "lives", 1), ("vita", "lives", 1), ("cuori", "lives", 1),
    ("cuore", "lives", 1), ("tentativi", "lives", 1),
    ("points", "target_score", 1), ("point", "target_score", 1), ("pts", "target_score", 1),
    ("punten", "target_score", 1), ("punt", "target_score", 1), ("punkte*", "target_score", 1),
    ("punkt", "target_score", 1), ("punti", "target_score", 1), ("punto", "target_score", 1),
    ("moves", "moves", 1), ("move", "moves", 1), ("turns", "moves", 1), ("zetten", "moves", 1),
    ("zet", "moves", 1), ("züge*", "moves", 1), ("zug", "moves", 1), ("mosse", "moves", 1), ("mossa", "moves", 1),
    ("levels", "levels", 1), ("level", "levels", 1), ("stages", "levels", 1), ("niveaus", "levels", 1),
    ("stufen", "levels", 1), ("livelli", "levels", 1), ("livello", "levels", 1),
)
_UNITS_CJK: dict[str, tuple[tuple[str, str, float], ...]] = {
    "zh": (("秒钟", "time_limit_s", 1), ("秒鐘", "time_limit_s", 1), ("秒", "time_limit_s", 1),
           ("分钟", "time_limit_s", 60), ("分鐘", "time_limit_s", 60), ("小时", "time_limit_s", 3600),
           ("小時", "time_limit_s", 3600), ("命", "lives", 1), ("生命", "lives", 1), ("机会", "lives", 1),
           ("機會", "lives", 1), ("颗心", "lives", 1), ("顆心", "lives", 1), ("心", "lives", 1),
           ("分", "target_score", 1), ("积分", "target_score", 1), ("積分", "target_score", 1),
           ("步", "moves", 1), ("关卡", "levels", 1), ("關卡", "levels", 1), ("关", "levels", 1),
           ("關", "levels", 1), ("级", "levels", 1), ("級", "levels", 1)),
    "ja": (("秒", "time_limit_s", 1), ("分間", "time_limit_s", 60), ("分", "time_limit_s", 60),
           ("時間", "time_limit_s", 3600), ("ライフ", "lives", 1), ("ハート", "lives", 1), ("残機", "lives", 1),
           ("機", "lives", 1), ("命", "lives", 1), ("点", "target_score", 1), ("ポイント", "target_score", 1),
           ("手", "moves", 1), ("ステージ", "levels", 1), ("レベル", "levels", 1), ("面", "levels", 1)),
    "ko": (("초", "time_limit_s", 1), ("분", "time_limit_s", 60), ("시간", "time_limit_s", 3600),
           ("목숨", "lives", 1), ("생명", "lives", 1), ("라이프", "lives", 1), ("하트", "lives", 1),
           ("기회", "lives", 1), ("점", "target_score", 1), ("포인트", "target_score", 1), ("이동", "moves", 1),
           ("수", "moves", 1), ("레벨", "levels", 1), ("단계", "levels", 1), ("스테이지", "levels", 1),
           ("판", "levels", 1)),
}
# words that name a field before its number ("target 500", "lives: 3", "目标500")
_BEFORE: tuple[tuple[str, str], ...] = (
    ("time limit", "time_limit_s"), ("timer", "time_limit_s"), ("time", "time_limit_s"),
    ("tijdslimiet", "time_limit_s"), ("tijd", "time_limit_s"), ("zeitlimit", "time_limit_s"), ("zeit", "time_limit_s"),
    ("limite di tempo", "time_limit_s"), ("tempo", "time_limit_s"), ("时间限制", "time_limit_s"),
    ("時間限制", "time_limit_s"), ("限时", "time_limit_s"), ("限時", "time_limit_s"), ("时间", "time_limit_s"),
    ("倒计时", "time_limit_s"), ("倒計時", "time_limit_s"), ("제한 시간", "time_limit_s"), ("제한시간", "time_limit_s"),
    ("制限時間", "time_limit_s"), ("タイム", "time_limit_s"),
    ("lives", "lives"), ("life", "lives"), ("hearts", "lives"), ("levens", "lives"), ("leben", "lives"),
    ("vite", "lives"), ("生命", "lives"), ("命", "lives"), ("목숨", "lives"), ("생명", "lives"), ("ライフ", "lives"),
    ("残機", "lives"),
    ("target score", "target_score"), ("target", "target_score"), ("first to", "target_score"), ("goal", "target_score"),
    ("score", "target_score"), ("reach", "target_score"), ("doelscore", "target_score"), ("doel", "target_score"),
    ("haal", "target_score"), ("ziel", "target_score"), ("erreiche", "target_score"), ("obiettivo", "target_score"),
    ("punteggio", "target_score"), ("raggiungi", "target_score"), ("目标分数", "target_score"),
    ("目標分數", "target_score"), ("目标", "target_score"), ("目標", "target_score"), ("达到", "target_score"),
    ("達到", "target_score"), ("목표 점수", "target_score"), ("목표", "target_score"),
    ("moves", "moves"), ("zetten", "moves"), ("züge", "moves"), ("mosse", "moves"), ("步数", "moves"),
    ("步數", "moves"), ("이동 횟수", "moves"), ("手数", "moves"),
    ("levels", "levels"), ("level", "levels"), ("niveaus", "levels"), ("livelli", "levels"), ("关卡", "levels"),
    ("關卡", "levels"), ("레벨", "levels"), ("ステージ数", "levels"),
    ("speed", "speed"), ("snelheid", "speed"), ("geschwindigkeit", "speed"), ("velocità", "speed"),
    ("速度", "speed"), ("속도", "speed"), ("スピード", "speed"),
    ("grid size", "grid"), ("grid", "grid"), ("board size", "grid"), ("raster", "grid"), ("gitter", "grid"),
    ("griglia", "grid"), ("网格", "grid"), ("網格", "grid"), ("격자", "grid"), ("グリッド", "grid"),
)
_FILLERS = r"(?:extra|more|bonus|spare|full|whole|total|starting|weitere|zusätzliche|volle|in più)"
_COUNTERS = r"[个個条條只隻颗顆次つ개번]?\s?[的의の]?"
_CONNECT = r"(?:\s|:|=|-|of|to|at|is|van|op|von|auf|di|a|da|是|为|為|：|은|는|이|가|을|를|は|が|を|の|\(|\))*"
SPEED_FACTOR = re.compile(r"(\d+(?:[.,]\d+)?)\s?x\s?(?:speed|faster|as fast|sneller|schneller|più veloce|速|빠르게)")
_RATE_BEFORE = re.compile(r"(?<![^\W\d_])(?:every|each|elke|iedere|alle|jede[nm]?|ogni|ciascun[oa]?)\s*$|每\s*$|마다\s*$")
_RATE_AFTER = re.compile(r"[\s,]*(?:per(?!\s+[^\W\d_]+(?:are|ere|ire)\b)|each|for each|for every|every|apiece|a piece|pro|voor elke|voor iedere|für jede[nm]?|"
                         r"je|ogni|per ogni|每|마다|ごと|毎)(?![^\W\d_])")
_DECADES = {20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0}
_STYLE_AFTER = re.compile(r"[\s\-]*(?:style|vibe|retro|aesthetic|era|look|feel|theme|arcade|music|synth|kid)")


@lru_cache(maxsize=1)
def _unit_tables() -> dict[str, tuple[re.Pattern[str], list[tuple[str, float]]]]:
    def comp(units: Sequence[tuple[str, str, float]], latin: bool) -> tuple[re.Pattern[str], list[tuple[str, float]]]:
        ordered = sorted(units, key=lambda u: -len(u[0]))
        alts = "|".join(f"(?P<u{i}>{word_pattern(kw) if latin else re.escape(kw)})" for i, (kw, _, _) in enumerate(ordered))
        rx = re.compile(r"(?:[\s\-]*" + _FILLERS + r")?[\s\-]*" + _COUNTERS + r"\s?(?:" + alts + ")")
        return rx, [(field, mult) for _, field, mult in ordered]

    tables = {"latin": comp(_UNITS_LATIN, True)}
    for group, units in _UNITS_CJK.items():
        tables[group] = comp(units, False)
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
                if is_cjk(kw) or not head or not (head[-1].isalnum() or head[-1] == "_"):
                    return field, kw
    return None


def _script_group(language: str) -> str:
    return "zh" if language.startswith("zh") else language if language in ("ja", "ko") else "latin"


class NumberRead(BaseModel):
    """The numbers a text states, with what each was read from (for the rationale)."""

    numbers: Numbers = Field(default_factory=Numbers)
    said: dict[str, str] = Field(default_factory=dict)
    ignored: list[str] = Field(default_factory=list)
    speed_factor: float | None = None


_NO_LIVES = re.compile(r"\b(?:no|without|zero|geen|zonder|keine|ohne|nessuna|senza)\s+(?:extra\s+)?(?:lives|levens|leben|vite)\b")


def read_numbers(text: str, language: str | None = None) -> NumberRead:
    """Every number a normalized text states, assigned to the Numbers field its unit names."""
    language = language or detect_language(text)
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
        if not (lo <= value <= hi) or (field != "speed" and field != "time_limit_s" and value != int(value)):
            out.ignored.append(f"ignored {said.strip()!r}: {field} must be {lo}–{hi}")
            values[field] = math.nan
            return
        values[field] = value
        out.said[field] = said.strip()

    for m in re.finditer(r"(\d{1,2})\s?(?:x|×|\*|by|bij|mal|per|乘|x)\s?(\d{1,2})(?!\d)", text):
        a, b = int(m.group(1)), int(m.group(2))
        if 2 <= a <= 64 and 2 <= b <= 64:
            put("grid", max(a, b), m.group(0))
            taken.append(m.span())
    for m in SPEED_FACTOR.finditer(text):
        out.speed_factor = min(4.0, max(0.25, _digits_value(m.group(1))))
        taken.append(m.span())

    groups = ["latin"] if _script_group(language) == "latin" else [_script_group(language), "latin"]
    tables = _unit_tables()
    for start, end, value in numbers_in(text)[:MAX_NUMBERS]:
        if any(s <= start < e for s, e in taken):
            continue
        after = text[end:end + 40]
        if value == 10 and text[start:end] == "十" and after.startswith("分") and not after.startswith(
            ("分钟", "分鐘", "分間")
        ):
            continue  # 十分 = "very / enough", not ten points
        before = text[max(0, start - 40):start]
        if _RATE_BEFORE.search(before):
            continue  # "every 10 seconds", "each 3 moves": a rate, not a limit
        hit = None
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
                    hit = None  # "the 80s", "a 90s-style arcade": an era, not a time limit
                break
        if hit is None:
            named = _named_before(before)
            if named:
                hit = (named[0], 1.0, f"{named[1]} {text[start:end]}")
        if hit and _RATE_AFTER.match(rest):
            continue  # "10 points per apple"
        if hit:
            field, mult, said = hit
            v = value * mult
            if field == "time_limit_s":
                v = float(round(v))
            put(field, v, said)
    denied = _NO_LIVES.search(text)
    if denied and "lives" in values and not math.isnan(values["lives"]):
        out.ignored.append(f"the pitch says both {out.said.get('lives', '')!r} and {denied.group(0)!r}: kept the first")
    clean = {k: (int(v) if k != "speed" else v) for k, v in values.items() if not math.isnan(v)}
    out.numbers = Numbers.model_validate(clean)
    return out
