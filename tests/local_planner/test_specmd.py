"""artifacts/spec.md: written for people, read back exactly, edits become a Spec, bad edits are named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.rules import SPEC_RULES, criteria_for
from crumb.protocol.game import Controls, Numbers, Spec, Theme
from crumb.protocol.spec_markdown import parse_spec_markdown as read_spec_md
from crumb.protocol.spec_markdown import spec_markdown


def parse_spec_markdown(text: str, base: Spec) -> Spec:
    """spec.md read back with the embedded studio's rules, as the daemon reads a person's save."""
    return read_spec_md(text, base, rules=SPEC_RULES)


PITCHES = ["a neon snake game with three lives and a 60 second time limit", "貪食蛇遊戲，三條命，六十秒內達到500分",
           "match-3 with gems, 20 moves, reach 1000 points, 8x8 grid, speed 1.5", "스네이크 게임",
           'a snake game called "Noodle Panic" with combo bonus']


def _spec(pitch: str) -> Spec:
    out = plan(pitch)
    assert isinstance(out, Spec)
    return out


@pytest.mark.parametrize("pitch", PITCHES)
def test_round_trip_is_exact(pitch: str) -> None:
    spec = _spec(pitch)
    assert parse_spec_markdown(spec_markdown(spec), spec) == spec


def test_the_page_reads_like_a_spec() -> None:
    md = spec_markdown(_spec(PITCHES[0]))
    assert md.startswith("# Neon Snake\n")
    for line in ("- genre: snake", "- lives: 3", "- time limit (s): 60", "- target score: -",
                 "- keys: ArrowUp, ArrowDown, ArrowLeft, ArrowRight, w, a, s, d", "## Acceptance criteria",
                 "- [lives] The player starts with 3 lives."):
        assert line in md.split("\n"), line


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(title=TEXT.filter(lambda s: 1 <= len(s) <= 120), pitch=TEXT, win=TEXT, rationale=TEXT,
       keys=st.lists(TEXT, max_size=4), extras=st.lists(TEXT, max_size=3), theme=TEXT,
       speed=st.one_of(st.none(), st.floats(min_value=0.01, max_value=100)), seed=st.integers())
def test_round_trip_of_awkward_text(title: str, pitch: str, win: str, rationale: str, keys: list[str],
                                    extras: list[str], theme: str, speed: float | None, seed: int) -> None:
    base = _spec("snake")
    spec = base.model_copy(update={
        "title": title, "pitch": pitch, "win": win, "rationale": rationale, "extras": extras, "seed": seed,
        "controls": Controls(keys=keys, pointer="", touch="tap"), "theme": Theme(name=theme, palette=["#000", "#fff"]),
        "numbers": Numbers(speed=speed),
    })
    spec = spec.model_copy(update={"criteria": criteria_for(spec)})  # a stated speed is checked in the game too
    assert parse_spec_markdown(spec_markdown(spec), base) == spec


def _edit(md: str, old: str, new: str) -> str:
    assert old in md
    return md.replace(old, new, 1)


def test_editing_a_number_regenerates_untouched_criteria() -> None:
    spec = _spec(PITCHES[0])
    out = parse_spec_markdown(_edit(spec_markdown(spec), "- lives: 3", "- lives: 5"), spec)
    assert out.numbers.lives == 5
    assert next(c for c in out.criteria if c.id == "lives").probe.expect[0].value == 5


def test_edited_criteria_are_kept_as_written() -> None:
    spec = _spec(PITCHES[0])
    md = _edit(spec_markdown(spec), "- lives: 3", "- lives: 5")
    md = _edit(md, "- [lives] The player starts with 3 lives.", "- [lives] Five hearts.")
    out = parse_spec_markdown(md, spec)
    assert next(c for c in out.criteria if c.id == "lives").text == "Five hearts."
    assert next(c for c in out.criteria if c.id == "lives").probe.expect[0].value == 3


def test_editing_the_genre_re_aims_rules_and_probes() -> None:
    spec = _spec(PITCHES[0])
    out = parse_spec_markdown(_edit(spec_markdown(spec), "- genre: snake", "- genre: pong"), spec)
    assert out.genre == "pong" and "ball" in out.core_loop.lower()
    assert next(c for c in out.criteria if c.id == "genre").probe.expect[0].value == "pong"


def test_a_genre_or_extra_edited_in_spec_md_is_weighed_as_steering_weighs_it() -> None:
    """A person's edit decides like a steering message: the maze game a pitch left the ghosts out of is no
    shortfall once they make it snake, and an extra they add that the game lacks is one."""
    spec = _spec("pac-man without ghosts")
    assert [x.split(",")[0] for x in spec.reading.shortfalls()] == ["the pitch leaves out 'ghosts'"]
    out = parse_spec_markdown(_edit(spec_markdown(spec), "- genre: maze", "- genre: snake"), spec)
    assert out.genre == "snake" and out.reading.shortfalls() == [], out.reading
    md = spec_markdown(_spec("snake")).replace("## Extras\n\n", "## Extras\n\n- boss\n")
    out = parse_spec_markdown(md, _spec("snake"))
    assert out.extras == ["boss"] and [x.split(":")[0] for x in out.reading.shortfalls()] == [
        "the embedded Snake game has no boss"], out.reading


def test_plain_text_edits() -> None:
    spec = _spec(PITCHES[0])
    md = _edit(spec_markdown(spec), "# Neon Snake", "# Hungry Hungry Snake")
    md = _edit(md, "- palette: #0a0a1a, #39ff14", "- palette: #000000, #ff0000")
    md = md.replace("## Extras\n\n", "## Extras\n\n- combo bonus\n")
    out = parse_spec_markdown(md, spec)
    assert out.title == "Hungry Hungry Snake" and out.theme.palette[:2] == ["#000000", "#ff0000"]
    assert out.extras == ["combo bonus"] and out.criteria == spec.criteria


def test_a_removed_section_keeps_the_base_values() -> None:
    spec = _spec(PITCHES[0])
    md = spec_markdown(spec)
    start, end = md.index("## Rationale"), len(md)
    assert parse_spec_markdown(md[:start], spec) == spec
    assert md[start:end]


@pytest.mark.parametrize(("old", "new", "needle"), [
    ("- lives: 3", "- lives: three", "line 29: lives must be a number"),
    ("- lives: 3", "- lives: 500", "lives 500 is out of range"),
    ("- lives: 3", "- livez: 3", "unknown field 'livez' under Numbers"),
    ("## Theme", "## Colours", "unknown section 'Colours'"),
    ("- genre: snake", "- genre: tetris", "unknown genre 'tetris'; did you mean 'blocks'?"),
    ("- palette: #0a0a1a", "- palette: black", "'black' is not a hex colour"),
    ("- seed: 1", "- seed: one", "seed must be a whole number"),
    ('  probe: {"expect": [{"path": "phase"', '  probe: {"expect": [{"path": "phase"]', "is not valid JSON"),
    ('  probe: {"expect": [{"path": "phase", "op": "=="', '  probe: {"expect": [{"path": "phase", "op": "==="',
     "criteria.0.probe.expect.0.op"),
    ("- win: ", "win = ", "expected '- name: value'"),
])
def test_bad_edits_name_the_line_and_the_fix(old: str, new: str, needle: str) -> None:
    spec = _spec(PITCHES[0])
    with pytest.raises(ValueError) as err:
        parse_spec_markdown(_edit(spec_markdown(spec), old, new), spec)
    message = str(err.value)
    assert needle in message, message
    assert message.startswith("spec.md line ") and "\n" not in message
