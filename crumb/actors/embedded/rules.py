"""A spec's rules and acceptance criteria from its genre and numbers: what the embedded Planner
writes, steering amends and a person's edit of spec.md is followed by (SPEC_RULES).

Pure. The criteria are ones a correct game by docs/game-contract.md satisfies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.catalogue import NO_CLOCK
from crumb.actors.embedded.fidelity import LOCAL, NUMBER_PROBES, after_edit, builder_of, extras_after_edit, support
from crumb.actors.embedded.pitch import score_genres
from crumb.actors.embedded.text import normalize
from crumb.protocol.game import Controls, Criterion, Expect, Numbers, Probe, ProbeStep, Spec

CLOCK_CHECK_MS = 2000
ROUND_PROBE_MAX_S = 120  # longer rounds: the start probe checks the clock; a fake-clock wait costs real seconds


def describe(genre: str, numbers: Numbers) -> tuple[str, str, str]:
    """core_loop, win and lose sentences for a genre with the stated numbers in them."""
    e = cat.entry(genre)
    core = e.core_loop
    win = e.win
    lose = e.lose
    t, lives, target = numbers.time_limit_s, numbers.lives, numbers.target_score
    if target and t:
        win = f"Reach {target} points before the {t}-second clock runs out."
    elif target:
        win = f"Reach {target} points."
    elif t and e.survive_win:
        win = f"Survive the {t}-second round."
    elif numbers.levels:
        win = f"Clear all {numbers.levels} levels."
    losses = []
    if lives:
        losses.append("lose your only life" if lives == 1 else f"lose all {lives} lives")
    if t and not win.startswith("Survive"):
        losses.append(f"the {t}-second clock runs out" + (" first" if target else ""))
    if numbers.moves:
        losses.append(f"the {numbers.moves} moves run out")
    if numbers.level_time_s:
        lt = numbers.level_time_s
        core = f"{core} Each level has its own {lt}-second clock; running out costs a life."
        losses.append(f"a level's {lt}-second clock runs out" + (" on your last life" if lives and lives > 1 else ""))
    if losses:
        lose = "; ".join(losses)
        lose = lose[0].upper() + lose[1:] + "."
    return core, win, lose


def level_clock_criteria(spec: Spec, lives: int | None, builder: str = LOCAL) -> list[Criterion]:
    """The per-level clock (level_time_s) in the running game: it counts down from its value, and when
    it runs out it costs a life and starts again, or ends the round on the last life; it is not the
    whole game's clock (a 13-second game ends at 13 s; a 13-second level clock does not)."""
    lt = spec.numbers.level_time_s
    e = cat.entry(spec.genre) if spec.genre in cat.genre_ids() else None
    if lt is None or (e is not None and builder == LOCAL and support(spec.genre, "level_time_s", float(lt))):
        return []
    out: list[Criterion] = []
    t = spec.numbers.time_limit_s
    runs_out = e is not None and e.idle_safe and lt <= ROUND_PROBE_MAX_S and (t is None or t > lt + 2)
    if t is None or not runs_out:  # with a round clock, "start" checks that one
        out.append(_crit("start" if t is None else "levelclock",
                         f"Pressing Enter starts a round whose {lt}-second level clock counts down.",
                         [{"do": "start"}, {"do": "wait", "ms": CLOCK_CHECK_MS}],
                         [{"path": "levelTimeLeft", "op": "<", "value": lt},
                          {"path": "levelTimeLeft", "op": ">=", "value": lt - (CLOCK_CHECK_MS + 500) / 1000}]))
    if not runs_out:
        return out  # waiting could end the round some other way first: the countdown is what can be proven
    steps: list[dict[str, Any]] = [{"do": "start"}, {"do": "wait", "ms": (lt + 1) * 1000}]
    if lives is not None and lives > 1:
        out.append(_crit("levelclock", f"When a level's {lt} seconds run out it costs a life and the level clock "
                                       f"starts again; the round goes on.", steps,
                         [{"path": "phase", "op": "==", "value": "playing"}, {"path": "lives", "op": "decreased"},
                          {"path": "levelTimeLeft", "op": "<=", "value": lt},
                          {"path": "levelTimeLeft", "op": ">=", "value": lt - 1.5}]))
    else:
        out.append(_crit("levelclock", f"When a level's {lt} seconds run out on the last life, the round is over.",
                         steps, [{"path": "phase", "op": "==", "value": "over"},
                                 {"path": "levelTimeLeft", "op": "<=", "value": 0}]))
    return out


def _crit(cid: str, text: str, steps: list[dict[str, Any]], expect: list[dict[str, Any]]) -> Criterion:
    return Criterion(id=cid, text=text,
                     probe=Probe(steps=[ProbeStep(**s) for s in steps], expect=[Expect(**x) for x in expect]))


def criteria_for(spec: Spec, builder: str | None = None) -> list[Criterion]:
    """The acceptance criteria a correct game (by the contract) with this spec satisfies: each stated number the
    game can carry is read back, which for an agent's game (`builder`, else the spec's reading says) is each one."""
    builder = builder or builder_of(spec)
    e = cat.entry(spec.genre) if spec.genre in cat.genre_ids() else None
    embedded = e if builder == LOCAL else None  # whose lacks drop a number's criterion: the embedded game's only
    n = spec.numbers
    name = e.name if e else spec.genre
    t = n.time_limit_s
    crit = _crit
    lives = n.lives if n.lives is not None else (e.defaults.get("lives") if e is not None else None)
    level_clock = level_clock_criteria(spec, lives, builder)

    out = [
        crit("title", "The title screen shows when the game loads.", [], [{"path": "phase", "op": "==", "value": "title"}]),
        crit("genre", f"It is a {name} game.", [], [{"path": "genre", "op": "==", "value": spec.genre}]),
    ]
    if level_clock and level_clock[0].id == "start":
        out.append(level_clock.pop(0))
    elif t:
        # the clock must start at T and count down; a player who dies early freezes it below T, so
        # this holds for every correct game, and catches a clock that never runs
        out.append(crit("start", f"Pressing Enter starts a round whose {t}-second clock counts down.",
                        [{"do": "start"}, {"do": "wait", "ms": CLOCK_CHECK_MS}],
                        [{"path": "timeLeft", "op": "<", "value": t},
                         {"path": "timeLeft", "op": ">=", "value": t - (CLOCK_CHECK_MS + 500) / 1000}]))
    else:
        out.append(crit("start", "Pressing Enter starts a round.", [{"do": "start"}],
                        [{"path": "phase", "op": "==", "value": "playing"}]))
    play_ms = 8000 if not t else max(500, min(8000, (t - 1) * 1000))
    if n.level_time_s:  # level clocks that run out end the round once the lives are gone
        play_ms = max(500, min(play_ms, (n.level_time_s * (lives or 1) - 1) * 1000))
    out.append(crit("score", "Playing raises the score.", [{"do": "start"}, {"do": "play", "ms": play_ms}],
                    [{"path": "score", "op": "increased"}]))
    if t and t <= ROUND_PROBE_MAX_S:
        expect: list[dict[str, Any]] = [{"path": "phase", "op": "in", "value": ["over", "won"]}]
        if e and e.idle_safe and not (n.level_time_s and n.level_time_s <= t):  # a level clock may end it first
            expect.append({"path": "timeLeft", "op": "<=", "value": 0})
        out.append(crit("timer", f"The round ends after {t} seconds.",
                        [{"do": "start"}, {"do": "wait", "ms": (t + 2) * 1000}], expect))
    if NO_CLOCK in spec.extras and not t and not n.level_time_s:  # "no timer": the round has none, whatever the genre's default
        out.append(crit("noclock", "The round has no clock.", [{"do": "start"}, {"do": "wait", "ms": CLOCK_CHECK_MS}],
                        [{"path": "timeLeft", "op": "in", "value": [None]}]))
    out += level_clock
    for x in (x for x in spec.extras if embedded is not None and x in embedded.can_draw):  # the hopper's frog, asked for
        out.append(crit(f"draws-{x}"[:32], f"The game draws {x}.", [], [{"path": f"draws.{x}", "op": "==", "value": True}]))
    if n.lives and not (embedded is not None and support(spec.genre, "lives", float(n.lives))):
        out.append(crit("lives", f"The player starts with {n.lives} {'life' if n.lives == 1 else 'lives'}.",
                        [{"do": "start"}], [{"path": "lives", "op": "==", "value": n.lives}]))
    if n.target_score:
        out.append(crit("target", f"Reaching {n.target_score} points wins.", [{"do": "start"}],
                        [{"path": "target", "op": "==", "value": n.target_score}]))
    # every other stated number the game can honour is read back from the running game
    for field, cid, text in (("levels", "levels", "The game has {v} levels."),
                             ("moves", "moves", "A round gives {v} moves."),
                             ("grid", "grid", "The board is {v} cells across."),
                             ("speed", "speed", "The game runs at {v}× speed.")):
        value = getattr(n, field)
        if value is None or (embedded is not None and support(spec.genre, field, float(value))):
            continue
        path = NUMBER_PROBES[field][0]
        out.append(crit(cid, text.format(v=f"{value:g}"), [{"do": "start"}], [{"path": path, "op": "==", "value": value}]))
    return out


def promises_changed(spec: Spec, base: Spec) -> bool:
    """Whether what the criteria check moved: the genre, a number, the clock ("no timer") or a thing drawn on ask."""
    e = cat.entry(spec.genre) if spec.genre in cat.genre_ids() else None
    drawn = [x for x in spec.extras if e is not None and x in e.can_draw]
    was = [x for x in base.extras if e is not None and x in e.can_draw]
    return (spec.numbers != base.numbers or spec.genre != base.genre
            or (NO_CLOCK in spec.extras) != (NO_CLOCK in base.extras) or drawn != was)


def with_genre(spec: Spec, genre: str, reason: str) -> Spec:
    """The same spec re-aimed at another genre: rules, controls, title and criteria follow."""
    e = cat.entry(genre)
    core, win, lose = describe(genre, spec.numbers)
    old = cat.entry(spec.genre).names.get(spec.language) if spec.genre in cat.genre_ids() else None
    title = spec.title
    new_name = e.names.get(spec.language, e.name)
    if old and old in title:
        title = title.replace(old, new_name)
    elif old is not None:
        title = new_name
    out = spec.model_copy(update={
        "genre": genre, "core_loop": core, "win": win, "lose": lose, "title": title[:120],
        "controls": Controls(keys=list(e.controls.keys), pointer=e.controls.pointer, touch=e.controls.touch),
        "rationale": (spec.rationale + " " + reason).strip()[:4000],
    })
    return out.model_copy(update={"criteria": criteria_for(out)})


class EmbeddedSpecRules:
    """The embedded studio's answer to what spec.md's format cannot know (protocol.spec_markdown.SpecRules):
    its genres, the nearest one to a word a person wrote, and how a spec follows their edit."""

    def genre_ids(self) -> Sequence[str]:
        return cat.genre_ids()

    def guess_genre(self, word: str) -> str | None:
        guess = score_genres(normalize(word), weak=False)
        return guess[0].genre if guess else None

    def follow_edit(self, spec: Spec, base: Spec) -> Spec:
        """A change of numbers, genre or clock with untouched criteria regenerates them (the rules follow a
        new genre; the person's rationale stays), and the pitch reading records the edit."""
        if promises_changed(spec, base) and spec.criteria == base.criteria:
            if spec.genre != base.genre and spec.genre in cat.genre_ids():
                rationale = spec.rationale
                spec = with_genre(spec.model_copy(update={"genre": base.genre}), spec.genre, "")  # rules follow the genre
                spec = spec.model_copy(update={"rationale": rationale})
            spec = spec.model_copy(update={"criteria": criteria_for(spec, builder_of(base))})
        reading = after_edit(base.reading, base, spec, by="user")
        if spec.extras != base.extras or spec.genre != base.genre:  # weighed as steering weighs them
            reading = extras_after_edit(reading, base, spec)
        return spec.model_copy(update={"reading": reading})


SPEC_RULES = EmbeddedSpecRules()
