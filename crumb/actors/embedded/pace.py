"""How fast a pitch asks its game to go, as a factor of the game's normal pace.

A factor in words or digits ("twice as fast", "half speed", "3 times slower", "doppelt so schnell", "в два
раза быстрее", "2x speed") is a stated number: the spec carries it and a probe checks it. A bare word
("fast", "relaxed") nudges the pace by a step the spec does not promise. The embedded games have one pace
for everything in them, so a pace asked of one thing ("grows twice as fast") or two paces at once ("a fast
paddle and a slow ball") cannot be carried: the pace stays normal and the reading says so, rather than the
spec quietly speeding the whole game up.

Pure: normalized text in, a Pace out. Numbers (the stated factor) and pitch (the word's step) both read here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from crumb.actors.embedded.text import blank_keywords, find_any, is_cjk

FAST_STEP = 1.25
SLOW_STEP = 0.8
#: what the games can take: a factor outside is held to the nearest end
LOWEST, HIGHEST = 0.25, 4.0

FAST = ("fast", "fast-paced", "quick", "speedy", "snel", "snelle", "schnell*", "veloce", "rapid*", "빠른", "速い",
        "高速", "快速", "快节奏", "快節奏", "rápido", "rápida", "rápidos", "veloz", "rapide*", "быстр*", "szybk*", "hızlı", "швидк*", "nhanh",
        "tốc độ cao")
SLOW = ("slow", "slow-paced", "relaxed", "calm", "chill", "langzaam", "rustig*", "langsam*", "gemütlich", "lento",
        "lenta", "tranquill*", "느린", "천천히", "ゆっくり", "のんびり", "慢", "慢节奏", "慢節奏", "悠闲", "悠閒", "tranquilo", "tranquila",
        "relajad*", "lent", "lente", "calme", "tranquille", "calmo", "calma", "медленн*", "спокойн*", "woln*", "spokojn*",
        "yavaş", "sakin", "повільн*", "спокійн*", "chậm", "thư giãn")

#: every pace word, longest first (pitch.py blanks the ones holding a genre's word before it reads the genre)
PACE_WORDS = tuple(sorted({*FAST, *SLOW}, key=lambda w: len(w.rstrip("*")), reverse=True))

#: a count of times before its word: "3 times", "two times", "zwei mal", "deux fois", "в два раза", "2倍", "두 배"
_COUNTS = {
    "two": 2, "three": 3, "four": 4, "zwei": 2, "drei": 3, "vier": 4, "twee": 2, "drie": 3, "deux": 2, "trois": 3,
    "quatre": 4, "dos": 2, "tres": 3, "cuatro": 4, "due": 2, "tre": 3, "quattro": 4, "duas": 2, "dois": 2, "três": 3,
    "quatro": 4, "два": 2, "две": 2, "три": 3, "четыре": 4, "чотири": 4, "dwa": 2, "dwie": 2, "trzy": 3, "cztery": 4,
    "iki": 2, "üç": 3, "dört": 4, "hai": 2, "ba": 3, "bốn": 4, "两": 2, "兩": 2, "二": 2, "三": 3, "四": 4, "두": 2,
    "세": 3, "네": 4, "one and a half": 1.5, "anderthalb": 1.5, "anderhalf": 1.5,
}
_TIMES = r"(?:(?:x|×|times|mal|keer|maal|fois|veces|volte|vezes|раза?|рази?|razy|kat|lần)(?![^\W\d_])|倍|배)"
#: a word that is a factor by itself
_WORDS = {
    "twice": 2, "thrice": 3, "double": 2, "doubled": 2, "triple": 3, "tripled": 3, "quadruple": 4, "half": 0.5,
    "doppelt": 2, "doppelte": 2, "doppelten": 2, "dreifach": 3, "dreifache": 3, "halb": 0.5, "halbe": 0.5,
    "halben": 0.5, "dubbel": 2, "dubbele": 2, "halve": 0.5, "demi": 0.5, "la moitié": 0.5, "moitié": 0.5,
    "el doble": 2, "doble": 2, "la mitad": 0.5, "mitad": 0.5, "doppio": 2, "doppia": 2, "il doppio": 2, "triplo": 3,
    "tripla": 3, "metà": 0.5, "o dobro": 2, "dobro": 2, "dobrada": 2, "dobrado": 2, "metade": 0.5, "a metade": 0.5,
    "вдвое": 2, "втрое": 3, "вдвічі": 2, "удвічі": 2, "втричі": 3, "dwukrotnie": 2, "trzykrotnie": 3, "gấp đôi": 2,
    "gấp ba": 3, "một nửa": 0.5, "nửa": 0.5, "双倍": 2, "雙倍": 2, "一半": 0.5, "半分": 0.5, "절반": 0.5, "yarı": 0.5,
}
#: words that say faster or slower, with or without the factor's own little words around them
_FASTER = ("as fast", "as quick", "faster", "quicker", "speedier", "speed", "pace", "so schnell", "schneller",
           "geschwindigkeit", "zo snel", "sneller", "snelheid", "plus vite", "plus rapide", "vitesse",
           "más rápido", "más rápida", "de rápido", "velocidad", "più veloce", "più rapido", "velocità",
           "mais rápido", "mais rápida", "velocidade", "быстрее", "скорост*", "швидше", "швидкіст*", "szybciej",
           "szybszy", "szybsza", "szybsze", "prędkoś*", "szybkoś*", "hızlı", "daha hızlı", "hız*", "nhanh",
           "nhanh hơn", "tốc độ", "快", "速", "速度", "速度快", "빠르게", "빠른", "속도", "속", "빨리", "速く", "スピード")
_SLOWER = ("as slow", "slower", "so langsam", "langsamer", "zo langzaam", "langzamer", "moins vite", "moins rapide",
           "plus lent", "plus lente", "más lento", "más lenta", "de lento", "più lento", "più lenta", "mais lento",
           "mais lenta", "медленнее", "повільніше", "wolniej", "wolniejszy", "wolniejsza", "yavaş", "daha yavaş",
           "chậm", "chậm hơn", "慢", "느리게", "遅く")
#: the little words a factor and its word may have between them ("twice *as* fast", "half *the* speed")
_BETWEEN = r"(?:\s*(?:the|of|so|zo|de|da|do|della|di|la|el|a|à|mais|más|più|daha|hơn|de la)\s*|[\s\-]*)"


def _alternation(words: Sequence[str]) -> str:
    parts = []
    for w in sorted(words, key=len, reverse=True):
        body = re.escape(w.rstrip("*")).replace(r"\ ", r"[\s\-]+")
        parts.append(body if is_cjk(w) else body + (r"[^\W\d_]*" if w.endswith("*") else r"(?![^\W\d_])"))
    return "(?:" + "|".join(parts) + ")"


_COUNT = r"(?:(?P<digits>\d+(?:[.,]\d+)?)|(?P<count>" + _alternation(list(_COUNTS)) + r"))\s?" + _TIMES
_FACTOR = r"(?:" + _COUNT + r"|(?P<word>" + _alternation(list(_WORDS)) + r"))"
_DIRECTION = r"(?:(?P<fast>" + _alternation(_FASTER) + r")|(?P<slow>" + _alternation(_SLOWER) + r"))"
_START = r"(?<![^\W\d_])"
#: "a 2x speed boost", "double speed power-up": a power-up's pace, not the game's
_NOT_A_POWER_UP = r"(?!\s*(?:boost|bonus|power|pick|up(?![^\W\d_])|increase))"
#: "twice as fast", "3x speed", "half speed", "doppelt so schnell", "deux fois moins vite"
_FACTOR_FIRST = re.compile(_START + _FACTOR + _BETWEEN + _DIRECTION + _NOT_A_POWER_UP)
#: "nhanh gấp đôi", "velocità doppia", "speed x2", "nhanh hơn 2 lần"
_DIRECTION_FIRST = re.compile(_START + _DIRECTION + r"\s*(?:x\s?(?P<times_digits>\d+(?:[.,]\d+)?)(?!\d)|" + _BETWEEN
                              + _FACTOR + r")" + _NOT_A_POWER_UP)
#: "150% speed", "50% faster", "20% slower"
_PERCENT = re.compile(r"(?P<pct>\d{1,3})\s?%\s?(?:(?P<of>speed|pace|geschwindigkeit|snelheid|vitesse|velocidad|velocità|"
                      r"velocidade)|" + _DIRECTION + ")" + _NOT_A_POWER_UP)

#: what a pace asked of one thing is about, when the games' one pace cannot carry it ("grows twice as fast")
_ABOUT_ONE_THING = (
    "grow*", "spawn*", "fill*", "charge*", "recharge*", "regenerat*",
    "heal*", "multipl*", "wächst", "wachsen", "groeit", "groeien", "grandit", "crece", "crecen", "cresce", "crescono",
    "crescem", "растёт", "растет", "росте", "rośnie", "büyür", "uzar", "dài ra",
)


_ONE_PACE = "the embedded games have one pace for everything in them"
_LEFT = "the pace is left as it was"


def of_one_thing(verb: str, said: str) -> str:
    """What cannot be carried, when a pace is asked of one thing ("grows twice as fast")."""
    return f"{verb} {said}: {_ONE_PACE}, so one thing's pace cannot be set apart; {_LEFT}"


class Pace(BaseModel):
    """The pace a text asks for, and what of it the embedded games cannot carry."""

    factor: float | None = Field(default=None, description="times the game's normal pace; None: normal")
    said: str = Field(default="", description="the words it was read from")
    stated: bool = Field(default=False, description="a factor the text states, which the spec carries as a number")
    spans: list[tuple[int, int]] = Field(default_factory=list, description="where factors were read (not other numbers)")
    unhonoured: list[str] = Field(default_factory=list)
    apart: list[tuple[str, str]] = Field(default_factory=list, description=(
        "of the unhonoured lines, those only the embedded games' one pace makes so (a pace asked of one thing, or "
        "fast and slow at once), with the text's words: an agent may build them, and no criterion measures them"))

    def _apart(self, said: str, line: str) -> None:
        self.unhonoured.append(line)
        self.apart.append((said, line))


def _value(m: re.Match[str]) -> float:
    groups = m.groupdict()
    digits = groups.get("digits") or groups.get("times_digits")
    if digits:
        return float(digits.replace(",", "."))
    if groups.get("count"):
        return _COUNTS[re.sub(r"[\s\-]+", " ", groups["count"])]
    return _WORDS[re.sub(r"[\s\-]+", " ", groups["word"] or "")]


_LAST_WORD = re.compile(r"([^\W\d_]+)(?:\s+(?:very|much|really|super|so|too|even|way|sehr|viel|heel|veel|très|muy|molto|"
                        r"muito|очень|bardzo|çok|rất))*\s+$")


def about_one_thing(text: str, start: int) -> str | None:
    """The verb just before a pace ("grows", "spawn"), when the pace is said of one thing, not of the game."""
    m = _LAST_WORD.search(text[max(0, start - 60):start])
    hit = find_any(m.group(1), _ABOUT_ONE_THING) if m else None
    return hit[1] if hit else None


def _factors(text: str) -> list[tuple[int, int, float]]:
    """Every stated factor, as (start, end, times the normal pace)."""
    found: list[tuple[int, int, float]] = []
    for m in _PERCENT.finditer(text):
        pct = int(m.group("pct")) / 100
        found.append((m.start(), m.end(), pct if m.group("of") else 1 + pct if m.group("fast") else 1 - pct))
    for rx in (_FACTOR_FIRST, _DIRECTION_FIRST):
        for m in rx.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            value = _value(m)
            found.append((m.start(), m.end(), value if m.group("fast") else 1 / value if value else 0.0))
    return sorted(f for f in found if f[2] > 0)


#: how long a game is, not how fast it plays: "a quick game of snake", "een snel potje", "eine schnelle Runde",
#: "une partie rapide", "una partida rápida", "быстрая партия" (a word for a round, never "game" where it can mean
#: a fast-paced one: "ein schnelles Spiel" is fast), and "快速来一局" in Chinese
_SHORT = re.compile(r"(?<![^\W\d_])(?:" + "|".join((
    r"(?:quick|snel|snelle)\s+(?:little\s+|short\s+)?(?:game|round|match|session|play|break|potje|spelletje)",
    r"schnelle[sn]?\s+(?:runde|partie|spielchen)",
    r"(?:partie|manche)\s+rapide",
    r"(?:partida|ronda|rodada)\s+r[áa]pida",
    r"partita\s+(?:veloce|rapida)",
    r"быстр(?:ая|ую)\s+парти[яю]|быстрый\s+раунд",
    r"швидк[ау]\s+парті[яю]|швидкий\s+раунд",
    r"szybk[aą]\s+(?:partia|partię|partyjka|partyjkę|runda|rundę)",
    r"hızlı\s+(?:bir\s+)?(?:tur|el)",
    r"ván\s+nhanh",
    r"빠른\s*한\s*판",
)) + r")(?![^\W\d_])"
    # Chinese, without word boundaries: "快速来一局", "来一局快速的" (Japanese says it without a fast word: サクッと)
    r"|快速?(?:地|的)?(?:来|來|玩|打)?(?:一|1)?(?:局|把|盘|盤)|(?:来|來|玩|打)?(?:一|1)(?:局|把|盘|盤)快速的?")


@lru_cache(maxsize=1)
def _slow_motion() -> tuple[str, ...]:
    """The slow-motion extra's words, blanked before a pace is read. Imported when first asked: the catalogue
    reads the genre registry, which the number and steering readers that import pace do not all need."""
    from crumb.actors.embedded.catalogue import EXTRAS

    return next(e.keywords for e in EXTRAS if e.id == "slow motion")


def read_pace(text: str) -> Pace:
    """The pace a normalized text asks for: its first stated factor that is about the whole game, else the step
    of its pace words; what is asked of one thing, or two ways at once, is named and left at normal."""
    pace = Pace()
    for start, end, value in _factors(text):
        pace.spans.append((start, end))
        said = text[start:end]
        verb = about_one_thing(text, start)
        if verb:
            pace._apart(f"{verb} {said}", of_one_thing(verb, said))
        elif not pace.stated:
            pace.factor, pace.said, pace.stated = min(HIGHEST, max(LOWEST, value)), said, True
            if pace.factor != value:
                pace.unhonoured.append(f"{said}: the games play at {LOWEST:g}–{HIGHEST:g} × their pace, so at "
                                       f"{pace.factor:g} ×")
        elif min(HIGHEST, max(LOWEST, value)) != pace.factor:
            pace.unhonoured.append(f"{said} as well: a game has one pace, so the first, {pace.said!r}, is kept")
    if pace.stated:
        return pace
    rest = _SHORT.sub(lambda m: " " * len(m.group(0)), text)  # "a quick game": a short one, not a fast one
    rest = blank_keywords(rest, _slow_motion())  # a mechanic of its own, not the game's pace
    for s, e in pace.spans:  # the words of a factor are not a pace word again
        rest = rest[:s] + " " * (e - s) + rest[e:]
    fast, slow = find_any(rest, FAST), find_any(rest, SLOW)
    fast_verb = about_one_thing(rest, fast[0]) if fast else None
    slow_verb = about_one_thing(rest, slow[0]) if slow else None
    for verb, hit in ((fast_verb, fast), (slow_verb, slow)):
        if verb and hit:
            pace._apart(f"{verb} {hit[1]}", of_one_thing(verb, hit[1]))
    fast = None if fast_verb else fast
    slow = None if slow_verb else slow
    if fast and slow:
        pace._apart(f"{fast[1]} and {slow[1]} at once", f"both {fast[1]!r} and {slow[1]!r}: {_ONE_PACE}, so they "
                                                        f"cannot be fast and slow at once; {_LEFT}")
    elif fast:
        pace.factor, pace.said = FAST_STEP, fast[1]
    elif slow:
        pace.factor, pace.said = SLOW_STEP, slow[1]
    return pace
