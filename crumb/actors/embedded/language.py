"""Which language a pitch is written in, and whether the embedded studio reads it: the one place that
decides (detect_language is this, for a raw text).

Scripts decide for Japanese (kana), Korean (Hangul) and Chinese (Han; simplified or traditional by
its characters). For Latin and Cyrillic text a trained detector decides: lingua, which ships its own
models and needs no network, told apart among every language the studio reads plus a few it does
not (so a Swedish or Czech pitch is named as foreign instead of being read as its neighbour). On a
short text only a confident answer counts; a text too short to tell is read as English and says so.

Two tie-breaks follow the detector, neither a stop-word list. A language whose alphabet lacks a letter
the text uses ("ę" is Polish, never Czech) cannot be the answer while another candidate has them all.
And on a pitch of a few words, where the detector guesses (it calls "blocs qui tombent" Hungarian),
the genre folders' own words decide: a word only one language's genre words know ("serpiente",
"taupe", "бий") names that language, if it is written in the text's script. On a longer pitch those words
decide only a near tie of the detector's top two (under NEAR_TIE, "Comecocos en un laberinto con fantasmas"). A
language the studio does not read is claimed only on a sentence, never on a few words.

The detector's quick (trigram) models misread short English: to them "a cozy snake game with combo bonus"
is Turkish at 0.98. So a Latin-script text of under 20 words they call another language than English is
put to lingua's full models of those two languages, and is English if they say so.

Cost (bench/languages.py measures it): the first call that asks the detector loads the models (~0.14 s
in lingua's low-accuracy mode, holding the interpreter lock; a pitch of a few words that the genre words
decide alone never asks it); later calls take tens of microseconds. The full models of English and of a
language the quick ones named load the first time a short pitch needs them (~0.5 s, ~45 MB for English
and 15-50 MB a language) and are kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from crumb.actors.embedded.number_words import ONLY_IN, language_words
from crumb.actors.embedded.text import blank_keywords, keyword_core, keyword_re, normalize
from crumb.genres import LANGUAGES
from crumb.genres.registry import Registry, registry
from crumb.protocol.game import LanguageReading

if TYPE_CHECKING:
    from lingua import LanguageDetector

#: languages the detector tells apart beyond the ones the studio reads (so they are recognised as foreign)
FOREIGN = ("sv", "da", "id", "cs", "hu", "ro", "bg")
#: the scripts that decide by themselves; every other language is the detector's
BY_SCRIPT = ("zh-Hans", "zh-Hant", "ko", "ja")
NAMES = {
    "en": "English", "nl": "Dutch", "de": "German", "it": "Italian", "zh-Hans": "Chinese (simplified)",
    "zh-Hant": "Chinese (traditional)", "ko": "Korean", "ja": "Japanese", "es": "Spanish", "fr": "French",
    "pt": "Portuguese", "pl": "Polish", "tr": "Turkish", "vi": "Vietnamese", "ru": "Russian", "uk": "Ukrainian",
    "sv": "Swedish", "da": "Danish", "id": "Indonesian", "cs": "Czech", "hu": "Hungarian", "ro": "Romanian",
    "bg": "Bulgarian",
}
#: the confidence a detection needs, by how many words the text has: one or two words are easily
#: mistaken (lingua reads "snake" as Hungarian at 0.57), a sentence rarely is
SURE_SHORT = 0.9   # fewer than 3 words
SURE_MEDIUM = 0.7  # 3 or 4 words
SURE_LONG = 0.5    # 5 words or more
#: a language the studio does not read is claimed only this sure, on this many words: naming a pitch
#: foreign costs its PASS
SURE_FOREIGN = 0.8
FOREIGN_WORDS = 5
#: the detector reads this much of a text: a paragraph says its language as surely as a page, in
#: a tenth of the time
DETECT_CHARS = 2000
#: below this many words the genre folders' words of one language outvote the detector (which, on
#: "blocs qui tombent", gives French 0.002)
FEW_WORDS = 6
#: a detection on a text of FEW_WORDS or more that is less sure than this is a near tie: if the genre words of one of
#: its top two languages alone appear in the text, that one is the answer (lingua calls "Comecocos en un laberinto
#: con fantasmas, tres vidas" Portuguese at 0.54, Spanish at 0.46)
NEAR_TIE = 0.7
#: below this many words, a text the quick models call another language than English is put to the full models
#: of those two (see detect): the quick ones call 1 in 10 short English pitches another language
#: (bench/languages.py), and still about 1 in 400 of 13 to 19 words
CONFIRM_WORDS = 20

#: letters beyond a–z each Latin-script language writes (generous: loan words keep their accents);
#: Cyrillic languages list the letters of the shared block they do not write
_LATIN_LETTERS = {
    "en": "éèêëàâäïîôöüûçñ",
    "nl": "éèêëàáäïíóöüúç",
    "de": "äöüßéèàç",
    "it": "àèéìíîòóùúç",
    "es": "áéíóúñüç",
    "fr": "àâæçéèêëîïôœùûüÿ",
    "pt": "áâãàçéêíóôõúü",
    "pl": "ąćęłńóśźżé",
    "tr": "çğıöşüâîûé",
    "vi": "àáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ",
    "sv": "åäöéü",
    "da": "æøåéü",
    "id": "é",
    "cs": "áčďéěíňóřšťúůýž",
    "hu": "áéíóöőúüű",
    "ro": "ăâîșțşţ",
}
_CYRILLIC_LACKS = {"ru": "іїєґ", "uk": "ыэъё", "bg": "ыэёіїєґ"}
_WORD = re.compile(r"[^\W\d_]{2,}")
_LETTER = re.compile(r"[^\W\d_]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_SIMPLIFIED = set("头际猫鱼页应该选择数设计战敌枪弹场连线输赢进颗墙币这们戏游时间条个贪动块砖鸟击飞颜红蓝绿黄关级钟边让说发难样为会乐记忆叠层过还后里两对开从门风龙马电车东见长问题话语认识实现点机体国图宝宫岛惊无尽跑觉")
_TRADITIONAL = set("頭際貓魚頁應該選擇數設計戰敵槍彈場連線輸贏進顆牆幣這們戲遊時間條個貪動塊磚鳥擊飛顏紅藍綠黃關級鐘邊讓說發難樣為會樂記憶疊層過還後裡兩對開從門風龍馬電車東見長問題話語認識實現點機體國圖寶宮島驚無盡覺")


def _script(t: str) -> tuple[str, str] | None:
    if re.search(r"[\u3040-\u30ff]", t):
        return "ja", "its script (kana)"
    if re.search(r"[\uac00-\ud7af]", t):
        return "ko", "its script (Hangul)"
    han = re.findall(r"[\u3400-\u9fff]", t)
    if han:
        simp = sum(1 for c in han if c in _SIMPLIFIED)
        trad = sum(1 for c in han if c in _TRADITIONAL)
        return ("zh-Hant", "its script (traditional Han)") if trad > simp else ("zh-Hans", "its script (Han)")
    return None


def detected_languages() -> tuple[str, ...]:
    """The codes the detector chooses among: every language read by its words, then the foreign ones."""
    return (*(c for c in LANGUAGES if c not in BY_SCRIPT), *FOREIGN)


@lru_cache(maxsize=1)
def _detector() -> LanguageDetector:
    """Built once per process; the models load on first use (bench/languages.py measures it)."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    langs = [Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in detected_languages()]
    return LanguageDetectorBuilder.from_languages(*langs).with_low_accuracy_mode().build()


def _writes(lang: str, letters: set[str]) -> bool:
    """Whether a language's alphabet has every non-ASCII letter of the text."""
    if lang in _CYRILLIC_LACKS:
        return not letters & set(_CYRILLIC_LACKS[lang])
    extra = set(_LATIN_LETTERS.get(lang, ""))
    return all(ch in extra for ch in letters if "\u00c0" <= ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff")


def ranked(text: str) -> list[tuple[str, float]]:
    """The detector's candidates for a (normalized) text, best first, with its confidence; a candidate
    whose alphabet lacks one of the text's letters goes last when another has them all."""
    text = text[:DETECT_CHARS]
    values = [(v.language.iso_code_639_1.name.lower(), float(v.value))
              for v in _detector().compute_language_confidence_values(text)]
    letters = _non_ascii_letters(text)
    if not letters:
        return values
    fits = [(c, v) for c, v in values if _writes(c, letters)]
    if not fits or fits[0][0] == values[0][0]:
        return values
    total = sum(v for _, v in fits) or 1.0
    kept = {c for c, _ in fits}
    return [(c, v / total) for c, v in fits] + [(c, 0.0) for c, _ in values if c not in kept]


#: number words that are ordinary words of another read language ("dos": Portuguese "of the"), besides ONLY_IN's
_NUMBER_WORDS_ELSEWHERE = frozenset({"dos", "sei", "null", "nul", "cent", "cents"})


@lru_cache(maxsize=4)
def _vocabulary(reg: Registry) -> dict[str, tuple[str, ...]]:
    """Per language the detector decides, every keyword and name its genre folders give, and its number words
    ("drei", "trois"): a short pitch names its genre in English as often as not ("Snake mit drei Leben")."""
    out: dict[str, set[str]] = {}
    ordinary = _NUMBER_WORDS_ELSEWHERE.union(*ONLY_IN.values())
    for lang, numbers in language_words().items():
        if lang in LANGUAGES and lang not in BY_SCRIPT:
            out.setdefault(lang, set()).update(w for w in numbers if len(w) > 2 and w not in ordinary)
    for g in reg.genres:
        for lang, w in g.genre.words.items():
            if lang in LANGUAGES and lang not in BY_SCRIPT:
                out.setdefault(lang, set()).update(w.strong, w.weak, w.verbs)
        for lang, name in g.genre.names.items():
            if lang in LANGUAGES and lang not in BY_SCRIPT:
                out.setdefault(lang, set()).add(name.lower())
    return {lang: tuple(sorted(kws)) for lang, kws in out.items()}


@lru_cache(maxsize=4)
def _english_names(reg: Registry) -> tuple[str, ...]:
    """The English words that name a genre outright (its strong words, name and famous titles, longest first):
    loanwords in any language ("Flappy Bird unter Wasser")."""
    names = {kw for g in reg.genres if "en" in g.genre.words
             for kw in (*g.genre.words["en"].strong, *g.genre.famous, g.genre.name.lower())}
    return tuple(sorted(names, key=lambda kw: (-len(kw), kw)))


#: words only English of the read languages uses, that glue a pitch together: "snake with three lives" is English
_ENGLISH_GLUE = frozenset({"with", "the", "and", "for", "where", "you", "your", "but", "that", "this", "game", "games",
                           "lives", "levels", "seconds", "points", "clone", "like", "style"})


def _without_english_names(text: str) -> str:
    return blank_keywords(text, _english_names(registry()))


def own_words(text: str) -> dict[str, list[str]]:
    """Per language, the words of a (normalized) text that only that language's genre and number words know."""
    tokens = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    owners: list[set[str]] = [set() for _ in tokens]
    for lang, keywords in _vocabulary(registry()).items():
        for kw in keywords:
            if keyword_core(kw) not in text:
                continue
            for m in keyword_re(kw).finditer(text):
                for i, (start, end, _) in enumerate(tokens):
                    if start < m.end() and end > m.start():
                        owners[i].add(lang)
    out: dict[str, list[str]] = {}
    for (_, _, word), langs in zip(tokens, owners, strict=True):
        if len(langs) == 1:
            out.setdefault(next(iter(langs)), []).append(word)
    return out


def _by_own_words(text: str, unnamed: str,
                  candidates: Callable[[], list[tuple[str, float]]]) -> tuple[str, float | None, list[str]] | None:
    """The language of the text's script whose genre words alone the text uses most; the detector's
    candidates are asked for (and its models loaded: ~0.14 s, the first time) only to break a tie,
    and its confidence is then given too. `unnamed`: the text without English game names (detect makes it once)."""
    cyrillic = len(_CYRILLIC.findall(text)) > len(re.findall(r"[a-z\u00c0-\u024f\u1e00-\u1eff]", text))
    own = {lang: w for lang, w in own_words(text).items() if (lang in _CYRILLIC_LACKS) == cyrillic}
    if not own:
        return None
    most = max(len(w) for w in own.values())
    leaders = [lang for lang, w in own.items() if len(w) == most]
    if "en" in leaders and not own_words(unnamed).get("en") and not _ENGLISH_GLUE.intersection(_WORD.findall(unnamed)):
        # "Snake con tre vite", "Snake für Kinder": an English game name is said in every language; "tre" is not
        leaders.remove("en")
        if not leaders:
            return None  # the game's name alone tells nothing: the detector reads the rest
    if len(leaders) == 1:
        return leaders[0], None, own[leaders[0]]
    conf = dict(candidates())
    lang = max(leaders, key=lambda c: conf.get(c, 0.0))
    return lang, conf.get(lang, 0.0), own[lang]


def sure_at(words: int) -> float:
    """The confidence a detection needs on a text of this many words."""
    return SURE_SHORT if words < 3 else SURE_MEDIUM if words < 5 else SURE_LONG


def detect(text: str, unsure: str = "en") -> LanguageReading:
    """The pitch's language, the language it is read as, and how that was decided (text is normalized).
    `unsure` is what a text with too few clues is read as: English for a pitch, the session's own
    language for a steering message ("3 can" in a Turkish session is three lives)."""
    unsure = unsure if unsure in LANGUAGES else "en"
    by_script = _script(text)
    if by_script:
        lang, how = by_script
        return LanguageReading(language=lang, read_as=lang, recognised=True, how=f"{NAMES[lang]}, by {how}")
    words = len(_WORD.findall(text))
    if not words:
        return LanguageReading(language=unsure, read_as=unsure, recognised=True,
                               how=f"too few clues to tell the language: read as {NAMES[unsure]}")

    # a short pitch's English game name ("Flappy Bird unter Wasser") says nothing of its language: the rest does
    unnamed = _without_english_names(text) if words < FEW_WORDS else text
    rest = unnamed if _WORD.search(unnamed) else text

    @cache  # asked at most once, and only if the genre words leave it open
    def candidates() -> list[tuple[str, float]]:
        ranks = ranked(rest)
        if words < FOREIGN_WORDS:  # too few words to claim a foreign language: only the read ones compete
            read = [(c, v) for c, v in ranks if c in LANGUAGES]
            total = sum(v for _, v in read)
            ranks = [(c, v / total) for c, v in read] if total > 0 else read
        return ranks

    if 1 < words < FEW_WORDS:  # one word is a guess whatever it is, and is said to be one
        mine = _by_own_words(text, unnamed, candidates)
        if mine:
            lang, conf, said = mine
            detector = "" if conf is None else f" alone ({conf:.2f})"
            return LanguageReading(language=lang, read_as=lang, recognised=True,
                                   how=f"{NAMES[lang]}, by its words ({', '.join(said)}) on a pitch too short "
                                       f"for the language detector{detector}")
    need = sure_at(words)
    top = next(((c, v) for c, v in candidates() if v >= need and (
        c in LANGUAGES or (v >= max(need, SURE_FOREIGN) and words >= FOREIGN_WORDS))), None)
    if top is None:
        # not sure of anything: Cyrillic text is still Cyrillic, so its best reading is kept
        cyrillic = next(((c, v) for c, v in candidates() if c in _CYRILLIC_LACKS and c in LANGUAGES), None)
        if cyrillic and _CYRILLIC.search(text):
            lang, conf = cyrillic
            return LanguageReading(language=lang, read_as=lang, recognised=True,
                                   how=f"{NAMES[lang]}, the language detector's best guess ({conf:.2f}) for Cyrillic text")
        return LanguageReading(language=unsure, read_as=unsure, recognised=True,
                               how=f"too few clues to tell the language: read as {NAMES[unsure]}")
    lang, confidence = top
    if lang != "en" and words < CONFIRM_WORDS and _could_be_english(text):
        best, full = _between(lang, rest)
        if best == "en":
            return LanguageReading(language="en", read_as="en", recognised=True,
                                   how=f"English, by the language detector's full models ({full:.2f}); its quick "
                                       f"models had said {NAMES.get(lang, lang)} ({confidence:.2f})")
    if words >= FEW_WORDS and confidence < NEAR_TIE:
        near = _near_tie(text, lang, candidates())
        if near:
            other, said = near
            return LanguageReading(language=other, read_as=other, recognised=True,
                                   how=f"{NAMES[other]}, by its words ({', '.join(said)}) where the language detector "
                                       f"was torn ({NAMES.get(lang, lang)} {confidence:.2f})")
    if lang in LANGUAGES:
        return LanguageReading(language=lang, read_as=lang, recognised=True,
                               how=f"{NAMES[lang]}, by the language detector ({confidence:.2f})")
    return LanguageReading(
        language=lang, read_as="en", recognised=False,
        how=(f"the pitch is in {NAMES.get(lang, lang)} (language detector, {confidence:.2f}), which the embedded "
             f"studio does not read yet: it was read with the English words it knows, so a stated number "
             f"or wish may have been missed"))


def _near_tie(text: str, top: str, ranks: list[tuple[str, float]]) -> tuple[str, list[str]] | None:
    """The runner-up of a near tie, with its words, when only its genre words (not the top's) are in the text."""
    second = next((c for c, _ in ranks if c != top), None)
    if second not in LANGUAGES:
        return None
    own = own_words(text)
    return (second, own[second]) if second in own and top not in own else None


def _could_be_english(text: str) -> bool:
    """Latin script, with no letter English does not write."""
    return not _CYRILLIC.search(text) and _writes("en", _non_ascii_letters(text))


def _non_ascii_letters(text: str) -> set[str]:
    return {ch for ch in _LETTER.findall(text) if not ch.isascii()}


def _between(lang: str, text: str) -> tuple[str, float]:
    """Whether a text is in `lang` or in English, by lingua's full models (1- to 5-grams, where the quick mode
    has trigrams only) of those two."""
    best = _full(lang).compute_language_confidence_values(text[:DETECT_CHARS])[0]
    return best.language.iso_code_639_1.name.lower(), float(best.value)


@cache
def _full(lang: str) -> LanguageDetector:
    """A detector of `lang` and English with their full models, built once per process: they load on first use
    (~0.45 s and ~45 MB for English, shared by every pair, and 0.1-0.4 s and 15-50 MB for the other language),
    so only the first short pitch in a language pays for them."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    pair = [Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in (lang, "en")]
    return LanguageDetectorBuilder.from_languages(*pair).build()


def detect_language(text: str, unsure: str = "en") -> str:
    """The language a raw text is read with (normalised first; see detect for how)."""
    return detect(normalize(text), unsure).read_as
