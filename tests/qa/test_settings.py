"""Every [settings.qa] value is read per check: one warm runner (built with other settings) checks each game
under the settings the check brings, as the dispatcher passes each session's own. One test per setting:
changing only that value changes what QA reports."""

from __future__ import annotations

import struct
from pathlib import Path

import msgspec
import pytest

from crumb.protocol.game import QAResult
from crumb.qa import QARunner, page
from tests.qa.conftest import FAST, GAMES, criteria

pytestmark = pytest.mark.browser


def codes(result: QAResult) -> list[str]:
    return [f.code for f in result.findings]


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])  # the IHDR chunk
    return width, height


def test_max_files_and_max_bytes_are_the_checks_own(runner: QARunner) -> None:
    """stores_late is two files of about 4 kB: within the defaults, over a budget of one file or 1,000 bytes."""
    assert runner.check(GAMES / "stores_late", settings=FAST).static_ok
    few = runner.check(GAMES / "stores_late", settings=msgspec.structs.replace(FAST, max_files=1))
    assert not few.ok and codes(few) == ["too_many_files"], codes(few)
    assert "2 files in the game folder, the budget is 1" in few.findings[0].message
    small = runner.check(GAMES / "stores_late", settings=msgspec.structs.replace(FAST, max_bytes=1000))
    assert not small.ok and codes(small) == ["too_large"], codes(small)
    assert small.findings[0].message.endswith("the budget is 1000")


def test_the_viewport_is_the_checks_own(runner: QARunner, tmp_path: Path) -> None:
    """The game's 320x240 canvas, seen through a 200x150 window: the screenshots are what that window shows."""
    runner.check(GAMES / "mini", out_dir=tmp_path / "wide" / "artifacts" / "qa", settings=FAST)
    runner.check(GAMES / "mini", out_dir=tmp_path / "narrow" / "artifacts" / "qa",
                 settings=msgspec.structs.replace(FAST, viewport=(200, 150)))
    assert png_size(tmp_path / "wide" / "artifacts" / "qa" / "start.png") == (320, 240)
    assert png_size(tmp_path / "narrow" / "artifacts" / "qa" / "start.png") == (200, 150)
    # and the next check with the runner's own viewport gets it back (the pool is keyed by viewport)
    runner.check(GAMES / "mini", out_dir=tmp_path / "again" / "artifacts" / "qa", settings=FAST)
    assert png_size(tmp_path / "again" / "artifacts" / "qa" / "start.png") == (320, 240)


BORN = {"id": "born{}", "text": "The game knows when it loaded",
        "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 100}], "expect": [{"path": "bornAt", "op": ">", "value": 0}]}}


def test_probe_tabs_is_the_checks_own(runner: QARunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three probes in three tabs, or one after another in one tab: each probe's game loads at the clock's
    start either way, as in a new tab (a tab's clock does not go on from the probe before)."""
    tabs: list[int] = []  # the page of every tab a check opens: main, twin, then its probes'
    real_new_tab = page.GameContext.new_tab

    async def new_tab(self, url, timeout):
        tab = await real_new_tab(self, url, timeout)
        tabs.append(id(tab.page))
        return tab

    monkeypatch.setattr(page.GameContext, "new_tab", new_tab)
    # each presses another key, so none goes on from another's page (qa/chains.py): three pages
    three = criteria(*({**BORN, "id": f"born{n}", "probe": {**BORN["probe"], "steps": [
        {"do": "start"}, {"do": "key", "key": "abc"[n]}, {"do": "wait", "ms": 100}]}} for n in range(3)))
    wide = msgspec.structs.replace(FAST, probe_tabs=3)
    runner.check(GAMES / "stores", criteria=three, settings=wide)  # the pool grows to three probe tabs after a check
    assert runner.warm()
    tabs.clear()
    parallel = [p.observed["bornAt"] for p in runner.check(GAMES / "stores", criteria=three, settings=wide).probes]
    parallel_pages = len(set(tabs))
    tabs.clear()
    serial = [p.observed["bornAt"] for p in runner.check(GAMES / "stores", criteria=three,
                                                           settings=msgspec.structs.replace(FAST, probe_tabs=1)).probes]
    assert parallel == serial == [1_700_000_001_000] * 3, (parallel, serial)
    assert (parallel_pages, len(set(tabs))) == (2 + 3, 2 + 1)


def test_load_timeout_and_timeout_are_the_checks_own(runner: QARunner) -> None:
    """A game stuck in a loop at load: with a short load limit QA blames the game (a hang, within the
    budget); with a long one, QA's own budget runs out first (timeout_s); with a tiny budget, at once."""
    base = msgspec.structs.replace(FAST, load_timeout_s=3.0, timeout_s=20.0)
    # as in the probe test below: the hang is named once the looping renderer has run most of the limit on a
    # CPU, and with both cores busy and the suite beside it that took longer than a 20 s budget (a QA timeout,
    # not a hang), so the check that must name the hang has room for it
    blamed = runner.check(GAMES / "loop_at_load", settings=msgspec.structs.replace(base, timeout_s=90.0))
    assert blamed.error is None and "hang" in codes(blamed), blamed.model_dump_json(indent=1)
    assert any("never finished loading within 3 s" in f.message for f in blamed.findings)
    # the load limit is far beyond the budget: on a loaded machine the budget gets back the time QA's own
    # process stood still (tens of seconds with a spinning page on two busy cores), the load limit does not
    slow_load = runner.check(GAMES / "loop_at_load", settings=msgspec.structs.replace(base, load_timeout_s=600.0))
    assert slow_load.error == "QA timed out after 20 s", slow_load.error
    short = runner.check(GAMES / "loop_at_load", settings=msgspec.structs.replace(base, timeout_s=2.0))
    # the budget is given back the time QA stood still or (re)started its browser, the 3 s load limit is
    # wall time: on a loaded machine the load limit can run out first, and then the game is blamed for the
    # hang it has (checked twice). Either way the game never passes and the reason is its own loop.
    assert not short.ok, short.model_dump_json(indent=1)
    assert (short.error == "QA timed out after 2 s" and "timeout" in codes(short)) or (
        short.error is None and "hang" in codes(short) and short.rechecked), short.model_dump_json(indent=1)


def test_probe_timeout_is_the_checks_own(runner: QARunner) -> None:
    """A game that loops once started: each step QA takes may last probe_timeout_s; a short one blames the
    game (a hang), a long one lets QA's own budget run out first."""
    base = msgspec.structs.replace(FAST, probe_timeout_s=3.0, timeout_s=20.0)
    # a hang is named once the looping thread has run most of the limit on a CPU: a few seconds here, but at a
    # load of 10 it gets a fifth of one (measured: named 10-13 s into the check), so its budget is not 20 s
    blamed = runner.check(GAMES / "loop_after_start", settings=msgspec.structs.replace(base, timeout_s=90.0))
    assert blamed.error is None and "hang" in codes(blamed), blamed.model_dump_json(indent=1)
    patient = runner.check(GAMES / "loop_after_start", settings=msgspec.structs.replace(base, probe_timeout_s=60.0))
    # the 60 s limit is in force: QA's own 20 s budget runs out first, or, on a machine so loaded that the
    # budget is given back its stalls (runner.py's stall monitor), the hang is named only after 60 s
    assert patient.error == "QA timed out after 20 s" or (
        "hang" in codes(patient) and patient.duration_ms >= 60_000), patient.model_dump_json(indent=1)
