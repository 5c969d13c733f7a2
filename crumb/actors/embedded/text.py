"""Text as the embedded studio reads it: normalised (NFKC, lower case, cut at MAX_TEXT) and searched
for catalogue keywords (the syntax is in catalogue's docstring) in every script it reads.

Pure. Every reader of the embedded studio (numbers, pitch, steering, research) goes through here, so
a keyword matches the same way wherever it is looked for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache, partial
from typing import TypeVar

MAX_TEXT = 20_000

T = TypeVar("T")


def normalize(text: str) -> str:
    """NFKC (full-width digits, half-width kana) and lower case; long text is cut, never rejected."""
    text = unicodedata.normalize("NFKC", text or "")[:MAX_TEXT]
    return text.lower().replace("\u3000", " ")


def is_cjk(s: str) -> bool:
    """Whether s holds kana, CJK ideographs or hangul: such keywords match without word boundaries."""
    return any(
        "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"
        for ch in s
    )


def word_pattern(keyword: str) -> str:
    """Regex source for a catalogue keyword (see the catalogue's docstring for the syntax)."""
    prefix = keyword.endswith("*")
    kw = keyword.rstrip("*").lower()
    body = re.escape(kw).replace(r"\-", r"[\s\-]?").replace(r"\ ", r"[\s\-]+")
    if is_cjk(kw):
        return body
    start = r"(?<![^\W\d_])" if kw[:1].isalpha() else ""
    end = r"[^\W\d_]*" if prefix else (r"(?![^\W\d_])" if kw[-1:].isalpha() else "")
    return start + body + end


@lru_cache(maxsize=4096)
def keyword_re(keyword: str) -> re.Pattern[str]:
    """The compiled word_pattern of a keyword (cached: the catalogue's keywords are matched per pitch)."""
    return re.compile(word_pattern(keyword))


@lru_cache(maxsize=4096)
def keyword_core(keyword: str) -> str:
    """A literal every match of the keyword contains: a C-speed `in` test skips most regexes."""
    return max(re.split(r"[\s\-]+", keyword.rstrip("*").lower()), key=len)


def find_any(text: str, keywords: Sequence[str]) -> tuple[int, str] | None:
    """The earliest keyword found in normalized text, as (position, matched text)."""
    best: tuple[int, str] | None = None
    for kw in keywords:
        if keyword_core(kw) not in text:
            continue
        m = keyword_re(kw).search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.group(0))
    return best


def longest_first(table: Iterable[tuple[str, T]]) -> list[tuple[str, T]]:
    """(keyword, owner) pairs, longest keyword first (ties by the keyword): the order `consume` reads them in."""
    return sorted(table, key=lambda k: (-len(k[0].rstrip("*")), k[0]))


def consume(text: str, table: Sequence[tuple[str, T]]) -> Iterator[tuple[str, T, list[tuple[int, int]]]]:
    """Each keyword of a longest_first table found in normalized text, with its owner and the spans it matched;
    a span is consumed, so no shorter keyword reads it again ("ブロック崩し" is breakout, not also "ブロック";
    熊猫 is a panda, not also 猫 a cat)."""
    work = text
    for kw, owner in table:
        if keyword_core(kw) not in work:
            continue
        spans = [m.span() for m in keyword_re(kw).finditer(work)]
        if not spans:
            continue
        for s, e in spans:
            work = work[:s] + " " * (e - s) + work[e:]
        yield kw, owner, spans


def words_holding(words: Iterable[str], keywords: Iterable[str]) -> tuple[str, ...]:
    """The words (keywords themselves) inside which another of `keywords` matches: "快节奏" (fast-paced) holds
    节奏 (rhythm), "corsa infinita" (an endless run) holds "corsa" (a race)."""
    keywords = tuple(keywords)
    cores = {keyword_core(k) for k in keywords}
    # one C-speed search for any keyword's core first: most words hold none (thousands of words, hundreds of keywords)
    any_core = re.compile("|".join(sorted(map(re.escape, cores), key=len, reverse=True))) if "" not in cores else None
    return tuple(w for w in words if (any_core is None or any_core.search(w))
                 and any(keyword_core(k) in w and k.rstrip("*") != w.rstrip("*") and keyword_re(k).search(w.rstrip("*"))
                         for k in keywords))


def blank_keywords(text: str, keywords: Iterable[str], keep: Iterable[str] = ()) -> str:
    """Normalized text with every match of the keywords blanked to spaces of its length, so positions hold
    and the words around them are read without them ("slow motion" is not a slow pace). A match inside a
    match of a longer `keep` keyword stays, as `consume` would read it: 火车 (a train) holds 火 (fire),
    海盗 (a pirate) holds 海 (the sea)."""
    kept = [(m.start(), m.end(), len(k.rstrip("*"))) for k in keep if keyword_core(k) in text
            for m in keyword_re(k).finditer(text)]

    def blank(m: re.Match[str], n: int) -> str:
        inside = any(s <= m.start() and m.end() <= e and n < size for s, e, size in kept)
        return m.group(0) if inside else " " * len(m.group(0))

    for kw in keywords:
        if keyword_core(kw) in text:
            text = keyword_re(kw).sub(partial(blank, n=len(kw.rstrip("*"))), text)
    return text
