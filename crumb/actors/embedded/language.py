"""Which language a pitch is written in, and whether the embedded studio reads it.

Scripts decide for Japanese, Korean and Chinese. For other scripts a trained detector (lingua, which
ships its own models and needs no network) says which language it is, so a Spanish pitch is named
Spanish instead of being read as Dutch because it contains "de". Common words of the languages the
studio reads break ties on short pitches. A language the studio does not read is said so: its verdict
cannot claim that every word was understood.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from crumb.actors.embedded import catalogue as cat
from crumb.protocol.game import LanguageReading

#: languages the detector tells apart beyond the ones the studio reads (so they are recognised as foreign)
_DETECTED = ("en", "nl", "de", "it", "es", "fr", "pt", "pl", "tr", "vi", "sv", "id", "ru", "uk")
NAMES = {
    "en": "English", "nl": "Dutch", "de": "German", "it": "Italian", "zh-Hans": "Chinese (simplified)",
    "zh-Hant": "Chinese (traditional)", "ko": "Korean", "ja": "Japanese", "es": "Spanish", "fr": "French",
    "pt": "Portuguese", "pl": "Polish", "tr": "Turkish", "vi": "Vietnamese", "sv": "Swedish",
    "id": "Indonesian", "ru": "Russian", "uk": "Ukrainian",
}
MIN_WORDS = 3  # below this the detector guesses; common words (or English) decide instead
MIN_CONFIDENCE = 0.5
SURE = 0.9  # on a pitch of few words only a confident detection counts
MANY_WORDS = 5

_STOPWORDS = {
    "en": "the a an and with of to in you your game where that is are it make for on lives seconds points when",
    "nl": "de het een en met van je jouw spel waar die dat is zijn op voor niet levens seconden punten maak als",
    "de": "der die das und mit ein eine von zu spiel wo ist sind auf für nicht du dein leben sekunden punkte mach wenn",
    "it": "il la lo gli le un una e con di da gioco dove che è sono per non tu vite secondi punti fai quando",
}
_SIMPLIFIED = set("这们戏游时间条个贪动块砖鸟击飞颜红蓝绿黄关级钟边让说发难样为会乐记忆叠层过还后里两对开从门风龙马电车东见长问题话语认识实现点机体国图宝宫岛惊无尽跑觉")
_TRADITIONAL = set("這們戲遊時間條個貪動塊磚鳥擊飛顏紅藍綠黃關級鐘邊讓說發難樣為會樂記憶疊層過還後裡兩對開從門風龍馬電車東見長問題話語認識實現點機體國圖寶宮島驚無盡覺")


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


def common_words(t: str) -> tuple[str, int]:
    """The read language whose common words the text uses most, and how many (English at 0)."""
    words = re.findall(r"[^\W\d_]+", t)
    best, best_n = "en", 0
    for lang, stop in _STOPWORDS.items():
        sw = set(stop.split())
        n = sum(1 for w in words if w in sw)
        if n > best_n:
            best, best_n = lang, n
    return best, best_n


@lru_cache(maxsize=1)
def _detector() -> Any:
    """Built once per process; the models load on first use (about a second, then microseconds)."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    langs = [Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper())) for code in _DETECTED]
    return LanguageDetectorBuilder.from_languages(*langs).with_low_accuracy_mode().build()


def _detect(t: str) -> tuple[str, float] | None:
    values = _detector().compute_language_confidence_values(t)
    if not values:
        return None
    top = values[0]
    return top.language.iso_code_639_1.name.lower(), float(top.value)


def detect(text: str) -> LanguageReading:
    """The pitch's language, the language it is read as, and how that was decided (text is normalized)."""
    t = text
    by_script = _script(t)
    if by_script:
        lang, how = by_script
        return LanguageReading(language=lang, read_as=lang, recognised=True, how=f"{NAMES[lang]}, by {how}")
    stop_lang, stop_n = common_words(t)
    words = re.findall(r"[^\W\d_]{2,}", t)
    if len(words) < MIN_WORDS:
        if stop_n:
            return LanguageReading(language=stop_lang, read_as=stop_lang, recognised=True,
                                   how=f"{NAMES[stop_lang]}, by its common words (too short for the detector)")
        return LanguageReading(language="en", read_as="en", recognised=True,
                               how="too few clues to tell the language: read as English")
    found = _detect(t)
    sure = found is not None and (found[1] >= SURE or (len(words) >= MANY_WORDS and found[1] >= MIN_CONFIDENCE))
    if found is None or not sure:
        how = (f"{NAMES[stop_lang]}, by its common words" if stop_n else
               "too few clues to tell the language: read as English")
        return LanguageReading(language=stop_lang, read_as=stop_lang, recognised=True, how=how)
    lang, confidence = found
    if lang in cat.LANGUAGES:
        return LanguageReading(language=lang, read_as=lang, recognised=True,
                               how=f"{NAMES[lang]}, by the language detector ({confidence:.2f})")
    read_as = "en"
    return LanguageReading(
        language=lang, read_as=read_as, recognised=False,
        how=(f"the pitch is in {NAMES.get(lang, lang)} (language detector, {confidence:.2f}), which the embedded "
             f"studio does not read yet: it was read with the {NAMES[read_as]} words it knows, so a stated number "
             f"or wish may have been missed"))
