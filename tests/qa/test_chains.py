"""Which probes QA judges on one page: a probe goes on from an earlier one only where the earlier one's
steps are its own first steps (its last wait may be shorter), and a probe whose steps are the first steps
of another's is judged on that page on the way; anything else gets a page of its own."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from crumb.protocol.game import Criterion, ProbeStep
from crumb.qa import QARunner
from crumb.qa.chains import chains, continuation
from tests.qa.conftest import FAST, GAMES, criteria


def crit(cid: str, *steps: dict[str, Any]) -> Criterion:
    return Criterion.model_validate({"id": cid, "text": cid, "probe": {"steps": list(steps),
                                                                        "expect": [{"path": "phase", "op": "==", "value": "x"}]}})


START, W = {"do": "start"}, lambda ms: {"do": "wait", "ms": ms}


def ids(criteria: list[Criterion]) -> list[list[str]]:
    return [[link.criterion.id for link in chain] for chain in chains(criteria)]


def test_the_planners_usual_probes_need_two_pages_not_five() -> None:
    criteria = [crit("title"), crit("genre"), crit("start", START, W(1500)),
                crit("score", START, {"do": "play", "ms": 8000}), crit("timer", START, W(62000))]
    assert ids(criteria) == [["title", "genre", "start", "timer"], ["score"]]
    timer = chains(criteria)[0][3]
    assert timer.steps == (ProbeStep(do="wait", ms=60500),), "the timer goes on 60.5 s from where start stopped"


def test_a_probe_that_differs_before_the_earlier_one_ends_gets_its_own_page() -> None:
    criteria = [crit("left", START, {"do": "key", "key": "ArrowLeft"}, W(100)),
                crit("right", START, {"do": "key", "key": "ArrowRight"}, W(100)),
                crit("shorter", START, W(50)), crit("later", START, W(80), {"do": "key", "key": "x"})]
    assert ids(criteria) == [["left"], ["right"], ["shorter", "later"]]


def test_a_probe_whose_steps_begin_another_is_judged_on_its_page_on_the_way() -> None:
    """The Planner's lives/target/grid probes are [start]: judged right after the start of the chain that
    goes on to wait or play, not on a page of their own; the later probe's steps are cut where it joins."""
    criteria = [crit("title"), crit("start", START, W(2000)), crit("timer", START, W(60000)),
                crit("score", START, {"do": "play", "ms": 8000}), crit("lives", START), crit("half", START, W(1000))]
    assert ids(criteria) == [["title", "lives", "half", "start", "timer"], ["score"]]
    steps = {link.criterion.id: link.steps for link in chains(criteria)[0]}
    assert steps["lives"] == (ProbeStep(do="start"),)
    assert steps["half"] == (ProbeStep(do="wait", ms=1000),)
    assert steps["start"] == (ProbeStep(do="wait", ms=1000),), "start goes on from half: 1 s + 1 s is its 2 s"
    assert steps["timer"] == (ProbeStep(do="wait", ms=58000),)


def test_a_wait_goes_on_only_forward_and_equal_steps_carry_over_whole() -> None:
    assert continuation([ProbeStep(do="wait", ms=500)], [ProbeStep(do="wait", ms=400)]) is None
    assert continuation([ProbeStep(do="start")], [ProbeStep(do="start"), ProbeStep(do="reload")]) == (ProbeStep(do="reload"),)
    assert continuation([ProbeStep(do="play", ms=100)], [ProbeStep(do="play", ms=200)]) is None, \
        "play follows hints: 100 ms then 100 more is not one 200 ms play"


def test_every_criterion_is_judged_once_and_each_chain_replays_its_probes_steps() -> None:
    criteria = [crit("a", START), crit("b"), crit("c", START, W(10)), crit("d", START), crit("e", START, W(20)),
                crit("f", START, W(5)), crit("g", {"do": "key", "key": "x"}), crit("h")]
    flat = sorted(link.index for chain in chains(criteria) for link in chain)
    assert flat == list(range(len(criteria)))
    for chain in chains(criteria):  # the page's steps so far are, at each probe, exactly that probe's own steps
        done: list[ProbeStep] = []
        for link in chain:
            done += link.steps
            merged: list[ProbeStep] = []
            for step in done:
                if merged and merged[-1].do == step.do == "wait":
                    merged[-1] = ProbeStep(do="wait", ms=(merged[-1].ms or 0) + (step.ms or 0))
                else:
                    merged.append(step)
            assert merged == list(link.criterion.probe.steps), (link.criterion.id, merged)


@pytest.mark.browser
@pytest.mark.parametrize("order", [(1000, 2000, 3000), (3000, 1000, 2000)], ids=["in order", "shorter ones on the way"])
def test_probes_that_go_on_from_each_other_share_a_page_and_judge_as_fresh_pages_would(runner: QARunner,
                                                                                      order: tuple[int, ...]) -> None:
    """The stores game records Date.now() at load (bornAt). Waits of 1 s, 2 s and 3 s after start in one
    probe tab: chained they see one load and the game clock 1 s further at each; each alone, three loads.
    Listed 3 s first, the shorter ones are judged on the 3 s probe's page on the way."""
    def at(ms: int) -> dict[str, Any]:
        return {"id": f"t{ms}", "text": "t", "probe": {"steps": [START, W(ms)], "expect": [
            {"path": "bornAt", "op": ">", "value": 0}, {"path": "timeLeft", "op": ">=", "value": 0}]}}

    settings = msgspec.structs.replace(FAST, probe_tabs=1)
    chained = runner.check(GAMES / "stores", criteria=criteria(*(at(ms) for ms in order)), settings=settings)
    assert [p.id for p in chained.probes] == [f"t{ms}" for ms in order], "results keep the criteria's order"
    alone = {ms: runner.check(GAMES / "stores", criteria=criteria(at(ms)), settings=settings).probes[0]
             for ms in (1000, 2000, 3000)}
    assert [p.ok for p in chained.probes] == [True] * 3 == [p.ok for p in alone.values()], chained.probes
    born = {p.observed["bornAt"] for p in chained.probes}
    assert len(born) == 1, f"one page for the chain: {born}"
    left = {p.id: p.observed["timeLeft"] for p in chained.probes}
    assert left == {p.id: p.observed["timeLeft"] for p in alone.values()}, (left, alone)
    assert left["t1000"] > left["t2000"] > left["t3000"], left
