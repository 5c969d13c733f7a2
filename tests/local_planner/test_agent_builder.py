"""The embedded Planner plans for the Builder bound.

The embedded games lack some things (the clicker has no lives, the blocks game draws no cats), and a plan
for them names each lack as not built. With an agent bound to build (`--role builder=claude:sonnet`, the
README's own advice), those lines were false — the hint told the person to do what they had done — and
the verdict could never be PASS. For an agent's game every number the pitch states gets the criterion that
reads it back from the running game, so it is measured; an ask no criterion can check (an extra, a thing to
see, a thing left out) is left to a person, so a PASS never stands for what nobody measured.
"""

from __future__ import annotations

import pytest

from crumb.actors.embedded.fidelity import AGENT_HINT
from crumb.actors.embedded.planner import for_builder, plan
from crumb.actors.embedded.rules import SPEC_RULES
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.verifier import judge
from crumb.protocol.game import NUMBER_PATHS, Numbers, Spec
from tests.local_planner.test_fidelity import all_held, audited, rules_of

AGENT = "claude"
LOOK = "look at the game, then approve or veto it"


def planned(pitch: str, builder: str = AGENT) -> Spec:
    spec = plan(pitch, builder=builder)
    assert isinstance(spec, Spec) and spec.reading is not None, spec
    return spec


def criteria(spec: Spec) -> list[str]:
    return [c.id for c in spec.criteria]


@pytest.mark.parametrize(("pitch", "field", "value"), [
    ("cookie clicker with 3 lives", "lives", 3),
    ("flappy bird with 5 levels", "levels", 5),
    ("match-3 with 4 lives", "lives", 4),
    ("snake with 30 moves", "moves", 30),
])
def test_a_number_the_embedded_game_lacks_is_a_criterion_for_an_agents_game(pitch: str, field: str, value: int) -> None:
    local = planned(pitch, "local")
    assert field not in criteria(local) and any("is not built" in x for x in local.reading.shortfalls()), local.reading
    spec = planned(pitch)
    probe = next(c for c in spec.criteria if c.id == field).probe
    assert [(x.path, x.op, x.value) for x in probe.expect] == [(NUMBER_PATHS[field], "==", value)]
    stated = next(n for n in spec.reading.numbers if n.field == field)
    assert stated.honoured and stated.criterion == field, stated
    assert spec.reading.shortfalls() == [] and spec.reading.builder == AGENT
    assert judge(all_held(spec)).verdict == "PASS"  # held by the running game: measured, so a PASS
    failed = [{"id": c, "ok": c != field} for c in criteria(spec)]
    assert audited(spec, {"verdict": "PASS", "total": 5.0}, failed)["verdict"] == "FAIL"  # whatever a model says


@pytest.mark.parametrize(("pitch", "words"), [
    ("tetris but with cats", "the pitch asks for 'cats', and no acceptance criterion checks that the game the claude "
                             "Builder makes draws cats"),
    ("cookie clicker with a boss", "the extra 'boss' is asked for, which no acceptance criterion checks"),
    ("60-second match-3 with combo bonus", "the extra 'combo bonus' is asked for"),  # the embedded game has one
    ("fruit ninja without bombs", "the extra 'bombs' is left out"),
    ("pac-man without ghosts", "the pitch leaves out 'ghosts', which no acceptance criterion checks"),
    ("help the frog cross the road", "draws frogs"),  # the embedded game's frog is its own, checked by its own code
    # the embedded games' one pace cannot set one thing's apart; an agent may, and nothing measures it
    ("a tiny snake where the snake grows twice as fast", "the pace the pitch asks for, 'grows twice as fast', which"),
    ("a fast and slow snake", "the pace the pitch asks for, 'fast and slow at once', which"),
    # the embedded games paint the spec's palette by their own code; nothing measures an agent's game's
    ("neon snake", "the pitch asks for the Neon theme ('neon'), which no acceptance criterion checks"),
    ("a red and gold snake", "the pitch asks for 'red' and 'gold', which no acceptance criterion checks"),
])
def test_an_ask_no_criterion_checks_in_an_agents_game_waits_for_a_person(pitch: str, words: str) -> None:
    spec = planned(pitch)
    lines = spec.reading.shortfalls()
    assert len(lines) == 1 and words in lines[0] and lines[0].endswith(LOOK), lines
    assert "embedded" not in lines[0] and AGENT_HINT not in lines[0], lines  # nothing about the embedded games
    assert judge(all_held(spec)).verdict == "PARTIAL"
    result = audited(spec, {"verdict": "PASS", "total": 5.0})
    assert result["verdict"] == "PARTIAL" and "pitch_fidelity" in rules_of(result)
    assert "draws-frogs" not in criteria(spec) and "frogs" not in spec.extras  # no self-report asked of an agent


@pytest.mark.parametrize("pitch", ["frogger", "flappy bird", "angry birds", "crossy road", "snake with 5 levels"])
def test_a_genres_own_name_asks_an_agent_for_nothing_more(pitch: str) -> None:
    """The genre is checked by its criterion; its name's hero (Frogger's frog, flappy's bird) is the genre's."""
    spec = planned(pitch)
    assert spec.reading.shortfalls() == [] and judge(all_held(spec)).verdict == "PASS", spec.reading.shortfalls()


def test_a_genre_the_embedded_planner_has_no_rules_for_asks_for_an_agent_planner() -> None:
    line = planned("chess puzzles in 2 minutes").reading.shortfalls()[0]
    assert line.startswith("the embedded Planner has no rules for a board or card game; it planned the nearest, Memory, "
                           "for the claude Builder"), line
    assert "--role planner=claude:sonnet" in line and "--role builder=" not in line
    assert "--role builder=claude:sonnet" in planned("chess puzzles in 2 minutes", "local").reading.shortfalls()[0]


def test_steering_an_agents_game_asks_and_takes_back_as_a_pitch_does() -> None:
    cats, notes = apply_steering(planned("tetris"), ["add some cats"])
    assert notes == [f"Not carried: {cats.reading.unhonoured[0]}"] and "draws cats" in notes[0], notes
    assert judge(all_held(cats)).verdict == "PARTIAL"
    back, notes = apply_steering(cats, ["no cats after all"])
    assert notes == ["subject: − cats"] and back.reading.shortfalls() == [], notes
    boss, notes = apply_steering(planned("cookie clicker"), ["add a boss", "5 lives"])
    assert "extra: + boss" in notes and "lives" in criteria(boss) and len(boss.reading.shortfalls()) == 1, notes
    gone, notes = apply_steering(boss, ["no boss"])  # taken out: nothing checks the agent's game has none
    assert gone.extras == [] and ["the extra 'boss' is left out" in x for x in gone.reading.shortfalls()] == [True]
    again, _ = apply_steering(gone, ["add a boss"])
    assert [("is asked for" in x) for x in again.reading.shortfalls()] == [True], again.reading.shortfalls()
    neon = planned("neon snake")
    space, notes = apply_steering(neon, ["make it space themed"])  # the theme asked for is the message's now
    assert [x.split(", which")[0] for x in space.reading.shortfalls()] == [
        "the message asks for the Space theme ('space')"], notes
    plain, notes = apply_steering(space, ["no space theme after all"])
    assert plain.theme.name == "default" and plain.reading.shortfalls() == [], notes
    _, notes = apply_steering(planned("snake"), ["make the snake grow twice as fast"])
    assert [x for x in notes if x.startswith("Not carried")] == [
        f"Not carried: the pace the message asks for, 'grow twice as fast', which no acceptance criterion checks in "
        f"the game the {AGENT} Builder makes: {LOOK}"], notes


def test_a_refused_extra_the_embedded_game_always_has_waits_when_steered_too() -> None:
    """"no bombs" by message was a note only, so a game with bombs could PASS; it waits, as the pitch's words do."""
    spec, notes = apply_steering(planned("fruit ninja", "local"), ["no bombs please"])
    assert notes[0].startswith("Not carried: the embedded Fruit Slice game always has bombs"), notes
    assert judge(all_held(spec)).verdict == "PARTIAL"
    asked, _ = apply_steering(spec, ["add bombs"])
    assert asked.reading.shortfalls() == [] and judge(all_held(asked)).verdict == "PASS"


def test_a_persons_edit_of_an_agents_spec_keeps_its_numbers_measured() -> None:
    base = planned("cookie clicker with 3 lives")
    edited = SPEC_RULES.follow_edit(base.model_copy(update={"numbers": Numbers(lives=4)}), base)
    probe = next(c for c in edited.criteria if c.id == "lives").probe
    assert [(x.path, x.value) for x in probe.expect] == [("lives", 4)]
    assert edited.reading.shortfalls() == [], edited.reading.shortfalls()
    local = planned("cookie clicker with 3 lives", "local")
    kept = SPEC_RULES.follow_edit(local.model_copy(update={"numbers": Numbers(lives=4)}), local)
    assert "lives" not in criteria(kept)  # the embedded clicker has none: named, never probed


@pytest.mark.parametrize("builder", ["local", AGENT])
def test_every_number_stated_at_once_still_fits_a_spec(builder: str) -> None:
    """For an agent every stated number is a criterion: with all of them, in every genre, the spec stays within its
    12 criteria (the dispatcher validates what the Planner returns, so one more would fail the session)."""
    from crumb.actors.embedded import catalogue as cat

    most = 0
    for genre in cat.genre_ids():
        e = cat.entry(genre)
        for extra in ("", " with a frog", " with no timer"):
            spec = planned(f"{(e.famous or (e.name,))[0]}{extra} with 3 lives, 5 levels, 20 seconds per level, target "
                           "500 points, 20 moves, double speed, 8x8 grid, 90 second round", builder)
            Spec.model_validate_json(spec.model_dump_json())
            most = max(most, len(spec.criteria))
    assert most >= 10, most  # the numbers were read: the test is not vacuous


@pytest.mark.parametrize("pitch", ["cookie clicker with 3 lives and a boss", "neon snake where the snake grows twice as fast",
                                   "frogger with 5 lives", "minesweeper 10x10 with 20 mines", "chess puzzles in 2 minutes",
                                   "pac-man without ghosts", "fruit ninja without bombs", "snake with 3 lives in red and gold"])
@pytest.mark.parametrize(("before", "after"), [("local", AGENT), (AGENT, "local"), (AGENT, "codex")])
def test_a_spec_reweighed_for_another_builder_is_the_plan_for_it(pitch: str, before: str, after: str) -> None:
    """A fork, a /swap or a fallback builds a spec planned for another Builder: re-weighed (for_builder), its checks
    and reasons are the ones the Planner gives the new one, and its design is the same."""
    moved = for_builder(planned(pitch, before), pitch, after)
    assert moved.model_dump(exclude={"rationale"}) == planned(pitch, after).model_dump(exclude={"rationale"})


def test_what_a_persons_steering_asked_stays_asked_when_the_builder_changes() -> None:
    cats, _ = apply_steering(planned("snake", "local"), ["add some cats"])
    moved = for_builder(cats, "snake", AGENT)
    steered, _ = apply_steering(planned("snake", AGENT), ["add some cats"])
    assert moved.reading.unhonoured == steered.reading.unhonoured != [], moved.reading.unhonoured
    assert for_builder(moved, "snake", "local").reading.unhonoured == cats.reading.unhonoured
    assert for_builder(moved, "snake", AGENT) is moved, "planned for it already: nothing to re-weigh"
