"""QARunner robustness: QA's own failures still give a QAResult, and no browser process outlives it."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import msgspec
import pytest

from crumb import procfs
from crumb.qa import BrowserNotFound, QARunner, find_chromium, run_qa
from crumb.qa.boot import QAThread
from crumb.settings import QASettings
from tests.qa.conftest import FAST, GAMES, browser_pids, chromium_or_skip
from tests.wait import wait_until

pytestmark = pytest.mark.browser


def test_close_ends_the_tasks_still_waiting_on_qas_loop() -> None:
    """The browser is killed at close, and Playwright's tasks waiting on it (a route being answered) would
    wait for ever: close() cancels them, instead of leaving asyncio to print 'Task was destroyed but it
    is pending!' at exit (seen after bench/qa_ab.py runs)."""
    chromium_or_skip()
    qa = QARunner(FAST)
    assert qa.check(GAMES / "mini").ok
    waiting = asyncio.run_coroutine_threadsafe(asyncio.Event().wait(), qa._loop)
    qa.close()
    assert waiting.cancelled()


@pytest.mark.parametrize("early", [False, True], ids=["own-driver", "driver-started-early"])
def test_close_leaves_no_browser_process(early: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also with the driver started before the runner (as a cold `crumb run` does, boot.py): the runner
    checks on that very driver, starts no second one, and leaves neither behind, nor the browser's
    profile folder, nor the files its shared memory was in (the browser is killed at close, not asked to
    shut down, and one killed between making such a file and unlinking it left it in TMPDIR)."""
    chromium_or_skip()
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where Playwright's driver makes the browser's folders

    def drivers() -> set[int]:
        return {p for p in procfs.children().get(os.getpid(), []) if b"run-driver" in procfs.cmdline(p)}
    others = drivers()  # other runners' in this process
    thread = QAThread(driver=True) if early else None
    qa = QARunner(FAST, thread=thread)
    assert qa.check(GAMES / "mini").ok
    driver = qa._engine.driver_pid
    assert driver is not None
    assert drivers() - others == {driver}
    if thread is not None:
        assert thread.driver is not None and thread.driver.result()[1] == driver
    mine = browser_pids(driver)  # this runner's browser: other runners in this process are not ours to judge
    assert mine, "the warm browser should be running before close()"
    assert list(tmp_path.glob("playwright_chromiumdev_profile-*")), "the browser's profile folder is not where expected"
    assert qa._engine.browser_pid in mine
    browser_tmp = Path(process_env(qa._engine.browser_pid)["TMPDIR"])
    assert browser_tmp.is_dir() and browser_tmp != tmp_path
    (browser_tmp / ".org.chromium.Chromium.AbCdEf").write_bytes(b"\0" * 4096)  # as a browser killed mid-way leaves one
    qa.close()
    assert [p.name for p in tmp_path.iterdir()] == []
    assert not browser_tmp.exists()
    wait_until(lambda: not [p for p in mine if Path(f"/proc/{p}").exists()], 10,
               f"chromium processes {mine} to exit after close()")
    assert not Path(f"/proc/{driver}").exists() or b"zombie" in Path(f"/proc/{driver}/status").read_bytes()


def process_env(pid: int) -> dict[str, str]:
    pairs = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(p.decode().split("=", 1) for p in pairs if b"=" in p)


def driver_env(qa: QARunner) -> dict[str, str]:
    driver = qa._engine.driver_pid
    assert driver is not None
    return process_env(driver)


def test_playwrights_driver_keeps_its_compiled_code_in_crumbs_cache_unless_told_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Node compiles Playwright's driver anew at every start unless NODE_COMPILE_CACHE names a folder:
    QA names $XDG_CACHE_HOME/crumb/node, where the code is there for the next start; a folder the person
    chose is kept."""
    chromium_or_skip()
    monkeypatch.delenv("NODE_COMPILE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = tmp_path / "cache" / "crumb" / "node"
    with QARunner(FAST) as qa:
        assert qa.warm()
        assert driver_env(qa)["NODE_COMPILE_CACHE"] == str(cache)
        driver = qa._engine.driver_pid
        closing = time.monotonic()
    closed_in = time.monotonic() - closing
    try:  # node writes it as the driver exits, which closing the runner waits for (up to CLOSE_TIMEOUT_S)
        wait_until(lambda: any(f.is_file() for f in cache.rglob("*")), 10, f"node to write its compiled code under {cache}")
    except AssertionError as exc:  # it failed once on a loaded machine, its output lost: say what was seen
        raise AssertionError(f"{exc}; the runner took {closed_in:.1f} s to close, the driver "
                             f"(pid {driver}) is {'still running' if driver and procfs.alive(driver) else 'gone'}, "
                             f"and the cache folder holds {sum(1 for _ in cache.rglob('*'))} entries") from None
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(tmp_path / "mine"))
    with QARunner(FAST) as qa:
        assert qa.warm()
        assert driver_env(qa)["NODE_COMPILE_CACHE"] == str(tmp_path / "mine")


def test_browser_killed_mid_check_still_gives_a_result_and_the_next_check_works() -> None:
    chromium_or_skip()
    qa = QARunner(QASettings(load_timeout_s=20, probe_timeout_s=20, timeout_s=60))
    try:
        assert qa.check(GAMES / "mini").ok  # the browser is up and warm
        holder: dict = {}
        worker = threading.Thread(target=lambda: holder.update(r=qa.check(GAMES / "loop_after_start")))
        worker.start()
        wait_until(lambda: bool(qa._engine.active), 30, "the check to start")  # then kill its browser
        driver = qa._engine.driver_pid
        main = [p for p in browser_pids(driver) if b"--type=" not in cmdline(p)]  # not a helper (renderer, gpu...)
        os.kill(main[0], signal.SIGKILL)
        worker.join(60)
        result = holder["r"]
        assert not result.ok
        # the browser's death is QA's error, not the game's; or, when QA's own process stood still meanwhile
        # (a loaded machine: two busy loops beside this test saw it once in five), QA checked the game again
        # on a fresh browser, and the result is that run's: this game's own hang
        stalled = result.rechecked is not None and "stood still" in result.rechecked \
            and [f.code for f in result.findings] == ["hang"]
        assert (result.error and "browser" in result.error) or stalled, result.model_dump_json(indent=1)
        assert qa.check(GAMES / "mini").ok
    finally:
        qa.close()


def test_a_hang_stands_when_qa_cannot_finish_the_run_that_checks_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run sees the game hang; QA checks it again on a fresh browser, and that browser dies under
    the second run (a CI run on an overloaded machine saw the second run fail to load the page). The
    result was that second run: the hang was lost, and the evidence said the game never loaded. The first
    run's hang must stand, and `rechecked` say why."""
    from crumb.qa import runner as runner_module

    chromium_or_skip()
    real_play = runner_module.play
    runs: list[int] = []

    async def play(browser, *args, **kwargs):  # type: ignore[no-untyped-def]
        runs.append(len(runs) + 1)
        if len(runs) == 2:  # the run that checks the hang again: its fresh browser dies under it
            main = [p for p in browser_pids(qa._engine.driver_pid) if b"--type=" not in cmdline(p)]
            os.kill(main[0], signal.SIGKILL)
        return await real_play(browser, *args, **kwargs)

    monkeypatch.setattr(runner_module, "play", play)
    qa = QARunner(FAST)
    try:
        result = qa.check(GAMES / "loop_after_start")
        assert len(runs) == 2, f"{len(runs)} runs: the hang was not checked again, so nothing was tested"
        codes = [f.code for f in result.findings]
        if result.rechecked and "stood still" in result.rechecked:
            # QA's own process stood still during the first run (a loaded machine): that hang may be QA's,
            # so the run that failed for QA's own reasons is the result, saying so, and the game is not blamed
            assert result.error and "browser" in result.error and "hang" not in codes, result.model_dump_json(indent=1)
        else:
            assert result.error is None and "hang" in codes and result.loaded and result.hook, \
                result.model_dump_json(indent=1)
            assert result.rechecked and "could not finish that run (the browser died during QA)" in result.rechecked \
                and result.rechecked.endswith("this result is the first run"), result.rechecked
        assert not result.ok
        assert qa.check(GAMES / "mini").ok  # QA started a browser again for the next check
    finally:
        qa.close()


def test_a_check_that_times_out_does_not_pull_the_browser_from_under_another() -> None:
    """Two sessions' checks share one browser. A game stuck at load uses up its check's budget, and QA
    restarts the browser after it; a check still running on that browser must not die with it (before,
    the other game got a 'crash' it never had). The restart waits for it, then the old browser is gone."""
    chromium_or_skip()
    qa = QARunner(FAST)
    try:
        assert qa.check(GAMES / "mini").ok  # the browser is up and warm
        old = browser_pids(qa._engine.driver_pid)
        holder: dict = {}
        # hangs once started: runs for probe_timeout_s, then QA blames the game (budget too short to recheck)
        slow = msgspec.structs.replace(FAST, probe_timeout_s=10.0, timeout_s=18.0)
        worker = threading.Thread(target=lambda: holder.update(r=qa.check(GAMES / "loop_after_start", settings=slow)))
        worker.start()
        wait_until(lambda: bool(qa._engine.active), 30, "the first check to start")
        stuck = qa.check(GAMES / "loop_at_load", settings=msgspec.structs.replace(FAST, load_timeout_s=600.0, timeout_s=1.0))
        assert stuck.error == "QA timed out after 1 s", stuck.error
        assert worker.is_alive(), "the first check ended before the second timed out: nothing was tested"
        worker.join(120)
        hung = holder["r"]
        codes = [f.code for f in hung.findings]
        assert "crash" not in codes and hung.error != "the browser died during QA", hung.model_dump_json(indent=1)
        # the game is blamed for its hang. The two stuck games spin both cores: when that (and the machine's
        # other work) left QA's own loop standing still, QA checks again before blaming the game, and the
        # second run may then use up the budget instead (a CI run saw that: 'QA timed out', rechecked).
        # Or the game is blamed for using up its budget: this budget is kept short (no recheck may run), and
        # on a loaded machine telling a hang from a starved page takes longer than it leaves (a fresh-clone
        # CI run saw that too: 'QA timed out after 18 s', not rechecked). A hung game either way, never QA's.
        starved = hung.rechecked is not None and "stood still" in hung.rechecked
        out_of_budget = hung.error == f"QA timed out after {slow.timeout_s:g} s" and "timeout" in codes
        assert (hung.error is None and "hang" in codes) or starved or out_of_budget, hung.model_dump_json(indent=1)
        wait_until(lambda: not [p for p in old if Path(f"/proc/{p}").exists()], 30,
                   f"the browser asked to restart ({old}) to exit once no check ran on it")
        assert qa.check(GAMES / "mini").ok
    finally:
        qa.close()


def test_a_check_the_guard_gives_up_on_leaves_no_game_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's guard cancels a check that outran its budget and asks for a restart, while the check
    is still on the browser (the restart then waits for it). The cancelled check's contexts could not be
    closed (their close hung: a loaded machine), so its game still runs: the browser must go once the
    check is gone, not wait for some later check (a loaded run once saw two hung games' renderers spin for
    20 minutes beside the suite)."""
    from crumb.qa import page
    from crumb.qa.turns import Waiting

    chromium_or_skip()
    qa = QARunner(FAST)
    try:
        assert qa.check(GAMES / "mini").ok  # the browser is up and warm
        old = browser_pids(qa._engine.driver_pid)

        async def hung_close(self: page.GameContext, timeout: float = 3.0) -> bool:
            self.context = None  # left open in the browser, its game with it
            return False
        monkeypatch.setattr(page.GameContext, "close", hung_close)
        slow = msgspec.structs.replace(FAST, probe_timeout_s=30.0, timeout_s=60.0)
        future = asyncio.run_coroutine_threadsafe(qa._engine.check(
            GAMES / "loop_after_start", "index.html", [], None, None, None, [], slow, "film", Waiting()), qa._loop)
        wait_until(lambda: bool(qa._engine.active), 30, "the check to start")
        future.cancel()  # as QARunner.check's guard does when a check overruns
        asyncio.run_coroutine_threadsafe(qa._engine.restart(), qa._loop)
        wait_until(lambda: not qa._engine.active, 30, "the cancelled check to leave the browser")
        assert future.cancelled()
        wait_until(lambda: not [p for p in old if Path(f"/proc/{p}").exists()], 60,  # a polite stop: up to 3 x 5 s, then the kill
                   f"the browser the cancelled check left its game in ({old}) to exit")
        monkeypatch.undo()
        assert qa.check(GAMES / "mini").ok
    finally:
        qa.close()


def test_closing_the_runner_during_a_check_says_so_and_leaves_nothing_running() -> None:
    """A runner closed while a check runs on it (its owner shutting down: the daemon waits for its checks
    first, a program using QARunner need not): the check comes back as QA's own stop, in words (not 'QA
    failed: CancelledError'), no browser process is left, and the runner's event loop is closed with it."""
    chromium_or_skip()
    qa = QARunner(FAST)
    try:
        assert qa.check(GAMES / "mini").ok
        mine = browser_pids(qa._engine.driver_pid)
        holder: dict = {}
        worker = threading.Thread(target=lambda: holder.update(r=qa.check(GAMES / "loop_after_start")))
        worker.start()
        wait_until(lambda: bool(qa._engine.active), 30, "the check to start")
    finally:
        qa.close()
    worker.join(60)
    result = holder["r"]
    assert not result.ok and result.error == "QA stopped: the QA runner was closed during the check", result.error
    assert [f.code for f in result.findings] == ["crash"]
    wait_until(lambda: not [p for p in mine if Path(f"/proc/{p}").exists()], 10, f"chromium processes {mine} to exit")
    assert qa._loop.is_closed()


def cmdline(pid: int) -> bytes:
    """A process's argv; a helper that exits meanwhile (a renderer of a closed tab) reads as a helper."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b"--type=gone"


def test_a_machine_that_stands_still_during_a_check_does_not_time_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole machine can stop running QA for a minute (this kernel did, while a hung game's renderers
    spun): the runner's guard must not count that time against the check, as the check's own budget
    does not. Here QA's process is stopped (SIGSTOP) for longer than the guard's whole limit, mid-check;
    before, the guard gave up on a good game: 'QA timed out'."""
    import subprocess

    from crumb.qa import runner as qa_runner

    chromium_or_skip()
    monkeypatch.setattr(qa_runner, "GUARD_SLACK_S", 1.0)
    short = msgspec.structs.replace(FAST, timeout_s=12.0)  # the guard gives up 13 s after the check began
    qa = QARunner(short)
    try:
        assert qa.warm()
        holder: dict = {}
        worker = threading.Thread(target=lambda: holder.update(r=qa.check(GAMES / "mini")))
        worker.start()
        wait_until(lambda: bool(qa._engine.active), 30, "the check to start")
        me = os.getpid()
        freezer = subprocess.Popen(["sh", "-c", f"kill -STOP {me}; sleep 16; kill -CONT {me}"])
        freezer.wait()
        worker.join(60)
        result = holder["r"]
        assert result.duration_ms >= 16_000, f"the check ended before the stop ({result.duration_ms} ms): nothing was tested"
        assert result.ok and result.error is None, result.model_dump_json(indent=1)
    finally:
        qa.close()


def test_the_browser_and_its_renderers_run_in_an_autogroup_of_their_own_at_a_lower_share() -> None:
    """Two renderers spinning at nice 0 in the browser's autogroup made this kernel run nothing else for
    up to a minute (docs/design.md); at AUTOGROUP_NICE they did not. Every process of the browser, the
    renderers forked later too, is in that group, and this process's group is left as it was."""
    from crumb.qa.limits import AUTOGROUP_NICE, has_autogroups

    chromium_or_skip()
    if not has_autogroups():
        pytest.skip("this kernel shows this process no autogroup")
    mine = Path("/proc/self/autogroup").read_text()
    with QARunner(FAST) as qa:
        assert qa.check(GAMES / "mini").ok  # renderers exist now
        pids = browser_pids(qa._engine.driver_pid)
        renderers = [p for p in pids if b"--type=renderer" in cmdline(p)]
        assert renderers, f"no renderer among the browser's processes {pids}"
        groups = {Path(f"/proc/{p}/autogroup").read_text() for p in pids if Path(f"/proc/{p}").exists()}
        why = qa._engine.share_why
    if why and ("Permission denied" in why or "not permitted" in why):
        pytest.skip(why)  # a security module's refusal: nothing QA can do about it
    assert why is None, why
    assert len(groups) == 1 and groups.pop().split()[-2:] == ["nice", str(AUTOGROUP_NICE)], groups
    assert Path("/proc/self/autogroup").read_text() == mine


def test_a_share_the_kernel_would_not_lower_is_said_once_at_the_first_check_not_at_launch(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """`crumb run` starts the browser while its pitch is still checked: a refused pitch must end on its one
    error line, so the warning waits for a game to be checked; then it is said once per browser."""
    import crumb.qa.runner as runner_module

    chromium_or_skip()
    monkeypatch.setattr(runner_module, "lower_share", lambda pid: "the kernel refused (a test)")
    said = lambda: [r.getMessage() for r in caplog.records if "the kernel refused (a test)" in r.getMessage()]  # noqa: E731
    with QARunner(FAST) as qa:
        assert qa.warm()
        assert said() == []
        assert qa.check(GAMES / "mini").ok and qa.check(GAMES / "mini").ok
        assert said() == ["QA: the kernel refused (a test); a hung game may slow the whole machine"]


def test_missing_browser_is_a_result_not_an_exception(tmp_path: Path) -> None:
    result = run_qa(GAMES / "mini", chromium=tmp_path / "no-such-chromium")
    assert not result.ok and result.static_ok and not result.loaded
    assert result.error is not None and "no-such-chromium" in result.error and "\n" not in result.error


def test_find_chromium_explicit_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    chromium = chromium_or_skip()
    assert find_chromium(str(chromium)) == chromium
    monkeypatch.setenv("CRUMB_CHROMIUM", str(tmp_path / "nothing"))
    with pytest.raises(BrowserNotFound) as err:
        find_chromium()
    assert "CRUMB_CHROMIUM" in str(err.value) and "\n" not in str(err.value)


def test_a_driver_started_early_ends_with_the_runner_even_when_no_browser_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check says BrowserNotFound (the one-line fix), and the driver that was started for it before
    anyone knew is not left running once the runner closes."""
    chromium_or_skip()
    monkeypatch.setenv("CRUMB_CHROMIUM", str(tmp_path / "nothing"))
    thread = QAThread(driver=True)
    assert thread.driver is not None
    driver = thread.driver.result(timeout=60)[1]
    assert driver is not None and procfs.alive(driver)
    qa = QARunner(FAST, thread=thread)
    with pytest.raises(BrowserNotFound):
        qa.check(GAMES / "mini")
    qa.close()
    wait_until(lambda: not procfs.alive(driver), 10, f"the early driver {driver} to end with its runner")


def test_overall_timeout_still_gives_a_result() -> None:
    chromium_or_skip()
    result = run_qa(GAMES / "loop_at_load", settings=QASettings(timeout_s=1.5, load_timeout_s=30, probe_timeout_s=30))
    assert not result.ok and result.error and "timed out" in result.error
    assert any(f.code == "timeout" for f in result.findings)


def test_concurrent_checks_from_threads(runner: QARunner) -> None:
    results: dict[str, object] = {}
    threads = [threading.Thread(target=lambda n=n: results.update({n: runner.check(GAMES / n)}))
               for n in ("mini", "blank_canvas")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results["mini"].ok and not results["blank_canvas"].ok  # type: ignore[attr-defined]
    assert [f.code for f in results["blank_canvas"].findings if f.severity != "Minor"] == ["blank_canvas"]  # type: ignore[attr-defined]


def test_manifest_mismatch_fails_the_check(runner: QARunner, tmp_path: Path) -> None:
    import hashlib
    import shutil

    from crumb.protocol.game import FileEntry, Manifest

    game = tmp_path / "game"
    shutil.copytree(GAMES / "mini", game)
    html = game / "index.html"
    manifest = Manifest(dir=str(game), files=[FileEntry(path="index.html", sha256=hashlib.sha256(html.read_bytes()).hexdigest(),
                                                        bytes=html.stat().st_size)])
    assert runner.check(game, manifest=manifest).ok
    html.write_text(html.read_text().replace("DODGE", "DODGE!"))
    result = runner.check(game, manifest=manifest)
    assert not result.ok and not result.static_ok and result.exec_ok
    assert [f.code for f in result.findings] == ["manifest_mismatch"]


def test_game_without_hook_is_checked_by_pixels_and_flagged(runner: QARunner, tmp_path: Path) -> None:
    game = tmp_path / "nohook"
    game.mkdir()
    source = (GAMES / "mini" / "index.html").read_text()
    (game / "index.html").write_text(source.replace("window.__crumb = {", "window.__notcrumb = {"))
    result = runner.check(game)
    assert result.loaded and not result.hook and result.input_responds and result.exec_ok
    assert [(f.code, f.severity) for f in result.findings] == [("no_hook", "Minor")]


def _fake_exe(path: Path, body: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    path.chmod(0o755)
    return path


def test_system_search_prefers_the_headless_shell_and_looks_behind_its_wrapper(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Debian's /usr/bin/chromium-headless-shell is a script that runs the binary without exec: QA must
    launch (and watch, and kill) the binary itself, and prefer it to the full browser."""
    elf = Path("/bin/true").read_bytes()
    real = _fake_exe(tmp_path / "lib" / "chromium-headless-shell", elf)
    _fake_exe(tmp_path / "bin" / "chromium-headless-shell", f'#!/bin/sh -e\n\n{real} "$@"\n'.encode())
    _fake_exe(tmp_path / "bin" / "chromium", elf)
    monkeypatch.delenv("CRUMB_CHROMIUM", raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "no-downloads"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_chromium() == real
    (tmp_path / "bin" / "chromium-headless-shell").unlink()
    assert find_chromium() == tmp_path / "bin" / "chromium"


def test_playwright_download_prefers_its_headless_shell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    elf = Path("/bin/true").read_bytes()
    full = _fake_exe(tmp_path / "chromium-1200" / "chrome-linux" / "chrome", elf)
    shell = _fake_exe(tmp_path / "chromium_headless_shell-1200" / "chrome-linux" / "headless_shell", elf)
    monkeypatch.delenv("CRUMB_CHROMIUM", raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    assert find_chromium() == shell
    shell.unlink()
    assert find_chromium() == full
