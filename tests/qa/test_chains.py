"""Which probes QA judges on one page: a probe goes on from an earlier one only where the earlier one's
steps are its own first steps (its last wait may be shorter); anything else gets a page of its own."""

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
                crit("shorter", START, W(50)), crit("lives", START)]
    assert ids(criteria) == [["left"], ["right"], ["shorter"], ["lives"]]


def test_a_wait_goes_on_only_forward_and_equal_steps_carry_over_whole() -> None:
    assert continuation([ProbeStep(do="wait", ms=500)], [ProbeStep(do="wait", ms=400)]) is None
    assert continuation([ProbeStep(do="start")], [ProbeStep(do="start"), ProbeStep(do="reload")]) == (ProbeStep(do="reload"),)
    assert continuation([ProbeStep(do="play", ms=100)], [ProbeStep(do="play", ms=200)]) is None, \
        "play follows hints: 100 ms then 100 more is not one 200 ms play"


def test_every_criterion_is_judged_once_in_its_order() -> None:
    criteria = [crit("a", START), crit("b"), crit("c", START, W(10)), crit("d", START), crit("e", START, W(20))]
    flat = sorted(link.index for chain in chains(criteria) for link in chain)
    assert flat == list(range(len(criteria)))
    for chain in chains(criteria):
        assert [link.index for link in chain] == sorted(link.index for link in chain)


@pytest.mark.browser
def test_probes_that_go_on_from_each_other_share_a_page_and_judge_as_fresh_pages_would(runner: QARunner) -> None:
    """The stores game records Date.now() at load (bornAt). Waits of 1 s, 2 s and 3 s after start in one
    probe tab: chained they see one load and the game clock 1 s further at each; each alone, three loads."""
    def at(ms: int) -> dict[str, Any]:
        return {"id": f"t{ms}", "text": "t", "probe": {"steps": [START, W(ms)], "expect": [
            {"path": "bornAt", "op": ">", "value": 0}, {"path": "timeLeft", "op": ">=", "value": 0}]}}

    settings = msgspec.structs.replace(FAST, probe_tabs=1)
    chained = runner.check(GAMES / "stores", criteria=criteria(at(1000), at(2000), at(3000)), settings=settings)
    alone = [runner.check(GAMES / "stores", criteria=criteria(at(ms)), settings=settings).probes[0]
             for ms in (1000, 2000, 3000)]
    assert [p.ok for p in chained.probes] == [True] * 3 == [p.ok for p in alone], chained.probes
    born = {p.observed["bornAt"] for p in chained.probes}
    assert len(born) == 1, f"one page for the chain: {born}"
    left = [p.observed["timeLeft"] for p in chained.probes]
    assert left == [p.observed["timeLeft"] for p in alone] and left[0] > left[1] > left[2], left
