"""The offline researcher: answers a ResearchPlan from the genre registry's research facts, citing
entries by id (`catalogue:<genre>`), so the Planner's choice can be traced to its evidence.

Ranking: genre words first (strong and weak), then what the pitch's verbs and theme suggest (each
genre folder's `verbs` and `themes`), then genres that carry any theme. Deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.pitch import find_theme, score_genres
from crumb.actors.embedded.planner import FALLBACK_GENRES, plan
from crumb.actors.embedded.text import find_any, normalize
from crumb.protocol.events import EvidenceItem, ResearchEvidence, ResearchPlan
from crumb.protocol.game import Spec

MAX_ITEMS = 3

def theme_genres(theme_id: str) -> list[str]:
    """The genres whose folders say they suit a theme, best first (their rank, then registry order)."""
    suits = [(e.themes[theme_id], i, e.id) for i, e in enumerate(cat.genres()) if theme_id in e.themes]
    return [g for _, _, g in sorted(suits)]


def rank(pitch: str, candidates: list[str] | None = None) -> list[tuple[str, str]]:
    """Genres for a pitch, best first, each with the reason it is there."""
    text = normalize(pitch)
    out: dict[str, str] = {}
    for gs in score_genres(text):
        out.setdefault(gs.genre, f"the pitch says {', '.join(repr(w) for w in gs.words)}")
    verb_hits = []
    for e in cat.genres():  # each genre's main action (its folder's `verbs`)
        hit = find_any(text, e.verbs) if e.verbs else None
        if hit:
            verb_hits.append((hit[0], e.id, hit[1]))
    for _, genre, word in sorted(verb_hits):
        out.setdefault(genre, f"the pitch's {word!r} is this genre's main action")
    theme = find_theme(text)
    if theme:
        for genre in theme_genres(theme[0].id):
            out.setdefault(genre, f"a {theme[0].name.lower()} theme ({theme[1]!r}) suits it")
    for genre in candidates or ():
        if genre in cat.genre_ids():
            out.setdefault(genre, "the Planner listed it as a candidate")
    for genre in FALLBACK_GENRES:
        out.setdefault(genre, "it carries any theme with simple controls")
    return list(out.items())


def _item(genre: str, why: str) -> EvidenceItem:
    e = cat.entry(genre)
    # the numbers the Builder really uses when the spec is silent (the genre's one defaults table)
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


def plan_researched(pitch: str, *, seed: int = 1, steering: Sequence[str] = ()) -> tuple[Spec, ResearchEvidence | None]:
    """The spec a session ends up with: when the Planner asks for research first, the reducer routes
    the ask to the researcher and plans again with its evidence; here in one call (the evidence is None
    when no research was asked for)."""
    first = plan(pitch, seed=seed, steering=steering)
    if not isinstance(first, ResearchPlan):
        return first, None
    evidence = research(first, pitch)
    spec = plan(pitch, seed=seed, evidence=evidence.items, steering=steering)
    assert isinstance(spec, Spec), "with evidence the Planner always decides"
    return spec, evidence
