"""Planner properties: deterministic, never fails on any text, valid probes, research and redesign paths."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crumb.actors.embedded.catalogue import genre_ids
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.research import research
from crumb.protocol.events import EvidenceItem, ResearchPlan
from crumb.protocol.game import Spec

PITCH_ALPHABET = st.characters(blacklist_categories=("Cs",))


def _check(out: Spec | ResearchPlan) -> None:
    if isinstance(out, ResearchPlan):
        assert out.questions and all(c in genre_ids() for c in out.candidates)
        return
    assert out.genre in genre_ids()
    assert 3 <= len(out.criteria) <= 12  # the Spec's limit: every number a pitch states adds the probe reading it back
    assert len({c.id for c in out.criteria}) == len(out.criteria)
    Spec.model_validate_json(out.model_dump_json())  # what the dispatcher will do


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(PITCH_ALPHABET, max_size=300))
def test_any_text_yields_a_spec_or_a_research_plan(pitch: str) -> None:
    _check(plan(pitch))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["snake", "lives", "drei", "60", "seconds", "秒", "목숨", "ライフ", "x3", "1,000",
                                 "points", "target", "🐍", "三条命", "세 개", "\n", '"', "4x4", "faster", "rot"]),
                max_size=40), st.integers(min_value=-10**6, max_value=10**6), st.sampled_from(["local", "claude"]))
def test_keyword_soup_is_read_without_failing(words: list[str], seed: int, builder: str) -> None:
    out = plan(" ".join(words), seed=seed, builder=builder)  # for an agent every stated number is a criterion
    _check(out)
    if isinstance(out, Spec):
        assert out.seed == seed


def test_ten_kilobytes_of_text() -> None:
    pitch = ("A snake game with three lives. " + "Lorem ipsum dolor sit amet, 漢字 한글 かな 🐍 ") * 200
    assert len(pitch.encode()) > 10_000
    out = plan(pitch)
    assert isinstance(out, Spec) and out.genre == "snake" and out.numbers.lives == 3


def test_same_inputs_same_spec() -> None:
    pitches = ["a neon snake game with three lives", "貪食蛇遊戲，三條命", "a cozy game about a cat", ""]
    for p in pitches:
        assert plan(p, seed=3) == plan(p, seed=3)
    ev = [EvidenceItem(id="catalogue:clicker", source="crumb catalogue", title="Clicker", text="click things")]
    assert plan("a cat game", evidence=ev) == plan("a cat game", evidence=ev)


def test_research_path_picks_a_genre_and_says_why() -> None:
    pitch = "a cozy game about a cat that catches fish"
    first = plan(pitch)
    assert isinstance(first, ResearchPlan)
    evidence = research(first, pitch)
    assert 1 <= len(evidence.items) <= 3
    assert all(i.id.startswith("catalogue:") and i.id.split(":")[1] in genre_ids() for i in evidence.items)
    assert "Rules:" in evidence.items[0].text
    spec = plan(pitch, evidence=evidence.items)
    assert isinstance(spec, Spec)
    assert spec.genre == evidence.items[0].id.split(":")[1] == "dodge"  # "catches" is the dodge family's action
    assert evidence.items[0].id in spec.rationale


def test_research_follows_theme_when_no_verb() -> None:
    pitch = "宇宙のゲーム"  # "a space game": no genre word
    first = plan(pitch)
    assert isinstance(first, ResearchPlan)
    spec = plan(pitch, evidence=research(first, pitch).items)
    assert isinstance(spec, Spec) and spec.genre == "shooter" and spec.language == "ja"


def test_foreign_evidence_is_read_by_its_words() -> None:
    ev = [EvidenceItem(id="web-1", source="https://example.org", title="Tetris",
                       text="Falling tetrominoes; clear lines to score.")]
    spec = plan("something cozy", evidence=ev)
    assert isinstance(spec, Spec) and spec.genre == "blocks" and "web-1" in spec.rationale


def test_useless_evidence_still_gives_a_spec() -> None:
    ev = [EvidenceItem(id="x", source="nowhere", title="nothing", text="nothing at all")]
    spec = plan("something cozy", evidence=ev)
    assert isinstance(spec, Spec) and spec.genre in genre_ids()


def test_feedback_asking_for_another_genre_replans_into_it() -> None:
    first = plan("a breakout game with 3 lives")
    assert isinstance(first, Spec) and first.genre == "breakout"
    again = plan("a breakout game with 3 lives", previous=first, feedback="make it a snake game instead")
    assert isinstance(again, Spec) and again.genre == "snake" and again.numbers.lives == 3
    assert next(c for c in again.criteria if c.id == "genre").probe.expect[0].value == "snake"


def test_steering_in_another_language_asks_for_another_genre() -> None:
    first = plan("ein Tetris mit drei Leben")
    assert isinstance(first, Spec) and first.genre == "blocks"
    for msg in ("andere genre", "anderes Genre bitte", "다른 장르로", "別のジャンルにして", "altro genere"):
        again = plan("ein Tetris mit drei Leben", previous=first, steering=[msg])
        assert isinstance(again, Spec) and again.genre != "blocks", msg
    wish = plan("ein Tetris mit drei Leben", previous=first, steering=["mach daraus Snake"])
    assert isinstance(wish, Spec) and wish.genre == "snake"


def test_critical_redesign_without_a_wish_picks_the_next_best_genre() -> None:
    pitch = "a game with paddles"  # hints at breakout and pong equally
    first = plan(pitch, evidence=[EvidenceItem(id="catalogue:breakout", source="c", title="b", text="")])
    assert isinstance(first, Spec) and first.genre == "breakout"
    feedback = ("FAIL (Critical), total 1/5.\n- [Critical] the game built is not the genre specified: probe 'genre' "
                "failed — It is a Breakout game. Expected genre == breakout; observed \"snake\"")
    again = plan(pitch, previous=first, feedback=feedback)
    assert isinstance(again, Spec)
    assert again.genre == "pong"  # next best, and the Verifier's mention of snake is not read as a wish
    assert "redesign" in again.rationale


def test_redesign_keeps_steered_choices() -> None:
    first = plan("a snake game")
    assert isinstance(first, Spec)
    steered = first.model_copy(update={"numbers": first.numbers.model_copy(update={"lives": 5}),
                                       "extras": ["speed:1.25"]})
    again = plan("a snake game", previous=steered, feedback="too hard to read")
    assert isinstance(again, Spec) and again.genre != "snake"
    assert again.numbers.lives == 5 and "speed:1.25" in again.extras


def test_steering_numbers_apply_at_planning() -> None:
    spec = plan("a snake game", steering=["30 seconds", "make it red"])
    assert isinstance(spec, Spec) and spec.numbers.time_limit_s == 30 and spec.theme.palette[1] == "#e63946"
    assert any(c.id == "timer" for c in spec.criteria)


def test_a_redesign_a_person_asked_for_keeps_the_genre() -> None:
    first = plan("a snake game")
    assert isinstance(first, Spec)
    # the reducer: PASS with planner steering queued, or a steer while waiting for approval
    for feedback, steering in (("the person asked for changes", ["make it red"]), ("make it red", ["make it red"])):
        again = plan("a snake game", previous=first, feedback=feedback, steering=steering)
        assert isinstance(again, Spec) and again.genre == "snake" and again.theme.palette[1] == "#e63946"
    # a Critical verdict with steering queued earlier still moves on
    again = plan("a snake game", previous=first, feedback="FAIL (Critical): nothing loads", steering=["make it red"])
    assert isinstance(again, Spec) and again.genre != "snake" and again.theme.palette[1] == "#e63946"


def test_a_person_asked_redesign_keeps_a_steered_genre() -> None:
    first = plan("a snake game")
    assert isinstance(first, Spec)
    steered = plan("a snake game", previous=first, steering=["make it a pong game"])
    assert isinstance(steered, Spec) and steered.genre == "pong"
    again = plan("a snake game", previous=steered, feedback="the person asked for changes", steering=["faster"])
    assert isinstance(again, Spec) and again.genre == "pong" and "speed:1.25" in again.extras


def test_a_wrong_build_of_a_right_design_keeps_the_genre() -> None:
    # the builder made breakout's neighbour; the Verifier says Critical; the pitch clearly says breakout
    first = plan("breakout with 3 lives")
    assert isinstance(first, Spec)
    feedback = ("FAIL (Critical), total 2.5/5.\n- [Critical] the game built is not the genre specified: probe 'genre' "
                "failed — It is a Breakout game. Expected genre == breakout; observed {\"genre\": \"flappy\"}")
    again = plan("breakout with 3 lives", previous=first, feedback=feedback)
    assert isinstance(again, Spec) and again.genre == "breakout" and again.numbers.lives == 3
    other = plan("breakout with 3 lives", previous=first, feedback="FAIL (Critical): the page did not load twice")
    assert isinstance(other, Spec) and other.genre != "breakout"
