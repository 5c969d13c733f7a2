"""What a pitch says, read with keyword knowledge (no model): the genres it names or describes
(including ones the embedded studio cannot build), its theme, colours, extras and knobs, its title,
its numbers (crumb.actors.embedded.numbers); and a person's wish for another genre in feedback or steering.

Pure and deterministic; any text gives a Reading.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, Field

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded import refusal
from crumb.actors.embedded.language import detect
from crumb.actors.embedded.numbers import NumberRead, read_numbers
from crumb.actors.embedded.pace import PACE_WORDS
from crumb.actors.embedded.text import (
    MAX_TEXT,
    blank_keywords,
    consume,
    find_any,
    is_cjk,
    longest_first,
    normalize,
    words_holding,
)
from crumb.actors.embedded.unbuilt import UNBUILT
from crumb.protocol.game import LanguageReading

# ---------------------------------------------------------------- genre, theme, extras


class GenreScore(BaseModel):
    genre: str
    score: float
    first: int
    words: list[str]
    refused: list[str] = Field(default_factory=list, description="its words the text refuses ('pac-man without ghosts')")


@lru_cache(maxsize=2)
def _genre_keywords(weak: bool) -> list[tuple[str, list[tuple[str, float]]]]:
    """Keywords, longest first, each with every (genre, weight) that lists it."""
    table: dict[str, list[tuple[str, float]]] = {}
    for g in cat.genres():
        for kw in g.strong:
            table.setdefault(kw, []).append((g.id, 3.0))
        for kw in g.weak if weak else ():
            table.setdefault(kw, []).append((g.id, 1.0))
    return longest_first(table.items())


def score_genres(text: str, *, weak: bool = True, language: str | None = None) -> list[GenreScore]:
    """Genres named in normalized text, best first. A longer keyword consumes its span, so
    "ブロック崩し" counts for breakout and not again as "ブロック" for blocks; a genre the text refuses
    ("a runner, not a platformer") is not named by it; a word refused of a genre named otherwise is kept in
    its `refused` ("pac-man without ghosts": the game has ghosts)."""
    found: dict[str, GenreScore] = {}
    refused: dict[str, list[str]] = {}
    for _, owners, spans in consume(text, _genre_keywords(weak)):
        said = next(((s, e) for s, e in spans if not refusal.refused(text, s, e, language, verbs=False)), None)
        if said is None:
            for genre, _ in owners:
                refused.setdefault(genre, []).append(text[spans[0][0]:spans[0][1]])
            continue
        for genre, weight in owners:
            gs = found.setdefault(genre, GenreScore(genre=genre, score=0, first=said[0], words=[]))
            gs.score += weight
            gs.first = min(gs.first, said[0])
            gs.words.append(text[said[0]:said[1]])
    for genre, words in refused.items():
        if genre in found:
            found[genre].refused = words
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
    return longest_first(table.items())


@lru_cache(maxsize=1)
def _genre_words_holding_unbuilt() -> tuple[str, ...]:
    """The catalogue's strong words that hold an unbuilt genre's word: "corsa infinita" (an endless run, a
    runner) holds "corsa" (a race)."""
    return words_holding((kw for kw, _ in _genre_keywords(False)), (kw for kw, _ in _unbuilt_keywords()))


def score_unbuilt(text: str) -> tuple[list[GenreScore], str]:
    """Genres the embedded studio cannot build that normalized text asks for, best first, and the
    text with their names blanked (so a name is not read again as a catalogue genre's word). A catalogue
    genre's longer word that holds one is the catalogue's ("corsa infinita" is a runner, not a race)."""
    work = blank_keywords(text, _genre_words_holding_unbuilt())
    found: dict[str, GenreScore] = {}
    names = {kw for g in UNBUILT for kw in g.names}
    blanked = text
    for kw, owners, spans in consume(work, _unbuilt_keywords()):
        if kw in names:
            for s, e in spans:
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
    r"|\b(?:appuie|appuyez|appuyer)\s+sur\s+(?:la\s+)?(?:barre\s+d')?espace\b|\btouche\s+espace\b|\bbarre\s+d'espace(?:ment)?\b"
    r"|\bbarra\s+(?:espaciadora|de\s+espaço)\b|\btecla\s+(?:de\s+)?espa(?:cio|ço)\b"
)


@lru_cache(maxsize=1)
def _subjects_holding_themes() -> tuple[str, ...]:
    """The words of things to see that hold a theme's shorter word: 火车 (a train) holds the lava theme's 火,
    海盗 (a pirate) the sea's 海, 吸血鬼 (a vampire) the ghosts' 鬼."""
    from crumb.actors.embedded.subjects import subject_keywords

    return words_holding(subject_keywords(), [kw for t in cat.THEMES for kw in t.keywords])


def find_theme(text: str, language: str | None = None, *, refused: bool = False) -> tuple[cat.ThemeEntry, str] | None:
    """The theme a normalized text names first; a thing to see whose word holds a theme's is not that theme,
    and a theme's word refused ("pac-man without ghosts", read in `language`: "no deserto" is in the desert)
    does not ask for it. `refused`: the first theme the text refuses instead ("no more neon")."""
    text = _SPACE_KEY.sub(" ", text)
    if _first_theme(text, language, refused) is None:  # most pitches name none: the table of words holding one is not needed
        return None
    return _first_theme(blank_keywords(text, _subjects_holding_themes()), language, refused)


def _first_theme(text: str, language: str | None, refused: bool) -> tuple[cat.ThemeEntry, str] | None:
    best: tuple[int, cat.ThemeEntry, str] | None = None
    for t in cat.THEMES:
        hit = find_any(text, t.keywords)
        if hit and (best is None or hit[0] < best[0]) and \
                refusal.refused(text, hit[0], hit[0] + len(hit[1]), language) == refused:
            best = (hit[0], t, hit[1])
    return (best[1], best[2]) if best else None


def find_colours(text: str) -> list[tuple[cat.ColourEntry, str]]:
    hits = []
    for c in cat.COLOURS:
        hit = find_any(text, c.keywords)
        if hit:
            hits.append((hit[0], c, hit[1]))
    return [(c, w) for _, c, w in sorted(hits, key=lambda h: h[0])]


class ExtraWishes(NamedTuple):
    asked: list[str]
    refused: list[str]


def read_extras(text: str, language: str | None = None) -> ExtraWishes:
    """The extras a normalized text asks for, and those it refuses ("no sound", "without power-ups", and
    the rest of a list they begin: "no boss or shields"), each in the text's order."""
    hits = sorted((hit[0], hit[0] + len(hit[1]), e.id) for e in cat.EXTRAS if (hit := find_any(text, e.keywords)))
    asked: list[str] = []
    refused: list[str] = []
    last_refused = -1
    for start, end, extra in hits:
        if refusal.refused(text, start, end, language) or (last_refused >= 0 and refusal.joined(text, last_refused, start)):
            refused.append(extra)
            last_refused = end
        else:
            asked.append(extra)
    return ExtraWishes(asked, refused)


_BIG_TEXT = ("big text", "large text", "big font", "large font", "big letters", "large print", "grote letters",
             "grote tekst", "große schrift", "großer text", "grosse schrift", "testo grande", "caratteri grandi",
             "大字", "큰 글씨", "큰 글자", "大きい文字", "大きな文字", "texto grande", "letra grande", "letras grandes",
             "gros texte", "grand texte", "gros caractères", "texte en gros", "крупный текст", "крупный шрифт",
             "большой текст", "крупные буквы", "duży tekst", "duża czcionka", "duże litery", "büyük yazı", "büyük metin",
             "büyük harf*", "великий текст", "великий шрифт", "великі літери", "chữ to", "chữ lớn")


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
    r"titolo|llamad[oa]|titulad[oa]|se llama|appel[ée]e?|intitul[ée]e?|nomm[ée]e?|s'appelle|chamad[oa]|intitulad[oa]|"
    r"под названием|называется|pod tytułem|o nazwie|zatytułowan[ay]|під назвою|називається|tên là|có tên|gọi là|"
    r"叫做|叫|名为|名為|标题|標題|제목|タイトル|名前は)\s*[:：]?\s*" + _Q + "|" + _Q
    + r"\s*(?:이라는|라는|という|って|adlı|isimli|adında)"
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
    refused_extras: list[str] = Field(default_factory=list, description="extras the pitch refuses ('no power-ups')")
    title: str | None = None


@lru_cache(maxsize=1)
def _pace_words_naming_genres() -> tuple[str, ...]:
    """Pace words that hold a genre's word: "快节奏的射击游戏" is a fast-paced shooter, and 节奏 names rhythm games."""
    return words_holding(PACE_WORDS, (kw for kw, _ in _genre_keywords(True)))


def read_pitch(pitch: str) -> Reading:
    text = normalize(pitch)
    lang = detect(text)
    language = lang.read_as
    unbuilt, named_text = score_unbuilt(text)
    genres = score_genres(blank_keywords(named_text, _pace_words_naming_genres()), language=language)
    theme = find_theme(text, language)
    colours = find_colours(text)
    wishes = read_extras(text, language)
    extras = wishes.asked
    nums = read_numbers(text, language)
    untimed = find_any(text, cat.NO_TIME_LIMIT)
    if untimed and nums.numbers.time_limit_s is not None:  # "60 seconds, no timer": the stated clock is kept
        extras = [e for e in extras if e != cat.NO_CLOCK]
        nums.ignored.append(f"the pitch says both {nums.said.get('time_limit_s', '')!r} and {untimed[1]!r}: kept the first")
    if nums.pace.factor:
        extras = set_knob(extras, "speed", nums.pace.factor)
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
        refused_extras=wishes.refused,
        title=_quoted_title(quoted),
    )


# ---------------------------------------------------------------- wishes in feedback and steering

_WISH_MARKERS = (
    "instead", "make it", "turn it into", "switch to", "switch it to", "change it to", "change to", "rather",
    "i want", "i'd like", "let's do", "should be a", "maak er", "maak het", "in plaats", "liever", "verander",
    "ik wil", "stattdessen", "mach daraus", "mach es", "lieber", "ändere", "ich will", "ich möchte", "statt",
    "invece", "fallo", "falla", "trasforma", "cambia", "voglio", "preferisco", "改成", "换成", "換成", "改为", "改為",
    "变成", "變成", "我想要", "我要", "바꿔", "대신", "로 해", "으로 해", "원해", "変えて", "代わりに", "にして", "がいい",
    "en vez de", "en lugar de", "hazlo", "conviértelo", "cámbialo", "cambia a", "quiero", "prefiero", "que sea",
    "plutôt", "au lieu de", "fais-en", "transforme", "change en", "je veux", "je voudrais", "je préfère",
    "em vez de", "ao invés de", "transforma", "muda para", "mude para", "quero", "prefiro",
    "вместо", "сделай", "переделай", "хочу", "лучше", "поменяй на", "пусть будет",
    "zamiast", "zrób z tego", "zmień na", "chcę", "wolę", "niech będzie",
    "yerine", "olsun", "istiyorum", "dönüştür", "değiştir",
    "замість", "зроби", "переробі*", "краще", "нехай буде", "зміни на",
    "thay vì", "thay bằng", "đổi thành", "chuyển thành", "biến thành", "tôi muốn",
)
_OTHER_GENRE = (
    "another genre", "different genre", "other genre", "another game", "different game", "something else",
    "andere genre", "ander genre", "ander spel", "iets anders", "anderes genre", "anderes spiel", "etwas anderes",
    "altro genere", "genere diverso", "altro gioco", "qualcos'altro", "换个类型", "換個類型", "换一个", "換一個",
    "别的类型", "別的類型", "其他类型", "其他類型", "다른 장르", "다른 게임", "別のジャンル", "他のジャンル", "別のゲーム",
    "otro género", "otro juego", "otra cosa", "algo diferente", "un autre genre", "un autre jeu", "autre chose",
    "quelque chose d'autre", "outro gênero", "outro jogo", "outra coisa", "другой жанр", "другую игру", "другая игра",
    "что-то другое", "что-нибудь другое", "inny gatunek", "inną grę", "inna gra", "coś innego", "başka bir tür",
    "farklı bir tür", "başka bir oyun", "farklı bir oyun", "başka bir şey", "інший жанр", "іншу гру", "інша гра",
    "щось інше", "thể loại khác", "trò khác", "game khác",
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
            for g in cat.genres()}


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
        short = len(sentence.split()) <= 8 if not is_cjk(sentence) else len(sentence) <= 24
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

