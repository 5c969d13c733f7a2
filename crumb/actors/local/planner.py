"""The offline Planner: reads a pitch in eight languages with keyword knowledge (no model) and writes a
Spec whose acceptance probes a correct game by docs/game-contract.md satisfies.

Pure and deterministic: same inputs, same Spec. It never raises on text: any pitch yields a Spec or,
when no genre word is found and no evidence is at hand, a ResearchPlan.
"""

from __future__ import annotations

import json as _json
import math
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field

from crumb.actors.local import catalogue as cat
from crumb.actors.local.fidelity import (
    AGENT_HINT,
    NUMBER_PROBES,
    after_edit,
    agent_reading,
    nearest_note,
    stated_numbers,
    support,
)
from crumb.actors.local.language import detect
from crumb.actors.local.unbuilt import UNBUILT, unbuilt
from crumb.protocol.events import EvidenceItem, ResearchPlan
from crumb.protocol.game import (
    Controls,
    Criterion,
    Expect,
    GenreReading,
    LanguageReading,
    Numbers,
    PitchReading,
    Probe,
    ProbeStep,
    Spec,
    Theme,
)

MAX_TEXT = 20_000
MAX_NUMBERS = 200  # a pitch stating more numbers than this is not a pitch; the first ones count
CLOCK_CHECK_MS = 2000
ROUND_PROBE_MAX_S = 120  # longer rounds: the start probe checks the clock; a fake-clock wait costs real seconds
FALLBACK_GENRES = ("dodge", "clicker", "runner")

# ---------------------------------------------------------------- text helpers


def normalize(text: str) -> str:
    """NFKC (full-width digits, half-width kana) and lower case; long text is cut, never rejected."""
    text = unicodedata.normalize("NFKC", text or "")[:MAX_TEXT]
    return text.lower().replace("\u3000", " ")


def _is_cjk(s: str) -> bool:
    return any(
        "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"
        for ch in s
    )


def word_pattern(keyword: str) -> str:
    """Regex source for a catalogue keyword (see the catalogue's docstring for the syntax)."""
    prefix = keyword.endswith("*")
    kw = keyword.rstrip("*").lower()
    body = re.escape(kw).replace(r"\-", r"[\s\-]?").replace(r"\ ", r"[\s\-]+")
    if _is_cjk(kw):
        return body
    start = r"(?<![^\W\d_])" if kw[:1].isalpha() else ""
    end = r"[^\W\d_]*" if prefix else (r"(?![^\W\d_])" if kw[-1:].isalpha() else "")
    return start + body + end


@lru_cache(maxsize=4096)
def _compiled(keyword: str) -> re.Pattern[str]:
    return re.compile(word_pattern(keyword))


@lru_cache(maxsize=4096)
def _core(keyword: str) -> str:
    """A literal every match of the keyword contains: a C-speed `in` test skips most regexes."""
    return max(re.split(r"[\s\-]+", keyword.rstrip("*").lower()), key=len)


def find_any(text: str, keywords: Sequence[str]) -> tuple[int, str] | None:
    """The earliest keyword found in normalized text, as (position, matched text)."""
    best: tuple[int, str] | None = None
    for kw in keywords:
        if _core(kw) not in text:
            continue
        m = _compiled(kw).search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.group(0))
    return best


# ---------------------------------------------------------------- language


def detect_language(text: str) -> str:
    """The catalogue language a text is read with (see crumb.actors.local.language for how)."""
    return detect(normalize(text)).read_as


# ---------------------------------------------------------------- numbers


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
_LIMITS = {"time_limit_s": (1, 86_400), "lives": (1, 99), "target_score": (1, 1_000_000_000), "moves": (1, 1_000_000),
           "levels": (1, 999), "speed": (0.01, 100), "grid": (2, 64)}


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
                if _is_cjk(kw) or not head or not (head[-1].isalnum() or head[-1] == "_"):
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
        lo, hi = _LIMITS[field]
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
            m = rx.match(after)
            if m and m.lastgroup:
                field, mult = fields[int(m.lastgroup[1:])]
                hit = (field, mult, text[start:end + m.end()])
                rest = after[m.end():]
                if m.group(m.lastgroup) == "s" and value in _DECADES and (
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
    out.numbers = Numbers(**clean)
    return out


# ---------------------------------------------------------------- genre, theme, extras


class GenreScore(BaseModel):
    genre: str
    score: float
    first: int
    words: list[str]


@lru_cache(maxsize=2)
def _genre_keywords(weak: bool) -> list[tuple[str, list[tuple[str, float]]]]:
    """Keywords, longest first, each with every (genre, weight) that lists it."""
    table: dict[str, list[tuple[str, float]]] = {}
    for g in cat.GENRES:
        for kw in g.strong:
            table.setdefault(kw, []).append((g.id, 3.0))
        for kw in g.weak if weak else ():
            table.setdefault(kw, []).append((g.id, 1.0))
    return sorted(table.items(), key=lambda k: (-len(k[0].rstrip("*")), k[0]))


def score_genres(text: str, *, weak: bool = True) -> list[GenreScore]:
    """Genres named in normalized text, best first. A longer keyword consumes its span, so
    "ブロック崩し" counts for breakout and not again as "ブロック" for blocks."""
    work = text
    found: dict[str, GenreScore] = {}
    for kw, owners in _genre_keywords(weak):
        if _core(kw) not in work:
            continue
        rx = _compiled(kw)
        m = rx.search(work)
        if not m:
            continue
        for s, e in [x.span() for x in rx.finditer(work)]:
            work = work[:s] + " " * (e - s) + work[e:]
        for genre, weight in owners:
            gs = found.setdefault(genre, GenreScore(genre=genre, score=0, first=m.start(), words=[]))
            gs.score += weight
            gs.first = min(gs.first, m.start())
            gs.words.append(m.group(0))
    order = {g: i for i, g in enumerate(cat.genre_ids())}
    return sorted(found.values(), key=lambda s: (-s.score, s.first, order[s.genre]))


@lru_cache(maxsize=1)
def _unbuilt_keywords() -> list[tuple[str, list[tuple[str, float]]]]:
    table: dict[str, list[tuple[str, float]]] = {}
    for g in UNBUILT:
        for kw in g.names:
            table.setdefault(kw, []).append((g.id, 3.0))
        for kw in g.mechanics:
            table.setdefault(kw, []).append((g.id, 1.0))
    return sorted(table.items(), key=lambda k: (-len(k[0].rstrip("*")), k[0]))


def score_unbuilt(text: str) -> tuple[list[GenreScore], str]:
    """Genres the embedded studio cannot build that normalized text asks for, best first, and the
    text with their names blanked (so "bubble shooter" is not also read as a shooter)."""
    work = text
    found: dict[str, GenreScore] = {}
    names = {kw for g in UNBUILT for kw in g.names}
    blanked = text
    for kw, owners in _unbuilt_keywords():
        if _core(kw) not in work:
            continue
        rx = _compiled(kw)
        spans = [x.span() for x in rx.finditer(work)]
        if not spans:
            continue
        for s, e in spans:
            work = work[:s] + " " * (e - s) + work[e:]
            if kw in names:
                blanked = blanked[:s] + " " * (e - s) + blanked[e:]
        for genre, weight in owners:
            gs = found.setdefault(genre, GenreScore(genre=genre, score=0, first=spans[0][0], words=[]))
            gs.score += weight * len(spans) if weight < 3 else weight
            gs.first = min(gs.first, spans[0][0])
            gs.words.append(text[spans[0][0]:spans[0][1]])
    return sorted(found.values(), key=lambda s: (-s.score, s.first)), blanked


def confident(scores: Sequence[GenreScore]) -> bool:
    """A pitch places in a genre when it names one outright, or two hints agree and nothing ties."""
    if not scores:
        return False
    top = scores[0].score
    second = scores[1].score if len(scores) > 1 else 0
    return top >= 3 or (top >= 2 and top > second)


_SPACE_KEY = re.compile(
    r"\b(?:press|hit|tap|with|use|using|hold|druk op|drück|premi)\s+(?:the\s+|de\s+|die\s+)?space(?:\s?bar|\s?key|taste)?\b"
    r"|\bspace\s?(?:bar|key|taste)\b|\bspatiebalk\b|\bleertaste\b"
)


def find_theme(text: str) -> tuple[cat.ThemeEntry, str] | None:
    text = _SPACE_KEY.sub(" ", text)
    best: tuple[int, cat.ThemeEntry, str] | None = None
    for t in cat.THEMES:
        hit = find_any(text, t.keywords)
        if hit and (best is None or hit[0] < best[0]):
            best = (hit[0], t, hit[1])
    return (best[1], best[2]) if best else None


def find_colours(text: str) -> list[tuple[cat.ColourEntry, str]]:
    hits = []
    for c in cat.COLOURS:
        hit = find_any(text, c.keywords)
        if hit:
            hits.append((hit[0], c, hit[1]))
    return [(c, w) for _, c, w in sorted(hits, key=lambda h: h[0])]


def find_extras(text: str) -> list[str]:
    hits = []
    for e in cat.EXTRAS:
        hit = find_any(text, e.keywords)
        if hit:
            hits.append((hit[0], e.id))
    return [e for _, e in sorted(hits)]


_FAST = ("fast", "fast-paced", "quick", "speedy", "snel", "snelle", "schnell*", "veloce", "rapid*", "빠른", "速い",
         "高速", "快速")
_SLOW = ("slow", "slow-paced", "relaxed", "calm", "chill", "langzaam", "rustig*", "langsam*", "gemütlich", "lento",
         "lenta", "tranquill*", "느린", "천천히", "ゆっくり", "のんびり", "慢", "悠闲", "悠閒")
_BIG_TEXT = ("big text", "large text", "big font", "large font", "big letters", "large print", "grote letters",
             "grote tekst", "große schrift", "großer text", "grosse schrift", "testo grande", "caratteri grandi",
             "大字", "큰 글씨", "큰 글자", "大きい文字", "大きな文字")


def set_knob(extras: Sequence[str], name: str, value: float) -> list[str]:
    """extras with the knob item `name:value` replaced (or dropped when value is 1)."""
    out = [e for e in extras if not e.startswith(name + ":")]
    if abs(value - 1.0) > 1e-9:
        out.append(f"{name}:{value:g}")
    return out


def knob(extras: Sequence[str], name: str) -> float:
    for e in extras:
        if e.startswith(name + ":"):
            try:
                return float(e.split(":", 1)[1])
            except ValueError:
                return 1.0
    return 1.0


_Q = r"[\"“”„«»「『]([^\"“”„«»「」『』\n]{2,60})[\"“”„«»」』]"
_QUOTED = re.compile(  # a quoted name after "called"/"genaamd"/"叫" ..., or before "이라는"/"という"
    r"(?i:called|named|titled|title|genaamd|getiteld|heet|namens|heißt|heisst|titel|chiamato|chiamata|intitolato|"
    r"titolo|叫做|叫|名为|名為|标题|標題|제목|タイトル|名前は)\s*[:：]?\s*" + _Q + "|" + _Q + r"\s*(?:이라는|라는|という|って)"
)


def _quoted_title(m: re.Match[str] | None) -> str | None:
    name = (m.group(1) or m.group(2) or "").strip() if m else ""
    return name[:120] or None


class Reading(BaseModel):
    """What a pitch says, as far as keyword knowledge can tell."""

    language: str
    language_reading: LanguageReading
    unbuilt: list[GenreScore] = Field(default_factory=list, description="genres asked for that cannot be built")
    genres: list[GenreScore]
    confident: bool
    numbers: NumberRead
    theme: str | None = None
    theme_word: str | None = None
    colours: list[str] = Field(default_factory=list)
    colour_words: list[str] = Field(default_factory=list)
    extras: list[str] = Field(default_factory=list)
    title: str | None = None


def read_pitch(pitch: str) -> Reading:
    text = normalize(pitch)
    lang = detect(text)
    language = lang.read_as
    unbuilt, named_text = score_unbuilt(text)
    genres = score_genres(named_text)
    theme = find_theme(text)
    colours = find_colours(text)
    extras = find_extras(text)
    nums = read_numbers(text, language)
    if find_any(text, _FAST):
        extras = set_knob(extras, "speed", 1.25)
    elif find_any(text, _SLOW):
        extras = set_knob(extras, "speed", 0.8)
    if nums.speed_factor:
        extras = set_knob(extras, "speed", nums.speed_factor)
    if find_any(text, _BIG_TEXT):
        extras = set_knob(extras, "text_scale", 1.3)
    quoted = _QUOTED.search(unicodedata.normalize("NFKC", pitch or "")[:MAX_TEXT])
    return Reading(
        language=language,
        language_reading=lang,
        unbuilt=unbuilt,
        genres=genres,
        confident=confident(genres),
        numbers=nums,
        theme=theme[0].id if theme else None,
        theme_word=theme[1] if theme else None,
        colours=[c.id for c, _ in colours],
        colour_words=[w for _, w in colours],
        extras=extras,
        title=_quoted_title(quoted),
    )


# ---------------------------------------------------------------- wishes in feedback and steering

_WISH_MARKERS = (
    "instead", "make it", "turn it into", "switch to", "switch it to", "change it to", "change to", "rather",
    "i want", "i'd like", "let's do", "should be a", "maak er", "maak het", "in plaats", "liever", "verander",
    "ik wil", "stattdessen", "mach daraus", "mach es", "lieber", "ändere", "ich will", "ich möchte", "statt",
    "invece", "fallo", "falla", "trasforma", "cambia", "voglio", "preferisco", "改成", "换成", "換成", "改为", "改為",
    "变成", "變成", "我想要", "我要", "바꿔", "대신", "로 해", "으로 해", "원해", "変えて", "代わりに", "にして", "がいい",
)
_OTHER_GENRE = (
    "another genre", "different genre", "other genre", "another game", "different game", "something else",
    "andere genre", "ander genre", "ander spel", "iets anders", "anderes genre", "anderes spiel", "etwas anderes",
    "altro genere", "genere diverso", "altro gioco", "qualcos'altro", "换个类型", "換個類型", "换一个", "換一個",
    "别的类型", "別的類型", "其他类型", "其他類型", "다른 장르", "다른 게임", "別のジャンル", "他のジャンル", "別のゲーム",
)


_MACHINE = re.compile(r"probe|expected|observed|==|console|error|fps|qa |\[(?:critical|important|minor)\]|^(?:pass|partial|fail|reject)\b")


def human_lines(text: str | None) -> list[str]:
    """The lines of feedback a person could have written: a Verifier's report of failed probes
    names genres and numbers in passing, and must not be read as a wish."""
    return [line for line in (text or "").split("\n") if line.strip() and not _MACHINE.search(normalize(line).strip())]


@lru_cache(maxsize=1)
def _genre_names() -> dict[str, tuple[str, ...]]:
    return {g.id: tuple(dict.fromkeys([g.id, g.name.lower(), *(n.lower() for n in g.names.values()),
                                       *g.famous]))
            for g in cat.GENRES}


class Wish(BaseModel):
    genre: str | None = None
    other: bool = False
    said: str = ""


def genre_wish(message: str, *, current: str | None = None, lenient: bool = False) -> Wish:
    """A request for a (different) genre in a person's message. `lenient`: a short message naming a
    genre counts even without "instead"/"make it" (steering); feedback needs the marker."""
    text = normalize(message)
    if not text.strip():
        return Wish()
    for sentence in re.split(r"[.!?;\n。！？；]+", text):
        marker = find_any(sentence, _WISH_MARKERS)
        short = len(sentence.split()) <= 8 if not _is_cjk(sentence) else len(sentence) <= 24
        if marker:
            scores = [s for s in score_genres(sentence, weak=False) if s.genre != current]
            if scores:
                pick = min(scores, key=lambda s: (s.first < marker[0], s.first))
                return Wish(genre=pick.genre, said=sentence.strip())
        elif lenient and short:
            # no "instead"/"make it": only a genre's name counts ("tetris!", "snake please"),
            # not a word that merely suggests one ("avoid the walls")
            named = [(hit[0], g) for g, words in _genre_names().items() if g != current
                     for hit in [find_any(sentence, words)] if hit]
            if named:
                return Wish(genre=min(named)[1], said=sentence.strip())
        if find_any(sentence, _OTHER_GENRE):
            return Wish(other=True, said=sentence.strip())
    return Wish()


# ---------------------------------------------------------------- the spec


def describe(genre: str, numbers: Numbers) -> tuple[str, str, str]:
    """core_loop, win and lose sentences for a genre with the stated numbers in them."""
    e = cat.entry(genre)
    core = e.core_loop
    win = e.win
    lose = e.lose
    t, lives, target = numbers.time_limit_s, numbers.lives, numbers.target_score
    if target and t:
        win = f"Reach {target} points before the {t}-second clock runs out."
    elif target:
        win = f"Reach {target} points."
    elif t and e.survive_win:
        win = f"Survive the {t}-second round."
    elif numbers.levels:
        win = f"Clear all {numbers.levels} levels."
    losses = []
    if lives:
        losses.append("lose your only life" if lives == 1 else f"lose all {lives} lives")
    if t and not win.startswith("Survive"):
        losses.append(f"the {t}-second clock runs out" + (" first" if target else ""))
    if numbers.moves:
        losses.append(f"the {numbers.moves} moves run out")
    if losses:
        lose = "; ".join(losses)
        lose = lose[0].upper() + lose[1:] + "."
    return core, win, lose


def criteria_for(spec: Spec) -> list[Criterion]:
    """3–7 acceptance criteria a correct game (by the contract) with this spec satisfies."""
    e = cat.entry(spec.genre) if spec.genre in cat.genre_ids() else None
    n = spec.numbers
    name = e.name if e else spec.genre
    t = n.time_limit_s

    def crit(cid: str, text: str, steps: list[dict[str, Any]], expect: list[dict[str, Any]]) -> Criterion:
        return Criterion(
            id=cid,
            text=text,
            probe=Probe(steps=[ProbeStep(**s) for s in steps], expect=[Expect(**x) for x in expect]),
        )

    out = [
        crit("title", "The title screen shows when the game loads.", [], [{"path": "phase", "op": "==", "value": "title"}]),
        crit("genre", f"It is a {name} game.", [], [{"path": "genre", "op": "==", "value": spec.genre}]),
    ]
    if t:
        # the clock must start at T and count down; a player who dies early freezes it below T, so
        # this holds for every correct game, and catches a clock that never runs
        out.append(crit("start", f"Pressing Enter starts a round whose {t}-second clock counts down.",
                        [{"do": "start"}, {"do": "wait", "ms": CLOCK_CHECK_MS}],
                        [{"path": "timeLeft", "op": "<", "value": t},
                         {"path": "timeLeft", "op": ">=", "value": t - (CLOCK_CHECK_MS + 500) / 1000}]))
    else:
        out.append(crit("start", "Pressing Enter starts a round.", [{"do": "start"}],
                        [{"path": "phase", "op": "==", "value": "playing"}]))
    play_ms = 8000 if not t else max(500, min(8000, (t - 1) * 1000))
    out.append(crit("score", "Playing raises the score.", [{"do": "start"}, {"do": "play", "ms": play_ms}],
                    [{"path": "score", "op": "increased"}]))
    if t and t <= ROUND_PROBE_MAX_S:
        expect = [{"path": "phase", "op": "in", "value": ["over", "won"]}]
        if e and e.idle_safe:
            expect.append({"path": "timeLeft", "op": "<=", "value": 0})
        out.append(crit("timer", f"The round ends after {t} seconds.",
                        [{"do": "start"}, {"do": "wait", "ms": (t + 2) * 1000}], expect))
    if n.lives and not (e is not None and support(spec.genre, "lives", float(n.lives))):
        out.append(crit("lives", f"The player starts with {n.lives} {'life' if n.lives == 1 else 'lives'}.",
                        [{"do": "start"}], [{"path": "lives", "op": "==", "value": n.lives}]))
    if n.target_score:
        out.append(crit("target", f"Reaching {n.target_score} points wins.", [{"do": "start"}],
                        [{"path": "target", "op": "==", "value": n.target_score}]))
    # every other stated number the game can honour is read back from the running game
    for field, cid, text in (("levels", "levels", "The game has {v} levels."),
                             ("moves", "moves", "A round gives {v} moves."),
                             ("grid", "grid", "The board is {v} cells across."),
                             ("speed", "speed", "The game runs at {v}× speed.")):
        value = getattr(n, field)
        if value is None or (e is not None and support(spec.genre, field, float(value))):
            continue
        path = NUMBER_PROBES[field][0]
        out.append(crit(cid, text.format(v=f"{value:g}"), [{"do": "start"}], [{"path": path, "op": "==", "value": value}]))
    return out


def _palette(theme_id: str | None, colours: Sequence[str]) -> list[str]:
    palette = list(cat.theme(theme_id or "default").palette)
    hexes = {c.id: c.hex for c in cat.COLOURS}
    for i, cid in enumerate(colours[:2]):
        palette[1 + i] = hexes[cid]
    return palette


def _title(reading: Reading, genre: str) -> str:
    if reading.title:
        return reading.title[:120]
    e = cat.entry(genre)
    lang = reading.language
    name = e.names.get(lang, e.name)
    word = reading.theme_word or (reading.colour_words[0] if reading.colour_words else None)
    if not word:
        return name
    if _is_cjk(word) and lang != "ko":
        return (word + name)[:120]
    return f"{word[:1].upper()}{word[1:]} {name}"[:120]


def compose(reading: Reading, genre: str, *, pitch: str, seed: int, rationale: str,
            previous: Spec | None = None) -> Spec:
    """A full Spec for a genre from what the pitch said; a redesign keeps the previous spec's
    choices (steered numbers, palette, extras) where the pitch says nothing."""
    e = cat.entry(genre)
    numbers = reading.numbers.numbers
    theme_id = reading.theme
    palette = _palette(theme_id, reading.colours)
    extras = list(reading.extras)
    if previous is not None:
        merged = previous.numbers.model_dump()
        merged.update({k: v for k, v in numbers.model_dump().items() if v is not None})
        numbers = Numbers(**merged)
        if not reading.theme and not reading.colours:
            theme_id, palette = previous.theme.name, list(previous.theme.palette)
        extras = list(dict.fromkeys([*previous.extras, *extras]))
    core, win, lose = describe(genre, numbers)
    spec = Spec(
        title=_title(reading, genre),
        genre=genre,
        pitch=pitch[:MAX_TEXT],
        language=reading.language,
        core_loop=core,
        controls=Controls(keys=list(e.controls.keys), pointer=e.controls.pointer, touch=e.controls.touch),
        win=win,
        lose=lose,
        theme=Theme(name=theme_id or "default", palette=palette),
        numbers=numbers,
        extras=extras,
        seed=seed,
        rationale=rationale,
    )
    return spec.model_copy(update={"criteria": criteria_for(spec)})


def with_genre(spec: Spec, genre: str, reason: str) -> Spec:
    """The same spec re-aimed at another genre: rules, controls, title and criteria follow."""
    e = cat.entry(genre)
    core, win, lose = describe(genre, spec.numbers)
    old = cat.entry(spec.genre).names.get(spec.language) if spec.genre in cat.genre_ids() else None
    title = spec.title
    new_name = e.names.get(spec.language, e.name)
    if old and old in title:
        title = title.replace(old, new_name)
    elif old is not None:
        title = new_name
    out = spec.model_copy(update={
        "genre": genre, "core_loop": core, "win": win, "lose": lose, "title": title[:120],
        "controls": Controls(keys=list(e.controls.keys), pointer=e.controls.pointer, touch=e.controls.touch),
        "rationale": (spec.rationale + " " + reason).strip()[:4000],
    })
    return out.model_copy(update={"criteria": criteria_for(out)})


# ---------------------------------------------------------------- choosing


def rank_from_evidence(evidence: Sequence[EvidenceItem]) -> list[tuple[str, float, str]]:
    """Genres the evidence points at: (genre, weight, evidence id), best first."""
    scores: dict[str, tuple[float, str, int]] = {}
    for i, item in enumerate(evidence):
        w = 1.0 / (1 + i)
        cited = item.id.split(":", 1)[1] if item.id.startswith("catalogue:") else None
        if cited in cat.genre_ids():
            s, eid, first = scores.get(cited, (0.0, item.id, i))
            scores[cited] = (s + 6 * w, eid, first)
            continue  # a catalogue entry's own text names other genres in passing
        for gs in score_genres(normalize(f"{item.title} {item.text}"))[:3]:
            s, eid, first = scores.get(gs.genre, (0.0, item.id, i))
            scores[gs.genre] = (s + gs.score * w, eid, first)
    return [(g, s, eid) for g, (s, eid, _) in sorted(scores.items(), key=lambda kv: (-kv[1][0], kv[1][2]))]


def _ranked(reading: Reading, evidence: Sequence[EvidenceItem]) -> list[str]:
    out = [g.genre for g in reading.genres]
    out += [g for g, _, _ in rank_from_evidence(evidence) if g not in out]
    out += [g for g in (*FALLBACK_GENRES, *cat.genre_ids()) if g not in out]
    return out


def _said(reading: Reading) -> str:
    parts = [f"{k} {v:g} ({reading.numbers.said.get(k, '')!r})"
             for k, v in reading.numbers.numbers.model_dump().items() if v is not None]
    s = "Numbers read: " + ", ".join(parts) + "." if parts else "The pitch states no numbers."
    if reading.numbers.ignored:
        s += " " + "; ".join(reading.numbers.ignored) + "."
    return s


def research_plan(pitch: str, reading: Reading | None = None) -> ResearchPlan:
    reading = reading or read_pitch(pitch)
    excerpt = " ".join((pitch or "").split())[:120] or "(empty pitch)"
    candidates = [g.genre for g in reading.genres][:4] or list(FALLBACK_GENRES)
    return ResearchPlan(
        questions=[
            f"Which reference game is closest to this pitch: {excerpt!r}?",
            "What are that game's core loop, controls, win and lose conditions?",
            "Which of the candidate genres can carry the pitch's theme and numbers?",
        ],
        reason=f"No genre word found in the pitch (read as {reading.language}); hints: "
               + (", ".join(f"{g.genre} ({'/'.join(g.words)})" for g in reading.genres[:4]) or "none"),
        candidates=candidates,
    )


def _name(genre: str | None) -> str:
    return cat.entry(genre).name if genre in cat.genre_ids() else str(genre)


def _asked_unbuilt(reading: Reading) -> GenreScore | None:
    """A genre the embedded studio cannot build, when the pitch names it or describes it at least as
    well as any genre it can build."""
    if not reading.unbuilt:
        return None
    top = reading.unbuilt[0]
    best = reading.genres[0].score if reading.genres else 0.0
    return top if top.score >= 3 or (top.score >= 2 and top.score >= best) else None


def _kept(previous: Spec, why: str) -> GenreReading:
    if previous.reading is not None:
        return previous.reading.genre
    return GenreReading(genre=previous.genre, how="kept", fits=None, note=f"{_name(previous.genre)}: {why}")


_GENRE_MISMATCH = re.compile(r"not the genre|wrong genre|wrong game|probe '?genre'? failed|genre ==|genre mismatch|not an? [\w-]+ game")

#: what the reducer writes as feedback when a person, not a verdict, asked for a new design
PERSON_FEEDBACK = ("the person asked for changes", "the person edited the spec")


def _from_person(feedback: str, steering: Sequence[str]) -> bool:
    """A redesign a person asked for (their words arrive as steering too) keeps the genre unless
    they name another; only a verdict's redesign moves on to the next best genre."""
    said = normalize(feedback).strip()
    return said in PERSON_FEEDBACK or said in {normalize(m).strip() for m in steering}


def plan(
    pitch: str,
    *,
    seed: int = 1,
    evidence: list[EvidenceItem] | None = None,
    feedback: str | None = None,
    previous: Spec | None = None,
    steering: Sequence[str] = (),
) -> Spec | ResearchPlan:
    """A Spec for the pitch, or a ResearchPlan when it names no genre and no evidence is given."""
    from crumb.actors.local.steering import apply_steering  # steering reuses this module's reading

    reading = read_pitch(pitch)
    evidence = list(evidence or [])
    current = previous.genre if previous else None
    wish = Wish()
    for message in steering:
        w = genre_wish(message, current=current, lenient=True)
        if w.genre or w.other:
            wish = w
    if not wish.genre and not wish.other:
        for line in human_lines(feedback):
            w = genre_wish(line, current=current)
            if w.genre or w.other:
                wish = w
                break
    why: str
    asked = _asked_unbuilt(reading)
    unhonoured: list[str] = []
    if wish.genre:
        genre, why = wish.genre, f"Genre {wish.genre}: asked for in {wish.said!r}."
        chose = GenreReading(genre=genre, how="steering", words=[wish.said], fits=True,
                             note=f"{_name(genre)}: a person asked for it ({wish.said!r})")
    elif (previous is not None and feedback and not wish.other and _GENRE_MISMATCH.search(normalize(feedback))
          and reading.confident and reading.genres[0].genre == previous.genre):
        # the build was the wrong game for a right design: the design stands, the next build fixes it
        genre = previous.genre
        why = f"Genre {genre}: kept on redesign; the pitch names it and the rejected build was another genre."
        chose = _kept(previous, "kept on redesign: the pitch names it and the rejected build was another genre")
    elif wish.other or (previous is not None and feedback and not _from_person(feedback, steering)):
        avoid = current or (reading.genres[0].genre if reading.genres else None)
        ranked = [g for g in _ranked(reading, evidence) if g != avoid]
        genre = ranked[0]
        cause = f"a different genre was asked for ({wish.said!r})" if wish.other else "the last design was rejected"
        why = f"Genre {genre}: redesign because {cause}; next best after {avoid}."
        chose = (GenreReading(genre=genre, how="steering", words=[wish.said], fits=True,
                              note=f"{_name(genre)}: a person asked for another genre than {avoid}")
                 if wish.other else
                 GenreReading(genre=genre, how="nearest", fits=False, asked=_name(avoid) if avoid else None,
                              note=f"the design as {_name(avoid) if avoid else 'planned'} was rejected; the embedded "
                                   f"studio built the next best, {_name(genre)}: /approve to keep it, or {AGENT_HINT}"))
    elif previous is not None:
        genre, why = previous.genre, f"Genre {previous.genre}: kept from the previous spec (nobody asked to change it)."
        chose = _kept(previous, "kept from the previous spec (nobody asked to change it)")
    elif asked is not None:
        entry = unbuilt(asked.genre)
        genre = reading.genres[0].genre if reading.confident else entry.nearest
        why = f"The pitch asks for {entry.name} ({', '.join(repr(w) for w in asked.words)}), which the embedded studio cannot build; nearest: {genre}."
        chose = GenreReading(genre=genre, how="nearest", words=list(asked.words), asked=entry.name, fits=False,
                             note=nearest_note(entry.name, genre))
    elif reading.confident:
        top = reading.genres[0]
        genre, why = top.genre, f"Genre {top.genre}: the pitch names it ({', '.join(repr(w) for w in top.words)})."
        named = top.score >= 3
        chose = GenreReading(genre=genre, how="named" if named else "mechanics", words=list(top.words), fits=True,
                             note=f"{_name(genre)}: the pitch {'names' if named else 'describes'} it "
                                  f"({', '.join(repr(w) for w in top.words)})")
        for other in reading.genres[1:]:
            if other.score >= 3:
                unhonoured.append(f"the pitch also names {_name(other.genre)} ({', '.join(repr(w) for w in other.words)}): "
                                  f"the embedded studio builds one genre per game, so it built {_name(genre)}")
    elif evidence:
        ranked_ev = rank_from_evidence(evidence)
        hint = [g.genre for g in reading.genres]
        if ranked_ev:
            genre, _, eid = ranked_ev[0]
            title = next((i.title for i in evidence if i.id == eid), eid)
            why = f"Genre {genre}: research evidence [{eid}] {title!r} matches the pitch best."
        else:
            genre = hint[0] if hint else FALLBACK_GENRES[0]
            why = f"Genre {genre}: the evidence named no known genre; " + (
                "the pitch hints at it." if hint else f"{genre} carries any theme.")
        chose = GenreReading(genre=genre, how="evidence", fits=False, words=[w for g in reading.genres[:1] for w in g.words],
                             note=f"no genre of the embedded studio fits the pitch for sure; it built the nearest, "
                                  f"{_name(genre)} (by research): /approve to keep it, or {AGENT_HINT}")
    else:
        return research_plan(pitch, reading)
    lang = reading.language_reading
    rationale = f"{why} Language: {reading.language} ({lang.how}). {_said(reading)}"
    spec = compose(reading, genre, pitch=pitch, seed=seed, rationale=rationale, previous=previous)
    unhonoured += [f"{x}; the pitch's words are kept as written" for x in reading.numbers.ignored]
    guesses = [] if any(v is not None for v in reading.numbers.numbers.model_dump().values()) else [
        "the pitch states no numbers: the game's own defaults apply (the build notes list them)"]
    if lang.how.startswith("too few clues"):
        guesses.append(f"language: {lang.how}")
    spec = spec.model_copy(update={"reading": PitchReading(
        genre=chose, language=lang,
        numbers=stated_numbers(reading.numbers.said, reading.numbers.numbers, spec, embedded=True),
        unhonoured=unhonoured, guesses=guesses)})
    if steering:
        spec, notes = apply_steering(spec, list(steering), genre_changes=False)
        useful = [n for n in notes if not n.startswith("Not understood")]
        if useful:
            spec = spec.model_copy(update={"rationale": (spec.rationale + " Steering: " + "; ".join(useful))[:4000]})
    return spec


# ---------------------------------------------------------------- spec.md: a spec a person can edit

_ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_NUMBER_KEYS = (("time limit (s)", "time_limit_s"), ("lives", "lives"), ("target score", "target_score"),
                ("moves", "moves"), ("levels", "levels"), ("speed", "speed"), ("grid", "grid"))
_READING = "how the pitch was read"
_SECTIONS = ("pitch", "rules", "controls", "numbers", "theme", "extras", "acceptance criteria", "rationale", _READING)
_FIELDS = {
    "": ("genre", "language", "seed"),
    "rules": ("core loop", "win", "lose"),
    "controls": ("keys", "pointer", "touch"),
    "numbers": tuple(k for k, _ in _NUMBER_KEYS),
    "theme": ("name", "palette"),
}
_HEADER = ("<!-- CRUMB spec: edit a value and save; the builder takes it from here. Write - for \"not set\".\n"
           "     Keep the headings and the \"- name: value\" lines. A value in \"double quotes\" is JSON text. -->")


def _plain(s: str) -> bool:
    return (s != "" and s == s.strip() and "\n" not in s and not any(c in s for c in _ODD_BREAKS)
            and not s.startswith(('"', "[")) and s != "-" and "<!--" not in s)


def _value(s: str) -> str:
    return s if _plain(s) else _json.dumps(s, ensure_ascii=False)


def _body(s: str) -> str:
    simple = (s != "" and s == s.strip() and not any(c in s for c in _ODD_BREAKS) and not s.startswith(('"', "["))
              and "<!--" not in s and not any(line.startswith("#") for line in s.split("\n")))
    return s if simple else _json.dumps(s, ensure_ascii=False)


def _list(items: Sequence[str]) -> str:
    shown = ["Space" if i == " " else i for i in items]
    if items and all(_plain(i) and "," not in i and i != "Space" for i in items if i != " "):
        return ", ".join(shown)
    return "-" if not items else _json.dumps(list(items), ensure_ascii=False)


def spec_markdown(spec: Spec) -> str:
    """artifacts/spec.md: the spec as a page a person can read and edit (parse_spec_markdown reads it back)."""
    n = spec.numbers
    lines = [f"# {_value(spec.title)}", "", _HEADER, "",
             f"- genre: {_value(spec.genre)}", f"- language: {_value(spec.language)}", f"- seed: {spec.seed}", "",
             "## Pitch", "", _body(spec.pitch), "",
             "## Rules", "", f"- core loop: {_value(spec.core_loop)}",
             f"- win: {_value(spec.win)}", f"- lose: {_value(spec.lose)}", "",
             "## Controls", "", f"- keys: {_list(spec.controls.keys)}",
             f"- pointer: {_value(spec.controls.pointer)}",
             f"- touch: {_value(spec.controls.touch)}", "",
             "## Numbers", ""]
    for label, field in _NUMBER_KEYS:
        v = getattr(n, field)
        lines.append(f"- {label}: {'-' if v is None else repr(v)}")
    lines += ["", "## Theme", "", f"- name: {_value(spec.theme.name)}",
              f"- palette: {_list(spec.theme.palette)}", "", "## Extras", ""]
    lines += [f"- {_value(x)}" for x in spec.extras]
    lines += ["", "## Acceptance criteria", ""]
    for c in spec.criteria:
        lines.append(f"- [{c.id}] {_value(c.text)}")
        lines.append("  probe: " + _json.dumps(c.probe.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False))
    lines += ["", "## Rationale", "", _body(spec.rationale), "", *_reading_lines(spec.reading)]
    return "\n".join(lines)


def _reading_lines(reading: PitchReading | None) -> list[str]:
    """The pitch-fidelity record as a person reads it. Written, never parsed: edit the values below it."""
    if reading is None:
        return []
    g = reading.genre
    fits = {True: "fits the pitch", False: "NOT what the pitch asks for", None: "for the Verifier to judge"}[g.fits]
    out = [f"## {_READING.capitalize()}", "", f"<!-- written by {reading.by}; CRUMB does not read this section back -->",
           f"- genre: {g.genre} ({g.how}; {fits}): {g.note or '-'}", f"- language: {reading.language.how}"]
    for n in reading.numbers:
        where = f"checked by [{n.criterion}]" if n.criterion else "not checked by QA"
        out.append(f"- number: {n.said or n.field!r} → {n.field} {n.value:g}, {where}" + ("" if n.honoured else f"; NOT BUILT: {n.note}")
                   + (f" ({n.note})" if n.honoured and n.note else ""))
    if not reading.numbers:
        out.append("- numbers: the pitch states none")
    out += [f"- not honoured: {x}" for x in reading.unhonoured]
    out += [f"- guessed: {x}" for x in reading.guesses]
    return [*out, ""]


class _Bad(ValueError):
    pass


def _fail(line: int, problem: str, fix: str) -> _Bad:
    return _Bad(f"spec.md line {line}: {problem}; {fix}")


def _unquote(raw: str, line: int) -> str:
    raw = raw.strip()
    if raw.startswith('"'):
        try:
            value = _json.loads(raw)
        except ValueError:
            return raw  # a person's "quoted" words, not JSON text
        return value if isinstance(value, str) else raw
    return raw


def _unlist(raw: str, line: int) -> list[str]:
    raw = raw.strip()
    if raw in ("-", ""):
        return []
    if raw.startswith("["):
        try:
            value = _json.loads(raw)
        except ValueError:
            raise _fail(line, f"broken list {raw[:40]!r}", 'write items separated by commas, e.g. "ArrowLeft, ArrowRight"') from None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(line, "the list must hold text items", 'write e.g. ["ArrowLeft", " "]')
        return value
    return [" " if i.strip() == "Space" else i.strip() for i in raw.split(",")]


def _unnumber(raw: str, field: str, line: int) -> int | float | None:
    raw = raw.strip()
    if raw.lower() in ("-", "—", "", "none", "not set"):
        return None
    lo, hi = _LIMITS[field]
    try:
        value: int | float = float(raw) if field == "speed" else int(raw)
    except ValueError:
        raise _fail(line, f"{field} must be a number, got {raw[:30]!r}", f"write a {'number' if field == 'speed' else 'whole number'} "
                    f"({lo}–{hi}) or - for not set") from None
    if field == "time_limit_s":
        lo, hi = 1, 86_400
    if not (lo <= value <= hi) and not (field == "speed" and 0 < value <= 100):
        raise _fail(line, f"{field} {raw} is out of range", f"use {lo}–{hi}, or - for not set")
    return value


def parse_spec_markdown(text: str, base: Spec) -> Spec:
    """A person's edit of spec.md as a Spec. Sections or lines left out keep `base`'s values; a
    change of numbers or genre with untouched criteria regenerates them. ValueError names the line."""
    data: dict[str, Any] = base.model_dump(mode="json")
    where: dict[str, int] = {}
    section = ""
    in_comment = False
    bodies: dict[str, list[str]] = {}
    body_start: dict[str, int] = {}
    extras: list[str] | None = None
    criteria: list[dict[str, Any]] | None = None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        no, raw = i + 1, lines[i]
        i += 1
        line = raw.rstrip("\r")
        if in_comment:
            in_comment = "-->" not in line
            continue
        if line.lstrip().startswith("<!--") and section not in ("pitch", "rationale"):
            in_comment = "-->" not in line
            continue
        if line.startswith("# ") and section == "" and "title" not in where:
            data["title"] = _unquote(line[2:], no)
            where["title"] = no
            continue
        if line.startswith("## "):
            name = line[3:].strip().lower()
            if name not in _SECTIONS:
                raise _fail(no, f"unknown section {line[3:].strip()!r}", f"use one of: {', '.join(s.title() for s in _SECTIONS)}")
            section = name
            if section in ("pitch", "rationale"):
                bodies[section], body_start[section] = [], no + 1
            elif section == "extras":
                extras = []
            elif section == "acceptance criteria":
                criteria = []
            continue
        if section in ("pitch", "rationale"):
            bodies[section].append(line)
            continue
        if section == _READING:
            continue  # the Planner's record, shown for people; the values below say what is built
        if not line.strip():
            continue
        if section == "extras":
            if not line.startswith("- "):
                raise _fail(no, f"expected '- feature', got {line[:40]!r}", "start each extra with '- '")
            assert extras is not None
            extras.append(_unquote(line[2:], no))
            continue
        if section == "acceptance criteria":
            m = re.match(r"^- \[([^\]]*)\] ?(.*)$", line)
            if not m:
                raise _fail(no, f"expected '- [id] sentence', got {line[:40]!r}", "write each criterion as '- [id] text' with a '  probe: {...}' line under it")
            nxt = lines[i].rstrip("\r") if i < len(lines) else ""
            pm = re.match(r"^\s+probe:\s*(.*)$", nxt)
            if not pm:
                raise _fail(no + 1, f"criterion [{m.group(1)}] has no probe line", 'add "  probe: {\\"steps\\": [...], \\"expect\\": [...]}" under it')
            i += 1
            try:
                probe = _json.loads(pm.group(1))
            except ValueError:
                raise _fail(no + 1, f"the probe of [{m.group(1)}] is not valid JSON", "fix the JSON (double quotes, matching brackets)") from None
            assert criteria is not None
            criteria.append({"id": m.group(1), "text": _unquote(m.group(2), no), "probe": probe})
            where[f"criteria.{len(criteria) - 1}"] = no
            continue
        m = re.match(r"^- ([^:]+):(?: (.*))?$", line)
        if not m or section not in _FIELDS:
            raise _fail(no, f"expected '- name: value', got {line[:40]!r}", "keep the '- name: value' shape")
        key, value = m.group(1).strip().lower(), m.group(2) or ""
        if key not in _FIELDS[section]:
            known = ", ".join(_FIELDS[section])
            raise _fail(no, f"unknown field {key!r}" + (f" under {section.title()}" if section else ""), f"known: {known}")
        if section == "":
            if key == "seed":
                try:
                    data["seed"] = int(value.strip())
                except ValueError:
                    raise _fail(no, f"seed must be a whole number, got {value.strip()[:30]!r}", "write e.g. 'seed: 7'") from None
            else:
                data[key] = _unquote(value, no)
                if key == "genre" and data["genre"] != base.genre and data["genre"] not in cat.genre_ids():
                    guess = score_genres(normalize(data["genre"]), weak=False)
                    hint = f"did you mean {guess[0].genre!r}? " if guess else ""
                    raise _fail(no, f"unknown genre {data['genre']!r}", f"{hint}known: {', '.join(cat.genre_ids())}")
        elif section == "rules":
            data[key.replace(" ", "_")] = _unquote(value, no)
        elif section == "controls":
            data["controls"][key] = _unlist(value, no) if key == "keys" else _unquote(value, no)
        elif section == "numbers":
            field = dict(_NUMBER_KEYS)[key]
            data["numbers"][field] = _unnumber(value, field, no)
        elif section == "theme":
            if key == "palette":
                palette = _unlist(value, no)
                bad = [c for c in palette if not re.fullmatch(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?", c)]
                if bad:
                    raise _fail(no, f"{bad[0]!r} is not a hex colour", "write colours like #1b1f3a, background first")
                data["theme"]["palette"] = palette
            else:
                data["theme"]["name"] = _unquote(value, no)
        where[f"{section}.{key}"] = no
    for name, body in bodies.items():
        joined = "\n".join(body).strip("\n")
        value = _unquote(joined, body_start[name]) if joined.startswith('"') else joined
        data[name] = value
    if extras is not None:
        data["extras"] = extras
    if criteria is not None:
        data["criteria"] = criteria
    try:
        spec = Spec.model_validate(data)
    except Exception as exc:  # pydantic's ValidationError: name the first problem on one line
        errors = getattr(exc, "errors", lambda: [])()
        first = errors[0] if errors else {"loc": (), "msg": str(exc)}
        loc = ".".join(str(p) for p in first["loc"])
        line_no = next((v for k, v in where.items() if loc.startswith(k.replace("criteria.", "criteria."))), 0)
        raise _Bad(f"spec.md line {line_no or '?'}: {loc or 'spec'}: {first['msg']}; fix that value and save again") from None
    if (spec.numbers != base.numbers or spec.genre != base.genre) and spec.criteria == base.criteria:
        if spec.genre != base.genre and spec.genre in cat.genre_ids():
            spec = with_genre(spec.model_copy(update={"genre": base.genre}), spec.genre, "")  # rules follow the genre
            spec = spec.model_copy(update={"rationale": data["rationale"]})
        spec = spec.model_copy(update={"criteria": criteria_for(spec)})
    return spec.model_copy(update={"reading": after_edit(base.reading, base, spec, by="user")})


def reading_for_agent(spec: Spec, pitch: str) -> PitchReading:
    """CRUMB's own reading of the pitch for a spec an agent wrote (see fidelity.agent_reading)."""
    reading = read_pitch(pitch)
    return agent_reading(spec, reading.numbers.numbers, reading.numbers.said, reading.language_reading)
