"""The offline researcher: answers a ResearchPlan from the built-in catalogue, citing entries by id
(`catalogue:<genre>`), so the Planner's choice can be traced to its evidence.

Ranking: genre words first (strong and weak), then what the pitch's theme and verbs suggest, then
genres that carry any theme. Deterministic.
"""

from __future__ import annotations

from crumb.actors.local import catalogue as cat
from crumb.actors.local.pitch import find_theme, score_genres
from crumb.actors.local.planner import FALLBACK_GENRES
from crumb.actors.local.text import find_any, normalize
from crumb.protocol.events import EvidenceItem, ResearchEvidence, ResearchPlan

MAX_ITEMS = 3

#: what a theme or a verb in the pitch suggests when no genre word is there
THEME_GENRES: dict[str, tuple[str, ...]] = {
    "space": ("shooter", "dodge"),
    "underwater": ("dodge", "flappy"),
    "forest": ("platformer", "runner"),
    "desert": ("runner", "dodge"),
    "retro": ("snake", "breakout"),
    "candy": ("match3", "clicker"),
    "spooky": ("whack", "dodge"),
    "winter": ("runner", "dodge"),
    "lava": ("platformer", "dodge"),
    "neon": ("snake", "breakout"),
    "pastel": ("memory", "match3"),
    "mono": ("stacker", "blocks"),
}
VERB_GENRES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("catch*", "collect*", "vangen", "fangen", "sammel*", "prendi", "raccogli", "接", "收集", "잡", "모으", "集め", "キャッチ"), "dodge"),
    (("jump*", "hop*", "spring*", "salta", "跳", "점프", "ジャンプ"), "runner"),
    (("fly", "flying", "vlieg*", "flieg*", "vola*", "飞", "飛", "날아", "飛ぶ"), "flappy"),
    (("cards", "kaarten", "karten", "carte", "卡", "카드", "カード"), "memory"),
    (("puzzle*", "raadsel*", "rätsel*", "谜", "謎", "퍼즐", "パズル"), "match3"),
    (("tap*", "click*", "klik*", "klick*", "点击", "點擊", "클릭", "タップ"), "clicker"),
    (("build*", "bouw*", "bau*", "costrui*", "建", "쌓", "建て"), "stacker"),
    (("hit", "smash*", "bonk", "slaan", "hau*", "colpisci", "打", "때리", "叩"), "whack"),
    (("ball", "bal", "palla", "球", "ボール"), "breakout"),
    (("remember", "onthoud*", "merk*", "ricorda", "记住", "記住", "기억", "覚え"), "simon"),
    (("eat*", "eten", "fressen", "mangia*", "吃", "먹", "食べ"), "snake"),
    (("number*", "getal*", "zahl*", "numer*", "数字", "數字", "숫자"), "slide2048"),
)


def rank(pitch: str, candidates: list[str] | None = None) -> list[tuple[str, str]]:
    """Genres for a pitch, best first, each with the reason it is there."""
    text = normalize(pitch)
    out: dict[str, str] = {}
    for gs in score_genres(text):
        out.setdefault(gs.genre, f"the pitch says {', '.join(repr(w) for w in gs.words)}")
    verb_hits = []
    for words, genre in VERB_GENRES:
        hit = find_any(text, words)
        if hit:
            verb_hits.append((hit[0], genre, hit[1]))
    for _, genre, word in sorted(verb_hits):
        out.setdefault(genre, f"the pitch's {word!r} is this genre's main action")
    theme = find_theme(text)
    if theme:
        for genre in THEME_GENRES.get(theme[0].id, ()):
            out.setdefault(genre, f"a {theme[0].name.lower()} theme ({theme[1]!r}) suits it")
    for genre in candidates or ():
        if genre in cat.genre_ids():
            out.setdefault(genre, "the Planner listed it as a candidate")
    for genre in FALLBACK_GENRES:
        out.setdefault(genre, "it carries any theme with simple controls")
    return list(out.items())


def _item(genre: str, why: str) -> EvidenceItem:
    e = cat.entry(genre)
    defaults = ", ".join(f"{k} {v}" for k, v in e.defaults.items()) or "none"
    keys = ", ".join("Space" if k == " " else k for k in e.controls.keys)
    return EvidenceItem(
        id=cat.evidence_id(genre),
        source="crumb catalogue",
        title=f"{e.name} — like {e.references[0]}",
        text=(f"Why: {why}. Core loop: {e.core_loop} Rules: {e.rules} Win: {e.win} Lose: {e.lose} "
              f"Controls: keys {keys}; pointer: {e.controls.pointer}; touch: {e.controls.touch}. "
              f"Typical numbers: {defaults}. References: {'; '.join(e.references)}."),
    )


def research(plan: ResearchPlan, pitch: str) -> ResearchEvidence:
    """Evidence for the Planner: up to three catalogue entries that fit the pitch, best first."""
    ranked = rank(pitch, list(plan.candidates))
    return ResearchEvidence(items=[_item(g, why) for g, why in ranked[:MAX_ITEMS]])
