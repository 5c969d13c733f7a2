"""Checks of several sessions share QA's one browser. When the kernel kills a page for memory, or the browser
dies, while they run, the evidence does not say whose game did it: each of them is checked again alone,
so that the game that did it fails for it and the others get the verdict of their own game."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import msgspec
import pytest

from crumb.protocol.game import QAResult
from crumb.qa import QARunner
from tests.qa.conftest import FAST, GAMES, browser_pids, chromium_or_skip, criteria
from tests.wait import wait_until

pytestmark = pytest.mark.timeout(300)

# Half an hour of game time on a page that does not paint: a few seconds of a check, long enough that the
# other check's trouble happens while this one runs (each test asserts that it did).
LONG = criteria({"id": "long", "text": "The game is still there after half an hour",
                 "probe": {"steps": [{"do": "wait", "ms": 1_800_000}],
                           "expect": [{"path": "phase", "op": "!=", "value": "gone"}]}})
SLOW = msgspec.structs.replace(FAST, probe_timeout_s=60.0, timeout_s=120.0)


def in_thread(qa: QARunner, game: Path) -> tuple[threading.Thread, dict[str, QAResult]]:
    out: dict[str, QAResult] = {}
    worker = threading.Thread(target=lambda: out.update(r=qa.check(game, criteria=LONG, settings=SLOW)))
    worker.start()
    return worker, out


def codes(result: QAResult) -> list[str]:
    return [f.code for f in result.findings]


def test_a_browser_that_dies_under_two_checks_gets_each_checked_again_alone() -> None:
    chromium_or_skip()
    with QARunner(FAST) as qa:
        assert qa.check(GAMES / "mini").ok  # the browser is up and warm
        first, a = in_thread(qa, GAMES / "mini")
        second, b = in_thread(qa, GAMES / "good")
        wait_until(lambda: len(qa._engine.active) == 2, 60, "both checks to run on the browser")
        browser = [p for p in browser_pids(qa._engine.driver_pid) if b"--type=" not in Path(f"/proc/{p}/cmdline").read_bytes()]
        os.kill(browser[0], signal.SIGKILL)
        first.join(200)
        second.join(200)
        for result in (a["r"], b["r"]):
            # neither game killed the browser: checked again alone, each passes on its own merits
            assert result.ok and result.error is None and "crash" not in codes(result), result.model_dump_json(indent=1)
            assert result.rechecked and result.rechecked.startswith("the browser died while other checks shared") \
                and "alone" in result.rechecked, result.rechecked


def test_a_page_killed_for_memory_under_two_checks_fails_only_the_game_that_took_it(memory_hog: Path) -> None:
    """2 GB of ArrayBuffers under a 512 MB limit beside a good game's check: before, the good game got the
    `memory_limit` finding too (any kill in the browser's cgroup during a check was put on that check)."""
    with QARunner(FAST) as qa:
        if not qa._engine.limits.active:
            pytest.skip(f"no cgroup here: {qa._engine.limits.why}")
        assert qa.check(GAMES / "mini").ok
        kills = qa._engine.limits.kills()
        worker, good = in_thread(qa, GAMES / "mini")
        wait_until(lambda: bool(qa._engine.active), 60, "the good game's check to start")
        bad = qa.check(memory_hog, settings=SLOW)
        worker.join(200)
        assert qa._engine.limits.kills() > kills, "the kernel killed nothing: nothing was tested"
    assert good["r"].ok and "memory_limit" not in codes(good["r"]) and "crash" not in codes(good["r"]), \
        good["r"].model_dump_json(indent=1)
    assert good["r"].rechecked is not None, \
        "the good game's check was over before the kill: nothing was tested"  # its long probe outlasts it
    assert not bad.ok and "memory_limit" in codes(bad), bad.model_dump_json(indent=1)
    limit = next(f for f in bad.findings if f.code == "memory_limit")
    assert limit.message.startswith("the game went over QA's browser limits (memory 512 MB"), limit.message  # alone: its own
    assert bad.rechecked and "alone" in bad.rechecked, bad.rechecked


def test_time_spent_waiting_for_a_turn_is_not_taken_from_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check waits while another runs alone (a recheck): neither its budget nor the guard on the whole
    check counts that wait, or a good game would come back 'QA timed out' for QA's own queue."""
    import asyncio

    from crumb.qa import runner as qa_runner
    from crumb.qa.turns import Waiting

    chromium_or_skip()
    with QARunner(FAST) as qa:
        assert qa.check(GAMES / "mini").ok
        warm = qa.check(GAMES / "mini")  # what a check of this game costs on this machine now
        assert warm.ok, warm.model_dump_json(indent=1)
        monkeypatch.setattr(qa_runner, "LAUNCH_TIMEOUT_S", 0.5)  # the guard: budget + 1 s (the browser is up)
        # a budget the check's own work fits in several times over, loaded machine or not, and shorter than
        # the wait below: were the wait counted, the check would time out the moment its turn came
        short = msgspec.structs.replace(FAST, timeout_s=max(2.0, 5 * warm.duration_ms / 1000))
        let_go = asyncio.Event()

        async def alone() -> None:
            async with qa._engine.turns.take(Waiting(), alone=True):
                await let_go.wait()

        holding = asyncio.run_coroutine_threadsafe(alone(), qa._loop)
        wait_until(lambda: qa._engine.turns.alone, 30, "the browser to be taken alone")
        out: dict[str, QAResult] = {}
        worker = threading.Thread(target=lambda: out.update(r=qa.check(GAMES / "mini", settings=short)))
        began = time.monotonic()
        worker.start()
        past = short.timeout_s + 2 * 0.5 + 1.0  # what is measured here is time itself: the guard's, and a second more
        wait_until(lambda: not worker.is_alive() or time.monotonic() - began > past, past + 60, "the guard's time to pass")
        assert worker.is_alive(), out["r"].model_dump_json(indent=1)  # it ended while it waited: given up on
        qa._loop.call_soon_threadsafe(let_go.set)
        holding.result(30)
        worker.join(60)
    assert out["r"].ok and out["r"].error is None, out["r"].model_dump_json(indent=1)
