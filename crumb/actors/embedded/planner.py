"""The embedded studio's Planner: turns what a pitch says (crumb.actors.embedded.pitch) into a Spec whose
acceptance probes a correct game by docs/game-contract.md satisfies (crumb.actors.embedded.rules), or asks
for research first.

Pure and deterministic: same inputs, same Spec. It never raises on text: any pitch yields a Spec or,
when no genre word is found and no evidence is at hand, a ResearchPlan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.fidelity import (
    LOCAL,
    PERSON_CHANGED,
    agent_hint,
    asked_drawings,
    counted,
    criterion_for,
    drawn_for,
    nearest_note,
    pitch_lines,
    reading_for_agent,
    stated_numbers,
)
from crumb.actors.embedded.pitch import GenreScore, Reading, Wish, genre_wish, human_lines, read_pitch, score_genres
from crumb.actors.embedded.rules import criteria_for, describe
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.text import MAX_TEXT, is_cjk, normalize
from crumb.actors.embedded.unbuilt import unbuilt
from crumb.protocol.events import EvidenceItem, ResearchPlan
from crumb.protocol.game import Controls, GenreReading, Numbers, PitchReading, Spec, Theme

#: genres that carry any theme: the last resort of a choice, and research's when nothing else fits
FALLBACK_GENRES = ("dodge", "clicker", "runner")
#: languages whose describing word follows the noun, so a title reads as a native speaker would write it
ADJECTIVE_AFTER = ("it", "es", "fr", "pt", "vi")

# ---------------------------------------------------------------- the spec


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
    if is_cjk(word) and lang != "ko":
        return (word + name)[:120]
    if lang in ADJECTIVE_AFTER:  # "Serpiente roja", "Serpent néon", "Rắn săn mồi dưới nước"
        return f"{name} {word}"[:120]
    return f"{word[:1].upper()}{word[1:]} {name}"[:120]


def compose(reading: Reading, genre: str, *, pitch: str, seed: int, rationale: str,
            previous: Spec | None = None, builder: str = LOCAL) -> Spec:
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
    return spec.model_copy(update={"criteria": criteria_for(spec, builder)})


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
    s = "Numbers read: " + ", ".join(parts) + "." if parts else (
        "No number read." if reading.numbers.unread else "The pitch states no numbers.")
    if reading.numbers.ignored:
        s += " " + "; ".join(reading.numbers.ignored) + "."
    if reading.numbers.unread:
        s += " No field takes " + ", ".join(repr(u.said) for u in reading.numbers.unread) + "."
    return s


def _speed_stated(reading: Reading) -> Reading:
    """A pitch's "2x speed" is a stated speed: the spec carries it as a number, so a probe checks the game."""
    nums = reading.numbers
    if not nums.pace.stated or nums.numbers.speed is not None:
        return reading
    stated = nums.model_copy(update={"numbers": nums.numbers.model_copy(update={"speed": nums.pace.factor}),
                                     "said": {**nums.said, "speed": nums.pace.said}})
    return reading.model_copy(update={"numbers": stated})


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
    builder: str = LOCAL,
) -> Spec | ResearchPlan:
    """A Spec for the pitch, or a ResearchPlan when it names no genre and no evidence is given. `builder`: the
    harness bound to build it. The embedded games' lacks are named as not built; for an agent every stated
    number gets the criterion that reads it back, and what no criterion can check is left to a person."""
    reading = _speed_stated(read_pitch(pitch))
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
                                   f"studio built the next best, {_name(genre)}: /approve to keep it, or {agent_hint(builder)}"))
    elif previous is not None:
        genre, why = previous.genre, f"Genre {previous.genre}: kept from the previous spec (nobody asked to change it)."
        chose = _kept(previous, "kept from the previous spec (nobody asked to change it)")
    elif asked is not None:
        entry = unbuilt(asked.genre)
        genre = reading.genres[0].genre if reading.confident else entry.nearest
        why = f"The pitch asks for {entry.name} ({', '.join(repr(w) for w in asked.words)}), which the embedded studio cannot build; nearest: {genre}."
        chose = GenreReading(genre=genre, how="nearest", words=list(asked.words), asked=entry.name, fits=False,
                             note=nearest_note(entry.name, genre, builder))
    elif reading.confident:
        top = reading.genres[0]
        genre, why = top.genre, f"Genre {top.genre}: the pitch names it ({', '.join(repr(w) for w in top.words)})."
        named = top.score >= 3
        chose = GenreReading(genre=genre, how="named" if named else "mechanics", words=list(top.words), fits=True,
                             note=f"{_name(genre)}: the pitch {'names' if named else 'describes'} it "
                                  f"({', '.join(repr(w) for w in top.words)})")
        # "30 disparos", "18 blocks": a count of shots or blocks, not the shooter or the blocks genre
        units = " ".join([*reading.numbers.said.values(), *(u.said for u in reading.numbers.unread)])
        for other in reading.genres[1:]:
            if other.score >= 3 and not all(w in units for w in other.words):
                unhonoured.append(f"the pitch also names {_name(other.genre)} ({', '.join(repr(w) for w in other.words)}): "
                                  f"the embedded studio {'builds' if builder == LOCAL else 'plans'} one genre per game, so it "
                                  f"{'built' if builder == LOCAL else 'planned'} {_name(genre)}")
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
                                  f"{_name(genre)} (by research): /approve to keep it, or {agent_hint(builder)}")
    else:
        return research_plan(pitch, reading)
    reading = reading.model_copy(update={  # "12 pairs": memory's grid 5; a Frogger pitch's frog: the hopper's extra
        "numbers": counted(reading.numbers, genre),
        "extras": list(dict.fromkeys([*reading.extras, *asked_drawings(pitch, genre, reading.language, builder)]))})
    lang = reading.language_reading
    rationale = f"{why} Language: {reading.language} ({lang.how}). {_said(reading)}"
    spec = compose(reading, genre, pitch=pitch, seed=seed, rationale=rationale, previous=previous, builder=builder)
    unhonoured += pitch_lines(reading, spec, pitch, builder)
    guesses = [] if any(v is not None for v in reading.numbers.numbers.model_dump().values()) else [
        f"the pitch states no {'number the game carries' if reading.numbers.unread else 'numbers'}: "
        "the game's own defaults apply (the build notes list them)"]
    if lang.how.startswith("too few clues"):
        guesses.append(f"language: {lang.how}")
    spec = spec.model_copy(update={"reading": PitchReading(
        builder=builder, genre=chose, language=lang,
        numbers=stated_numbers(reading.numbers.said, reading.numbers.numbers, spec, embedded=builder == LOCAL),
        unhonoured=unhonoured, guesses=guesses)})
    if steering:
        spec, notes = apply_steering(spec, list(steering), genre_changes=False)
        useful = [n for n in notes if not n.startswith("Not understood")]
        if useful:
            spec = spec.model_copy(update={"rationale": (spec.rationale + " Steering: " + "; ".join(useful))[:4000]})
    return spec


def for_builder(spec: Spec, pitch: str, builder: str) -> Spec:
    """The spec re-weighed for another Builder than the one it was planned for (a fork, a /swap, a fallback):
    the design kept; the checks the new Builder's game is held to, and what of the pitch it does not carry or
    no criterion measures, as the Planner would have said for it. A person's steering stays what it asked."""
    reading = spec.reading
    if reading is None or reading.builder == builder:
        return spec
    if reading.by == "crumb":  # an agent Planner's spec: CRUMB's own reading of it, for the new Builder
        return spec.model_copy(update={"reading": reading_for_agent(spec, pitch, builder)})
    pitched = read_pitch(pitch)
    pitched = pitched.model_copy(update={"numbers": counted(pitched.numbers, spec.genre)})
    drawn_before = asked_drawings(pitch, spec.genre, pitched.language, reading.builder)
    extras = [*(x for x in spec.extras if x not in drawn_before), *asked_drawings(pitch, spec.genre, pitched.language, builder)]
    custom = [c for c in spec.criteria if c.id not in {k.id for k in criteria_for(spec, reading.builder)}]
    moved = spec.model_copy(update={"extras": list(dict.fromkeys(extras)),
                                    "reading": reading.model_copy(update={"builder": builder})})
    criteria = [*criteria_for(moved, builder), *custom][:12]
    moved = moved.model_copy(update={"criteria": criteria})
    before = set(pitch_lines(pitched, spec, pitch, reading.builder))
    kept = [y for x in reading.unhonoured if x not in before for y in [drawn_for(x, spec.genre, builder)] if y]
    lines = [*kept, *(x for x in pitch_lines(pitched, moved, pitch, builder) if x not in kept)]
    fresh = {n.field: n for n in stated_numbers(pitched.numbers.said, pitched.numbers.numbers, moved,
                                                 embedded=builder == LOCAL)}
    numbers = [n.model_copy(update={"criterion": criterion_for(n.field, criteria) if n.honoured else None})
               if PERSON_CHANGED in n.note else fresh.get(n.field, n) for n in reading.numbers]
    genre = reading.genre
    if genre.how == "nearest" and genre.asked and genre.note.startswith(("the embedded studio has no", "the embedded Planner has no")):
        genre = genre.model_copy(update={"note": nearest_note(genre.asked, genre.genre, builder)})
    return moved.model_copy(update={"reading": moved.reading.model_copy(update={  # type: ignore[union-attr]
        "genre": genre, "numbers": numbers, "unhonoured": lines})})
