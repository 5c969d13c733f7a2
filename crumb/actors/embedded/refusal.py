"""Whether a text refuses what a keyword names: "no sound", "without power-ups", "turn off the music",
"Snake ohne Ton", "サウンドなし". An extra refused is not an extra asked for: before, "pong without sound"
built pong with its sound on, and "turn off the sound" turned it on.

Pure: regexes over normalized text (text.normalize), the language's own order kept (a word before the
keyword in most languages, after it in Japanese, Korean and Turkish).
"""

from __future__ import annotations

import re

#: words that refuse what follows them, a few little words apart at most ("no more bosses", "sans le son")
_BEFORE = ("no", "not", "without", "w/o", "never", "zero", "turn off", "turned off", "switch off", "switched off",
           "disable", "disabled", "remove", "removed", "mute", "muted", "get rid of",
           "geen", "zonder", "zet uit", "kein", "keine", "keinen", "keiner", "ohne", "senza", "niente", "nessun",
           "nessuna", "nessuno", "togli", "rimuovi", "disattiva", "sin", "nada de", "ningún", "ninguna", "quita",
           "quitar", "desactiva", "sans", "pas de", "aucun", "aucune", "enlève", "enlever", "retire",
           "supprime", "désactive", "coupe", "sem", "nenhum", "nenhuma", "desliga", "desativa", "без",
           "нет", "убери", "уберите", "отключи", "выключи", "немає", "прибери", "вимкни", "bez", "żadnych",
           "żadnego", "żadnej", "usuń", "wyłącz", "không", "không có", "tắt")
#: little words that may stand between the refusing word and the keyword
_BETWEEN = ("the", "a", "an", "any", "all", "more", "extra", "of", "het", "de", "een", "die", "der", "das", "den",
            "dem", "il", "lo", "la", "i", "gli", "le", "l'", "el", "los", "las", "un", "una", "les", "du", "des",
            "o", "os", "as", "um", "uma", "di", "del", "della", "dei", "delle", "do", "da", "dos", "das")
#: words after the keyword that refuse it ("sound off", "Ton aus", "sesi kapat")
_AFTER = ("off", "aus", "uit", "olmadan", "yok", "kapalı", "kapat", "desligado", "desactivado", "désactivé",
          "disattivato", "выкл", "выключен", "отключен", "вимкнено")
#: CJK: no spaces, so the refusing word touches the keyword (before in Chinese, after in Japanese and Korean)
_CJK_BEFORE = ("不要", "没有", "沒有", "无", "無", "去掉", "关闭", "關閉", "关掉", "關掉", "取消", "不带", "不帶", "不用")
_CJK_AFTER = ("なし", "無し", "抜き", "オフ", "を消", "を切", "없이", "없는", "없음", "끄기", "끄고", "빼고", "제외", "关闭", "關閉")
#: what joins a list of refused things: "no sound or particles" refuses both
_JOIN = ("or", "and", "nor", "oder", "und", "noch", "of", "en", "o", "e", "ed", "y", "ni", "ou", "et", "или", "и",
         "ни", "lub", "ani", "i", "veya", "ve", "hoặc", "và", "або", "чи")


def _alternatives(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_BEFORE_RE = re.compile(rf"(?<![^\W\d_])(?:{_alternatives(_BEFORE)})\s+(?:(?:{_alternatives(_BETWEEN)})\s+){{0,2}}$")
_AFTER_RE = re.compile(rf"\s*[:=]?\s*(?:{_alternatives(_AFTER)})(?![^\W\d_])")
_CJK_BEFORE_RE = re.compile(rf"(?:{_alternatives(_CJK_BEFORE)})(?:的|任何)?\s*$")
_CJK_AFTER_RE = re.compile(rf"\s*(?:は|を|が|이|가|을|를|은|는)?\s*(?:{_alternatives(_CJK_AFTER)})")
_JOINED_RE = re.compile(rf"^\s*(?:,|/|&|、|，|(?:{_alternatives(_JOIN)})(?![^\W\d_]))\s*(?:(?:{_alternatives(_BETWEEN)})\s+){{0,2}}$")

#: how far before a keyword its refusing word may be (the longest refusal and two little words)
_REACH = 40


def refused(text: str, start: int, end: int) -> bool:
    """Whether the keyword found at text[start:end] is refused by the words around it."""
    before = text[max(0, start - _REACH):start]
    return bool(_BEFORE_RE.search(before) or _CJK_BEFORE_RE.search(before)
                or _AFTER_RE.match(text, end) or _CJK_AFTER_RE.match(text, end))


def joined(text: str, end: int, start: int) -> bool:
    """Whether text[end:start] only joins two items of a list ("no sound or music": the second is refused
    with the first)."""
    return bool(_JOINED_RE.match(text[end:start]))
