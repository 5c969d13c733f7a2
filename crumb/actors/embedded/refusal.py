"""Whether a text refuses what a keyword names: "no sound", "without power-ups", "turn off the music",
"Snake ohne Ton", "サウンドなし". An extra refused is not an extra asked for: before, "pong without sound"
built pong with its sound on, and "turn off the sound" turned it on. A genre refused is not named by the
pitch ("a runner, not a platformer").

Pure: regexes over normalized text (text.normalize), the language's own order kept (a word before the
keyword in most languages, after it in Japanese, Korean and Turkish).
"""

from __future__ import annotations

import re
from functools import lru_cache

#: words that refuse what follows them, a few little words apart at most ("no more bosses", "sans le son")
_NEGATIONS = ("no", "not", "without", "w/o", "never", "zero", "geen", "zonder", "kein", "keine", "keinen", "keiner",
              "ohne", "senza", "niente", "nessun", "nessuna", "nessuno", "sin", "nada de", "ningún", "ninguna", "sans",
              "pas de", "aucun", "aucune", "sem", "nenhum", "nenhuma", "без", "нет", "немає", "bez", "żadnych",
              "żadnego", "żadnej", "không", "không có")
#: "not" before a verb is a rule of play ("bombs you must not slice"): a genre's word is refused by these only
_NOT_FOR_GENRES = ("but not", "and not", "not a", "not an", "or not")
#: verbs that take a thing away: an extra, not a genre ("remove the lines" is how Tetris is played)
_TAKE_AWAY = ("turn off", "turned off", "switch off", "switched off", "disable", "disabled", "remove", "removed",
              "mute", "muted", "get rid of", "zet uit", "togli", "rimuovi", "disattiva", "quita", "quitar",
              "desactiva", "enlève", "enlever", "désactive", "coupe", "desliga", "desativa", "убери", "уберите",
              "отключи", "выключи", "прибери", "вимкни", "usuń", "wyłącz", "tắt")
#: little words that may stand between the refusing word and the keyword
_BETWEEN = ("the", "a", "an", "any", "all", "more", "extra", "of", "het", "de", "een", "die", "der", "das", "den",
            "dem", "il", "lo", "la", "i", "gli", "le", "l'", "el", "los", "las", "un", "una", "les", "du", "des",
            "o", "os", "as", "um", "uma", "di", "del", "della", "dei", "delle", "do", "da", "dos", "das")
#: words after the keyword that refuse it ("Snake olmadan"; with the verbs: "sound off", "Ton aus", "sesi kapat")
_AFTER = ("olmadan", "yok")
_AFTER_TAKE_AWAY = ("off", "aus", "uit", "kapalı", "kapat", "desligado", "desactivado", "désactivé", "disattivato",
                    "выкл", "выключен", "отключен", "вимкнено")
#: CJK: no spaces, so the refusing word touches the keyword (before in Chinese, after in Japanese and Korean)
_CJK_BEFORE = ("不要", "没有", "沒有", "无", "無", "不带", "不帶", "不用")
_CJK_BEFORE_TAKE_AWAY = ("去掉", "关闭", "關閉", "关掉", "關掉", "取消")
_CJK_AFTER = ("なし", "無し", "抜き", "없이", "없는", "없음", "빼고", "제외")
_CJK_AFTER_TAKE_AWAY = ("オフ", "を消", "を切", "끄기", "끄고", "关闭", "關閉")
#: what joins a list of refused things: "no sound or particles" refuses both
_JOIN = ("or", "and", "nor", "oder", "und", "noch", "of", "en", "o", "e", "ed", "y", "ni", "ou", "et", "или", "и",
         "ни", "lub", "ani", "i", "veya", "ve", "hoặc", "và", "або", "чи")


#: languages where a refusing word means something else: Portuguese "no" is "in the" ("inspirado no Angry Birds")
_NOT_REFUSING = {"pt": ("no",)}


def _alternatives(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


class _Reader:
    """The refusal patterns for one set of words: negations alone (a genre), or with the take-away verbs
    (an extra), each without the words a language uses for something else."""

    def __init__(self, verbs: bool, language: str | None) -> None:
        def words(base: tuple[str, ...], more: tuple[str, ...]) -> str:
            kept = tuple(w for w in (*base, *(more if verbs else ())) if w not in _NOT_REFUSING.get(language or "", ()))
            if not verbs and "not" in kept:
                kept = (*(w for w in kept if w != "not"), *_NOT_FOR_GENRES)
            return _alternatives(kept)

        between = _alternatives(_BETWEEN)
        after_comma = "" if verbs else r"|,\s*not"  # "a match-3, not tetris"
        self.before = re.compile(rf"(?:(?<![^\W\d_])(?:{words(_NEGATIONS, _TAKE_AWAY)}){after_comma})\s+"
                                 rf"(?:(?:{between})\s+){{0,2}}$")
        self.after = re.compile(rf"\s*[:=]?\s*(?:{words(_AFTER, _AFTER_TAKE_AWAY)})(?![^\W\d_])")
        self.cjk_before = re.compile(rf"(?:{words(_CJK_BEFORE, _CJK_BEFORE_TAKE_AWAY)})(?:的|任何)?\s*$")
        self.cjk_after = re.compile(rf"\s*(?:は|を|が|이|가|을|를|은|는)?\s*(?:{words(_CJK_AFTER, _CJK_AFTER_TAKE_AWAY)})")


@lru_cache(maxsize=8)
def _reader(verbs: bool, language: str | None) -> _Reader:
    return _Reader(verbs, language if language in _NOT_REFUSING else None)


_JOINED_RE = re.compile(rf"^\s*(?:,|/|&|、|，|(?:{_alternatives(_JOIN)})(?![^\W\d_]))\s*(?:(?:{_alternatives(_BETWEEN)})\s+){{0,2}}$")

#: how far before a keyword its refusing word may be (the longest refusal and two little words)
_REACH = 40


def refused(text: str, start: int, end: int, language: str | None = None, *, verbs: bool = True) -> bool:
    """Whether the keyword found at text[start:end] is refused by the words around it, read in `language`
    when it is known (None: every language's refusing words count). `verbs`: a verb that takes a thing
    away refuses it too ("turn off the sound"); not for a genre, which is played by removing things."""
    r = _reader(verbs, language)
    before = text[max(0, start - _REACH):start]
    return bool(r.before.search(before) or r.cjk_before.search(before) or r.after.match(text, end)
                or r.cjk_after.match(text, end))


def joined(text: str, end: int, start: int) -> bool:
    """Whether text[end:start] only joins two items of a list ("no sound or music": the second is refused
    with the first)."""
    return bool(_JOINED_RE.match(text[end:start]))
