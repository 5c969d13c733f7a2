"""Turns on QA's browser: checks run together, a recheck that must run alone waits for them and keeps new
ones off until it is done, and the time spent waiting is said (a check's budget does not count it)."""

from __future__ import annotations

import asyncio

from crumb.qa.turns import Turns, Waiting


async def _scenario() -> list[str]:
    turns, log = Turns(), []
    release = {name: asyncio.Event() for name in ("a", "b", "solo")}

    async def check(name: str, alone: bool = False) -> float:
        waiting = Waiting()
        async with turns.take(waiting, alone=alone):
            log.append(f"{name} in")
            await release[name].wait()
            log.append(f"{name} out")
            return waiting.seconds()

    a = asyncio.ensure_future(check("a"))
    await asyncio.sleep(0)
    solo = asyncio.ensure_future(check("solo", alone=True))
    await asyncio.sleep(0)
    b = asyncio.ensure_future(check("b"))  # comes after the solo asked: waits behind it
    for _ in range(5):
        await asyncio.sleep(0)
    log.append("a released")
    release["a"].set()
    await a
    for _ in range(5):
        await asyncio.sleep(0)
    log.append("solo released")
    release["solo"].set()
    waited = await solo
    release["b"].set()
    await b
    assert waited > 0
    assert turns.together == 0 and not turns.alone and turns.queued == 0
    return log


def _holding(turns: Turns) -> tuple[asyncio.Future[None], asyncio.Event]:
    """A check that runs on the browser until the event is set."""
    held = asyncio.Event()

    async def hold() -> None:
        async with turns.take(Waiting()):
            await held.wait()

    return asyncio.ensure_future(hold()), held


def test_a_check_alone_waits_for_the_running_ones_and_keeps_new_ones_off() -> None:
    assert asyncio.run(_scenario()) == ["a in", "a released", "a out", "solo in", "solo released", "solo out",
                                        "b in", "b out"]


def test_a_cancelled_wait_to_run_alone_lets_the_checks_behind_it_go() -> None:
    async def scenario() -> bool:
        turns = Turns()
        running, held = _holding(turns)
        await asyncio.sleep(0)

        async def alone() -> None:
            async with turns.take(Waiting(), alone=True):
                pass

        solo = asyncio.ensure_future(alone())
        await asyncio.sleep(0)
        solo.cancel()  # e.g. the check's caller gave up
        await asyncio.gather(solo, return_exceptions=True)

        async def other() -> bool:
            async with turns.take(Waiting()):
                return True

        got = await asyncio.wait_for(other(), 5)
        held.set()
        await running
        return got

    assert asyncio.run(scenario())


def test_a_check_cancelled_as_it_ends_its_turn_still_gives_the_turn_back() -> None:
    """The caller's guard cancels a check that overran; cancelled again while it waited to say its turn is
    over, it must still give the turn back, or a later check that must run alone would wait for ever."""
    async def scenario() -> bool:
        turns = Turns()
        running, _ = _holding(turns)
        await asyncio.sleep(0)
        async with turns._changed:  # someone else has the turns' lock as the check ends
            running.cancel()  # the check's turn is ending: it waits for that lock...
            for _ in range(3):
                await asyncio.sleep(0)
            running.cancel()  # ...and is cancelled again there
            await asyncio.gather(running, return_exceptions=True)

        async def alone() -> bool:
            async with turns.take(Waiting(), alone=True):
                return True

        return await asyncio.wait_for(alone(), 5)

    assert asyncio.run(scenario())
