"""The record of how a pitch was read (Spec.reading): pitch fidelity is judged from it, not assumed.

Pure. The embedded Planner writes it for its own specs; for an agent's spec the dispatcher writes it
with `reading_for_agent`, so a number the pitch states is never dropped without a word, whoever planned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.builder import SPEED_RANGE
from crumb.actors.embedded.numbers import NumberRead, UnreadNumber
from crumb.actors.embedded.pace import Pace
from crumb.actors.embedded.pitch import GenreScore, Reading, read_pitch
from crumb.actors.embedded.subjects import SubjectSaid, find_subjects, subject_keywords
from crumb.actors.embedded.text import blank_keywords, find_any, is_cjk, keyword_re, longest_first, normalize
from crumb.actors.embedded.unbuilt import UNBUILT
from crumb.genres import Count
from crumb.genres.registry import Registry, registry
from crumb.protocol.game import (
    NUMBER_PATHS,
    Criterion,
    GenreReading,
    Numbers,
    PitchReading,
    Spec,
    StatedNumber,
)

#: where a stated number shows in the game's test hook, and the criterion that checks it
_IDS = {"time_limit_s": "timer", "lives": "lives", "target_score": "target", "levels": "levels", "moves": "moves",
        "grid": "grid", "speed": "speed", "level_time_s": "levelclock"}
NUMBER_PROBES: dict[str, tuple[str, str]] = {f: (NUMBER_PATHS[f], cid) for f, cid in _IDS.items()}
LABELS = {"time_limit_s": "time limit", "lives": "lives", "target_score": "target score", "levels": "levels",
          "moves": "moves", "grid": "grid size", "speed": "speed", "level_time_s": "time per level"}
AGENT_HINT = "bind an agent to build it (e.g. --role builder=claude:sonnet)"
#: the harness of the embedded games' Builder: a plan for any other is a plan for an agent (PitchReading.builder)
LOCAL = "local"
#: how a stated number's note says a person changed it (after_edit): theirs, whatever Builder builds it
PERSON_CHANGED = "a person changed"
#: what a person does with an ask of the pitch that no criterion can check in an agent's game
LOOK = "look at the game, then approve or veto it"


def builder_of(spec: Spec) -> str:
    """The harness the spec was planned for (its reading says; a spec without one: the embedded games)."""
    return spec.reading.builder if spec.reading is not None else LOCAL


def agent_hint(builder: str) -> str:
    """What a person can bind to get what the embedded studio cannot give: a Builder, or, when an agent already
    builds, a Planner, which plans the checks the embedded one has no rules for."""
    return AGENT_HINT if builder == LOCAL else "bind an agent Planner too (e.g. --role planner=claude:sonnet)"


def _unchecked(ask: str, builder: str) -> str:
    """An ask no acceptance criterion can check in the game an agent builds: the verdict waits for a person, so
    a PASS never stands for what nobody measured."""
    return f"{ask}, which no acceptance criterion checks in the game the {builder} Builder makes: {LOOK}"


def genre_name(genre: str) -> str:
    return cat.entry(genre).name if genre in cat.genre_ids() else genre


def support(genre: str, field: str, value: float) -> str | None:
    """Why the embedded game of `genre` cannot honour field=value, or None when it can."""
    table = cat.number_support().get(genre)
    if table is None:
        return None  # not a catalogue genre: an agent's game, judged by its probes
    label = LABELS.get(field, field)
    if field == "speed" and not (SPEED_RANGE[0] <= value <= SPEED_RANGE[1]):
        return f"the embedded {genre_name(genre)} game plays a speed of {SPEED_RANGE[0]:g}–{SPEED_RANGE[1]:g}, not {value:g}"
    if field not in table:
        return f"the embedded {genre_name(genre)} game has no {label}"
    bounds = table[field]
    if bounds is not None and not (bounds[0] <= value <= bounds[1]):
        return f"the embedded {genre_name(genre)} game plays a {label} of {bounds[0]}–{bounds[1]}, not {value:g}"
    return None


def criterion_for(field: str, criteria: Sequence[Criterion]) -> str | None:
    """The id of the criterion whose probe checks this number in the game (by the state path it reads)."""
    path, cid = NUMBER_PROBES[field]
    by_id = [c.id for c in criteria if c.id == cid]
    by_path = [c.id for c in criteria if any(x.path == path for x in c.probe.expect)]
    return next(iter(by_id or by_path), None)


def stated_numbers(said: dict[str, str], stated: Numbers, spec: Spec, *, embedded: bool) -> list[StatedNumber]:
    """Each number the pitch states: the field it went to, the criterion that checks it, and whether
    the spec (and, for the embedded studio, its game) carries it."""
    out: list[StatedNumber] = []
    for field, value in stated.model_dump().items():
        if value is None:
            continue
        words = said.get(field, "")
        carried = getattr(spec.numbers, field)
        why = support(spec.genre, field, float(value)) if embedded else None
        criterion = criterion_for(field, spec.criteria)
        if carried != value:
            shown = f"does not set {LABELS[field]}" if carried is None else f"has {LABELS[field]} {carried:g}"
            note = f"the pitch says {words!r} but the spec {shown}"
            out.append(StatedNumber(field=field, value=value, said=words, criterion=criterion, honoured=False, note=note))
        elif why:
            note = f"{why}: {words!r} is not built; {AGENT_HINT}"  # the embedded games only (embedded=True)
            out.append(StatedNumber(field=field, value=value, said=words, criterion=None, honoured=False, note=note))
        else:
            out.append(StatedNumber(field=field, value=value, said=words, criterion=criterion))
    return out


def _rule_numbers(genre: str) -> tuple[int, ...]:
    return cat.entry(genre).rule_numbers if genre in cat.genre_ids() else ()


def _count_of(genre: str, u: UnreadNumber) -> Count | None:
    """The genre's count whose noun follows the number ("12 pairs" for memory), if any."""
    if genre not in cat.genre_ids() or not u.noun:
        return None
    return next((c for c in cat.entry(genre).counts if any(keyword_re(w).match(u.noun.lower()) for w in c.words)), None)


def counted(read: NumberRead, genre: str) -> NumberRead:
    """The text's unread numbers that the genre counts in its own nouns, moved to the number that plays them
    ("12 pairs": a memory board of grid 5). A count the field already states the same way is carried by it;
    one that says otherwise is named, like any two numbers that disagree; one the game cannot deal stays unread.
    A number the genre's own rules say ("match-3") asks for nothing and is dropped."""
    known = _rule_numbers(genre)
    numbers, said, ignored, unread = read.numbers.model_dump(), dict(read.said), list(read.ignored), []
    for u in read.unread:
        if u.value in known:
            continue
        count = _count_of(genre, u)
        value = count.values.get(int(u.value)) if count is not None else None
        if count is None or value is None:
            unread.append(u)
        elif numbers[count.field] is None:
            numbers[count.field], said[count.field] = value, u.said
        elif numbers[count.field] != value:
            ignored.append(f"the pitch also says {u.said!r} ({count.field} {value}) for {count.field}: kept the first, "
                           f"{said.get(count.field, '')!r}")
    if unread == read.unread:
        return read
    return read.model_copy(update={"numbers": Numbers(**numbers), "said": said, "ignored": ignored, "unread": unread})


def _checked(value: float, criteria: Sequence[Criterion]) -> bool:
    """Whether a criterion's probe expects this value of the running game (an agent's "pairs == 12")."""
    return any(x.value == value or (x.op == "in" and isinstance(x.value, list) and value in x.value)
               for c in criteria for x in c.probe.expect if x.op in ("==", ">=", "<=", "in"))


def unread_numbers(read: NumberRead, spec: Spec, *, embedded: bool, text: str = "the pitch",
                   named: Sequence[str] = ()) -> list[str]:
    """The numbers a text states that no field takes ("12 pairs", "every 10 seconds"), in a designer's
    words: the embedded games carry only their fields; an agent's game may carry one, but unless a
    criterion expects the value QA has not measured it. A number the genre's own rules say ("match
    three"), or those of a genre the text `named` (an agent's "gem-swap" for a match-3 pitch), asks for
    nothing and is left out."""
    known = {*_rule_numbers(spec.genre), *(n for g in named for n in _rule_numbers(g))}
    out = []
    for u in read.unread:
        if u.value in known:
            continue
        count = _count_of(spec.genre, u) if embedded else None
        if count is not None:
            *most, last = sorted(count.values)
            dealt = f"{', '.join(map(str, most))} or {last}" if most else str(last)
            out.append(f"{text} states {u.said!r}: the {genre_name(spec.genre)} game deals {dealt}, not {u.value:g}")
        elif embedded:
            out.append(f"{text} states {u.said!r}, which no number of the {genre_name(spec.genre)} game carries")
        elif not _checked(u.value, spec.criteria):
            out.append(f"{text} states {u.said!r}, and no acceptance criterion checks {u.value:g}: QA does not measure it")
    return out


def pace_lines(pace: Pace, builder: str = LOCAL, *, apart_only: bool = False, who: str = "the pitch") -> list[str]:
    """What of a pace asked for is not carried: for an agent's game, a pace the embedded games' one pace cannot
    set apart ("the snake grows twice as fast") is no lack, but nothing measures it either. `apart_only`: those
    lines alone (an agent's spec sets its own speed, which stated_numbers weighs)."""
    apart = [line for _, line in pace.apart]
    if builder == LOCAL:
        return apart if apart_only else list(pace.unhonoured)
    other = [] if apart_only else [x for x in pace.unhonoured if x not in apart]
    return [*other, *(_unchecked(f"the pace {who} asks for, {said!r}", builder) for said, _ in pace.apart)]


def _theme_line(who: str, theme: cat.ThemeEntry, word: str, builder: str) -> str:
    return _unchecked(f"{who} asks for the {theme.name} theme ({word!r})", builder)


def _theme_mark(theme: cat.ThemeEntry) -> str:
    """The words of _theme_line's line that name the theme: how a steering message finds the line it replaces."""
    return f" asks for the {theme.name} theme ("


def unchecked_looks(reading: Reading, builder: str = LOCAL) -> list[str]:
    """The theme and colours a pitch asks for: the embedded games paint the spec's palette by their own code; in
    an agent's game nothing measures them, so a person looks."""
    if builder == LOCAL:
        return []
    theme = next((t for t in cat.THEMES if t.id == reading.theme), None)
    out = [_theme_line("the pitch", theme, reading.theme_word or theme.id, builder)] if theme else []
    if reading.colour_words:
        out.append(_unchecked(f"the pitch asks for {' and '.join(map(repr, reading.colour_words))}", builder))
    return out


def themes_steered(spec: Spec, asked: tuple[cat.ThemeEntry, str] | None,
                   refused: tuple[cat.ThemeEntry, str] | None) -> Spec:
    """A steering message's theme, for an agent's game: the line of the theme it replaces or refuses goes, and
    one it asks for is named for a person, as the pitch's would be."""
    builder, reading = builder_of(spec), spec.reading
    if builder == LOCAL or reading is None or not (asked or refused):
        return spec
    if asked:
        old = [t for t in cat.THEMES if t.id != asked[0].id]
    else:
        old = [refused[0]] if refused else []
    lines = [x for x in reading.unhonoured if not any(_theme_mark(t) in x for t in old)]
    if asked and not any(_theme_mark(asked[0]) in x for x in lines):
        lines.append(_theme_line("the message", *asked, builder))
    return spec.model_copy(update={"reading": reading.model_copy(update={"unhonoured": lines})})


def unbuilt_extras(extras: Sequence[str], genre: str, builder: str = LOCAL,
                   criteria: Sequence[Criterion] | None = None) -> list[str]:
    """The extras asked for (a pitch's "with a boss", a steering "add sound") that the genre's embedded game
    does not have: named, so a spec's Extras list is never taken for what was built. For an agent's game, of
    any genre, every extra asked that no criterion checks: `criteria` are an agent Planner's (`shows_extra`
    reads them); None, the embedded Planner's own, which check "no time limit" and nothing else."""
    if builder != LOCAL:
        return [_unchecked(f"the extra {x!r} is asked for", builder) for x in _unchecked_extras(extras, criteria)]
    if genre not in cat.genre_ids():
        return []
    has = {*cat.entry(genre).extras, *cat.RUNTIME_EXTRAS}
    known = {e.id for e in cat.EXTRAS}
    return [f"the embedded {genre_name(genre)} game has no {x}: it is not built; {AGENT_HINT}"
            for x in extras if x in known and x not in has]


def _unchecked_extras(extras: Sequence[str], criteria: Sequence[Criterion] | None = None) -> list[str]:
    """The catalogue's extras among these that no criterion checks in an agent's game: an agent Planner's
    `criteria` (shows_extra), or, None, the embedded Planner's own ("no time limit" has one)."""
    known = {e.id for e in cat.EXTRAS}
    return [x for x in extras if x in known and not (x in cat.RUNTIME_EXTRAS if criteria is None
                                                     else shows_extra(x, criteria))]


def _path_words(path: str) -> str:
    """A state path read as words: "comboCount" and "power_ups.left" say "combo count" and "power ups left"."""
    return normalize(re.sub(r"[._\-]+", " ", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", path)))


def shows_extra(extra: str, criteria: Sequence[Criterion]) -> bool:
    """Whether a criterion (an agent Planner's) measures the extra in the running game: an expectation on a
    state value named for it that a game without it would fail ("combo" increased after play, "combo" > 0),
    not one any game holds ("combo" >= 0, unchanged). A criterion's id or sentence alone measures nothing."""
    if extra == cat.NO_CLOCK:  # the embedded Planner's own check: the game reports no time left at all
        return any(x.path == NUMBER_PATHS["time_limit_s"] and ((x.op == "==" and x.value is None) or
                                                                (x.op == "in" and x.value == [None]))
                   for c in criteria for x in c.probe.expect)
    entry = next((e for e in cat.EXTRAS if e.id == extra), None)
    if entry is None:
        return False
    keywords = [k for k in entry.keywords if not is_cjk(k)]
    for x in (x for c in criteria for x in c.probe.expect):
        if not find_any(_path_words(x.path), keywords):
            continue
        if x.op in ("increased", "decreased", "changed") or (x.op == "==" and x.value is True):
            return True
        number = isinstance(x.value, int | float) and not isinstance(x.value, bool)
        if number and ((x.op == ">" and x.value >= 0) or (x.op in (">=", "==") and x.value > 0)):
            return True
    return False


@lru_cache(maxsize=4)
def _read_by_others(reg: Registry) -> tuple[str, ...]:
    """The keywords another reader takes a pitch's words by: every genre's name and famous games (the game
    itself, or named as another genre), the genres the studio cannot build, themes, colours and extras. Longest
    first, as blanking one consumes it: "flappy" blanked first left "flappy bird"'s bird to be read."""
    return tuple(kw for kw, _ in longest_first((w, None) for w in dict.fromkeys([
        *(w for lg in reg.genres for w in (*lg.genre.all_words("strong"), *lg.genre.famous)),
        *(w for u in UNBUILT for w in u.names),
        *(w for t in cat.THEMES for w in t.keywords), *(w for c in cat.COLOURS for w in c.keywords),
        *(w for e in cat.EXTRAS for w in e.keywords)])))


def _subjects(text: str, language: str | None) -> list[SubjectSaid]:
    """The subjects a text asks for, once the other readers took their words; a longer subject keyword keeps
    its own (火车 is a train, not the lava theme's 火; 海盗 a pirate, not the sea's 海)."""
    return find_subjects(blank_keywords(normalize(text), _read_by_others(registry()), subject_keywords()), language)


def _drawable(text: str, language: str | None, genre: str, builder: str = LOCAL) -> list[SubjectSaid]:
    """_subjects, plus what a genre's own name shows that its game draws only when asked: "frogger" and
    "青蛙过河" (a frog crosses the river) hop a frog, not the road hopper's chicken. Read in the whole text, as
    the name's words are blanked for the rest; an ask only, never a shortfall, and "without a frog" or a hero
    named ("frogger, but the hero is a chicken") still wins."""
    direct = _subjects(text, language)
    said = {s.subject for s in direct}
    e = cat.entry(genre)
    if not e.can_draw or e.hero in said or builder != LOCAL:  # an agent's game is its genre, the name's hero too
        return direct
    implied = [s for s in find_subjects(normalize(text), language)
               if s.subject in e.can_draw and s.subject not in said and not s.refused]
    return sorted([*direct, *implied], key=lambda s: s.start)


def _not_drawn(who: str, s: SubjectSaid, genre: str, builder: str = LOCAL) -> str:
    if builder != LOCAL:
        return (f"{who} asks for {s.said!r}, and no acceptance criterion checks that the game the {builder} Builder "
                f"makes draws {s.subject}: {LOOK}")
    return (f"{who} asks for {s.said!r}, and the embedded {genre_name(genre)} game draws no {s.subject}: "
            f"not built; {AGENT_HINT}")


_NOT_DRAWN = re.compile(r"(?P<who>.+?) asks for (?P<said>'[^']*'|\"[^\"]*\"), and (?:the embedded .+? game draws no "
                        r"(?P<a>.+?): not built; .*|no acceptance criterion checks that the game the .+? Builder makes "
                        r"draws (?P<b>.+?): .*)", re.S)


def drawn_for(line: str, genre: str, builder: str) -> str | None:
    """A steering message's thing to see (_not_drawn's line), said again for another Builder (a fork, a /swap, a
    fallback): None when that one's game draws it as its genre's own; any other line as it was."""
    m = _NOT_DRAWN.fullmatch(line)
    if m is None or genre not in cat.genre_ids():
        return line
    subject = m.group("a") or m.group("b")
    if subject in cat.entry(genre).draws:
        return None
    said = m.group("said")[1:-1]
    return _not_drawn(m.group("who"), SubjectSaid(subject=subject, said=said, start=0), genre, builder)


def _drawn_mark(subject: str, builder: str) -> str:
    """The words of _not_drawn's line that name the subject: how a steering message finds the line it takes back."""
    return f" Builder makes draws {subject}: " if builder != LOCAL else f" game draws no {subject}: "


def unshown_subjects(text: str, genre: str, language: str | None = None, *, who: str = "the pitch",
                     builder: str = LOCAL) -> list[str]:
    """The things a text asks to see ("tetris but with cats") that the genre's embedded game does not draw:
    named, so a PASS never stands for a game without what was pitched. A genre's name ("flappy bird") and what
    its game draws (Genre.draws, and Genre.can_draw, which the spec's extras then carry: `asked_drawings`) are
    its own; a word another reader took (a theme's "ghosts") is read there. An agent's game: every thing asked
    beyond the genre's own (flappy's bird, the slingshot's pigs), as nothing measures what a game draws."""
    if genre not in cat.genre_ids():  # an agent Planner's genre of its own: nothing is its own to draw
        return [] if builder == LOCAL else [_not_drawn(who, s, genre, builder) for s in _subjects(text, language)
                                            if not s.refused]
    e = cat.entry(genre)
    drawn = {*e.draws, *e.can_draw} if builder == LOCAL else set(e.draws)
    return [_not_drawn(who, s, genre, builder) for s in _subjects(text, language)
            if not s.refused and s.subject not in drawn]


def asked_drawings(text: str, genre: str, language: str | None = None, builder: str = LOCAL) -> list[str]:
    """The things a text asks to see that the genre's game draws only when asked (the road hopper's frog): the
    spec carries each in its extras, the builder passes them on, and a criterion checks the game draws it.
    None for an agent's game (unshown_subjects names them for a person)."""
    if genre not in cat.genre_ids() or builder != LOCAL:
        return []
    can = cat.entry(genre).can_draw
    return [s.subject for s in _drawable(text, language, genre) if not s.refused and s.subject in can]


def subjects_steered(spec: Spec, message: str, language: str | None = None) -> tuple[Spec, list[str]]:
    """A steering message asks for things to see as a pitch does: "add cats" to a game that draws none is a
    shortfall, so the verdict waits for a person; one the game draws when asked ("make it a frog") goes into
    the extras; "no cats after all" takes back the pitch's or an earlier message's ask."""
    genre, reading, builder = spec.genre, spec.reading, builder_of(spec)
    if genre not in cat.genre_ids():
        return spec, []
    e = cat.entry(genre)
    can = e.can_draw if builder == LOCAL else ()
    lines, extras, notes = list(reading.unhonoured) if reading else [], list(spec.extras), []
    for s in _drawable(message, language, genre, builder):
        mark = _drawn_mark(s.subject, builder)
        if s.refused:
            kept = [x for x in lines if mark not in x]
            gone = s.subject in extras and s.subject in can
            extras = [x for x in extras if not (gone and x == s.subject)]
            notes.append(f"subject: − {s.subject}" if gone or len(kept) < len(lines) else f"subject: {s.subject}: not asked for")
            lines = kept
        elif s.subject in can:
            notes.append(f"subject: {s.subject}: already drawn" if s.subject in extras else f"subject: + {s.subject}")
            extras = list(dict.fromkeys([*extras, s.subject]))
        elif s.subject in e.draws:
            notes.append(f"subject: {s.subject}: the {genre_name(genre)} game draws them")
        else:
            line = _not_drawn("the message", s, genre, builder)
            notes.append(f"Not carried: {line}")
            if not any(mark in x for x in lines):
                lines.append(line)
    update: dict[str, object] = {"extras": extras}
    if reading is not None:
        update["reading"] = reading.model_copy(update={"unhonoured": lines})
    return spec.model_copy(update=update), notes


def unremovable_extras(refused: Sequence[str], genre: str, builder: str = LOCAL) -> list[str]:
    """The extras a pitch or a steering refuses ("fruit ninja without bombs") that the genre's embedded game
    always has: named, so a game that still has them is not taken for the one asked for. An agent's game: every
    extra refused but the clock (a criterion checks "no time limit")."""
    if builder != LOCAL:
        return [_unchecked(f"the extra {x!r} is left out", builder) for x in _unchecked_extras(refused)]
    if genre not in cat.genre_ids():
        return []
    return [f"the embedded {genre_name(genre)} game always has {x}: a game without them is not built; {AGENT_HINT}"
            for x in refused if x in cat.entry(genre).extras and x not in cat.SWITCHABLE_EXTRAS]


def left_out(scores: Sequence[GenreScore], genre: str, builder: str = LOCAL) -> list[str]:
    """The genre's own words a pitch refuses ("pac-man without ghosts", "a platformer without enemies"): the
    embedded game has them, so it is not the game asked for; nothing checks an agent's game has none."""
    can_draw = set(cat.entry(genre).can_draw) if genre in cat.genre_ids() and builder == LOCAL else set()
    words = [w for w in next((s.refused for s in scores if s.genre == genre), [])
             if not any(find_any(w, e.keywords) for e in cat.EXTRAS)  # an extra refused is named as one
             and not any(s.subject in can_draw for s in find_subjects(w))]  # drawn only when asked
    if builder != LOCAL:
        return [_unchecked(f"the pitch leaves out {w!r}", builder) for w in dict.fromkeys(words)]
    return [f"the pitch leaves out {w!r}, which the embedded {genre_name(genre)} game has: a game without it is not "
            f"built; {AGENT_HINT}" for w in dict.fromkeys(words)]


def refusals(reading: Reading, genre: str, builder: str = LOCAL) -> list[str]:
    """What a pitch refuses that the genre's embedded game has (or, for an agent's game, that nothing checks),
    extras and the genre's own words alike."""
    return [*unremovable_extras(reading.refused_extras, genre, builder), *left_out(reading.genres, genre, builder)]


def extras_after_edit(reading: PitchReading | None, before: Spec, after: Spec) -> PitchReading | None:
    """A person's steering decides the extras too: one steered in that the game does not have is a shortfall,
    as it is in a pitch, and one steered out (or no longer missing after a change of genre) is not. After a
    change of genre, what the pitch refuses is weighed against the new genre's game, not the old one's."""
    if reading is None:
        return None
    builder = reading.builder
    old = set(unbuilt_extras(before.extras, before.genre, builder))
    back = {line for x in after.extras for line in unremovable_extras([x], after.genre, builder)}  # refused, then asked again
    stale: set[str] = set()
    fresh: list[str] = []
    if after.genre != before.genre and after.pitch:
        pitched = read_pitch(after.pitch)
        stale = {*refusals(pitched, before.genre, builder),
                 *unshown_subjects(after.pitch, before.genre, pitched.language, builder=builder)}
        fresh = [*refusals(pitched, after.genre, builder),
                 *unshown_subjects(after.pitch, after.genre, pitched.language, builder=builder)]
    kept = [x for x in reading.unhonoured if x not in old and x not in back and x not in stale]
    if after.genre != before.genre:
        kept = [y for x in kept for y in _steered_to(x, before.genre, after.genre)]
    added = [*fresh, *unbuilt_extras(after.extras, after.genre, builder)]
    return reading.model_copy(update={"unhonoured": [*kept, *(x for x in dict.fromkeys(added)
                                                                if x not in kept and x not in back)]})


def _steered_to(line: str, before: str, after: str) -> list[str]:
    """A steering message's thing to see, weighed against the new genre's game: kept, naming that game, where it
    does not draw it ("add cats" to tetris, then snake); gone where it does. Any other line as it was."""
    mark = f"and the embedded {genre_name(before)} game draws no "
    if not line.startswith("the message asks for ") or mark not in line or after not in cat.genre_ids():
        return [line]
    subject = line.split(mark, 1)[1].split(":", 1)[0]
    e = cat.entry(after)
    if subject in (*e.draws, *e.can_draw):
        return []
    return [line.replace(mark, f"and the embedded {genre_name(after)} game draws no ", 1)]


def nearest_note(asked: str, genre: str, builder: str = LOCAL) -> str:
    if builder != LOCAL:
        return (f"the embedded Planner has no rules for a {asked} game; it planned the nearest, {genre_name(genre)}, for "
                f"the {builder} Builder: /approve to keep it, or {agent_hint(builder)}")
    return (f"the embedded studio has no {asked} game; it built the nearest, {genre_name(genre)}: "
            f"/approve to keep it, or {AGENT_HINT}")


def agent_reading(spec: Spec, pitched: Reading, pitch: str, builder: str = LOCAL) -> PitchReading:
    """CRUMB's own reading of the pitch beside an agent's spec: which numbers it states and whether the spec
    carries and checks each; which extras and things to see it asks for that no criterion measures (the verdict
    waits for a person, as it does for the embedded Planner's plan). The genre is the agent's to judge (fits
    unknown); its Verifier is told to."""
    read, language, genre = pitched.numbers, pitched.language_reading, spec.genre
    recognised = language.model_copy(update={"recognised": True, "read_as": spec.language or language.read_as})
    asks = [*unbuilt_extras(pitched.extras, genre, builder, spec.criteria), *refusals(pitched, genre, builder),
            *unshown_subjects(pitch, genre, pitched.language, builder=builder),
            *pace_lines(pitched.numbers.pace, builder, apart_only=True), *unchecked_looks(pitched, builder)]
    if builder == LOCAL:  # the embedded game draws the road hopper's frog only when the spec's extras carry it
        asks += [f"the pitch asks to see {x}, and the spec's extras do not carry {x}: the embedded "
                 f"{genre_name(genre)} game draws {x} only when they do" for x in
                 asked_drawings(pitch, genre, pitched.language) if x not in spec.extras]
    return PitchReading(
        by="crumb", builder=builder,
        genre=GenreReading(genre=genre, how="planner", fits=None,
                           note="chosen by the Planner; the Verifier judges whether it is the game pitched"),
        language=recognised,
        numbers=stated_numbers(read.said, read.numbers, spec, embedded=False),
        unhonoured=[*unread_numbers(read, spec, embedded=False, named=[g.genre for g in pitched.genres]),
                    *dict.fromkeys(asks)],
    )


def pitch_lines(pitched: Reading, spec: Spec, pitch: str, builder: str = LOCAL) -> list[str]:
    """What of the pitch the embedded Planner's spec does not carry, or no criterion measures, for the Builder
    bound: the lines of its reading that the pitch decides (a person's steering adds its own)."""
    genre = spec.genre
    return [*(f"{x}; the pitch's words are kept as written" for x in pitched.numbers.ignored),
            *pace_lines(pitched.numbers.pace, builder),
            *unread_numbers(pitched.numbers, spec, embedded=builder == LOCAL),
            *unbuilt_extras(spec.extras, genre, builder),
            *refusals(pitched, genre, builder),
            *unshown_subjects(pitch, genre, pitched.language, builder=builder),
            *unchecked_looks(pitched, builder)]


def after_edit(reading: PitchReading | None, before: Spec, after: Spec, by: str) -> PitchReading | None:
    """A person's edit or steering decides: a genre or number they changed is theirs, not a shortfall."""
    if reading is None:
        return None
    genre = reading.genre
    if after.genre != before.genre:
        genre = GenreReading(genre=after.genre, how="person" if by == "user" else "steering", fits=True,
                             note=f"{genre_name(after.genre)}: a person asked for it")
    numbers = []
    for n in reading.numbers:
        now = getattr(after.numbers, n.field)
        if now != getattr(before.numbers, n.field):
            shown = "not set" if now is None else f"{now:g}"
            why = (support(after.genre, n.field, float(now))
                   if now is not None and reading.by != "crumb" and reading.builder == LOCAL else None)
            numbers.append(n.model_copy(update={
                "honoured": why is None, "criterion": criterion_for(n.field, after.criteria),
                "note": f"{LABELS[n.field]}: {PERSON_CHANGED} {n.said!r} to {shown}" + (f", but {why}" if why else "")}))
        else:
            numbers.append(n.model_copy(update={"criterion": criterion_for(n.field, after.criteria) if n.honoured else None}))
    return reading.model_copy(update={"genre": genre, "numbers": numbers})


def reading_for_agent(spec: Spec, pitch: str, builder: str = LOCAL) -> PitchReading:
    """CRUMB's own reading of the pitch for a spec an agent wrote (see agent_reading)."""
    return agent_reading(spec, read_pitch(pitch), pitch, builder)
