"""QARunner: one warm Chromium behind a thread-safe, never-raising `check()`.

Playwright runs in one dedicated thread with its own asyncio loop; callers from any thread submit
checks to it, and several checks may run at once (each in its own browser contexts). A hang that
even closing its contexts cannot end, or a dead browser, gets the browser restarted for the next check.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

from crumb import procfs
from crumb.protocol.game import Criterion, FileEntry, Filmstrip, Finding, Manifest, ProbeResult, QAResult, Severity
from crumb.qa.boot import QAThread, start_driver
from crumb.qa.browser import BrowserNotFound, find_chromium, launch_args
from crumb.qa.fence import Fence
from crumb.qa.film import save_film, write_entry
from crumb.qa.limits import lower_share, open_limits
from crumb.qa.page import Aborted, Evidence, Hang
from crumb.qa.play import FIRST_RUN, ContextPool, Painting, PlayReport, play
from crumb.qa.sched import Counts, read_sched
from crumb.qa.server import GameServer
from crumb.qa.static import StaticReport, check_static
from crumb.qa.turns import Turns, Waiting
from crumb.settings import QASettings

log = logging.getLogger(__name__)

LAUNCH_TIMEOUT_S = 30.0
CLOSE_TIMEOUT_S = 5.0
WATCH_INTERVAL_S = 0.25  # how often a running browser's process is looked at
STALL_TICK_S = 0.25  # the stall monitor's beat
STALL_MIN_S = 1.0  # a beat this late means QA's own process (or the whole machine) stood still
GUARD_SLACK_S = 2 * LAUNCH_TIMEOUT_S  # the runner's guard waits this much past a check's budget (a browser restart or two)
GUARD_TICK_S = 1.0  # the guard's beat: it counts the time the machine stood still between beats
SCREENSHOTS = ("start", "input", "end")


def _kill(pids: Sequence[int], *, group: bool = False) -> None:
    """SIGKILL each; with `group`, a process group's leader with its whole group (Playwright starts the
    browser as the leader of a group of its own, so its renderers go with it; a process that leads no
    group goes alone). Without it only these pids: one seen earlier may be someone else's by now."""
    for pid in pids:
        try:
            if group and os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _profile_dir(cmdline: bytes) -> str | None:
    """The --user-data-dir a browser was started with (Playwright makes one in the temp folder)."""
    for arg in cmdline.split(b"\0"):
        if arg.startswith(b"--user-data-dir="):
            return os.fsdecode(arg[len(b"--user-data-dir="):])
    return None


async def _removed(path: str, timeout: float) -> None:
    """Wait until `path` is gone, or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while os.path.exists(path) and time.monotonic() < deadline:
        await asyncio.sleep(0.005)


class _Engine:
    """The async side; every method runs on the runner's loop thread."""

    def __init__(self, settings: QASettings, chromium: Path | None, fence: Fence | None = None,
                 driver: concurrent.futures.Future[tuple[Playwright, int | None]] | None = None) -> None:
        self.settings = settings
        self.chromium = chromium
        self.fence = fence or Fence("none", "no fence given")
        self._early_driver = driver  # started before this engine (boot.py): the first launch takes it over
        self.limits = open_limits(f"{id(self):x}")  # the browser's memory and process caps
        self.pw: Playwright | None = None
        self.browser: Browser | None = None
        self.driver_pid: int | None = None
        self.browser_pid: int | None = None
        self.profile: str | None = None  # the browser's --user-data-dir, Playwright's to remove
        self.tmp: str | None = None  # the browser's TMPDIR, ours to remove (_launch)
        self.share_why: str | None = None  # why the browser's CPU share could not be lowered (limits.lower_share)
        self.share_said = True  # share_why was logged: at the first check on the browser (_browser_stage)
        self.active: set[Evidence] = set()
        self.dead = False
        self.stale = False  # a restart was asked for while checks ran: done when the last one ends
        self._watch: asyncio.Future | None = None
        self.pool: ContextPool | None = None
        # the origin a context's fence lets through while no game is in it: an empty folder's, no game's
        self._park_dir = tempfile.TemporaryDirectory(prefix="crumb-qa-park-")
        self._park = self.fence.call(GameServer(Path(self._park_dir.name)).start)
        self.fence.allow(self._park.port_in_use)
        self._lock = asyncio.Lock()
        self.turns = Turns()
        self.stalled = 0.0  # seconds this loop stood still, in all (see monitor)
        self.starting = 0.0  # seconds spent stopping and starting the browser, in all: QA's own time, not a game's
        self._monitor: asyncio.Task[None] | None = None
        self._restarts: set[asyncio.Future[None]] = set()  # restarts a cancelled check left to run (_restart_soon)
        self.closing = False

    def sched_counts(self) -> Counts:
        """The scheduler's counts of the browser's threads and of QA's own (this process's, Playwright's
        driver's), for telling a hung game from a starved one (sched.py)."""
        if not self.driver_pid:
            return Counts({}, {})
        browser, ready = read_sched(procfs.descendants(self.driver_pid))
        qa, qa_ready = read_sched([os.getpid(), self.driver_pid])
        return Counts(browser, qa, runnable=ready + qa_ready - 1)  # not counting this thread, which reads them

    async def start_monitor(self) -> None:
        self._monitor = asyncio.ensure_future(self.monitor())

    async def monitor(self) -> None:
        """Count the time this loop stands still. On a shared host the whole machine can stop for a
        minute: every timer then fires at once and a good game looks hung; checks do not count that time
        against the game, and a check it spoilt is run again."""
        while True:
            beat = time.monotonic()
            await asyncio.sleep(STALL_TICK_S)
            late = time.monotonic() - beat - STALL_TICK_S
            if late >= STALL_MIN_S:
                self.stalled += late

    async def ready(self) -> Browser:
        async with self._lock:
            if self.browser is None or self.dead or not self.browser.is_connected() or (self.pool is not None and self.pool.broken):
                began = time.monotonic()
                try:
                    await self._stop()
                    await self._launch()
                finally:
                    self.starting += time.monotonic() - began
            assert self.browser is not None
            return self.browser

    async def _launch(self) -> None:
        early, self._early_driver = self._early_driver, None
        if early is not None:  # started before this engine: owned from now on, so that _stop() ends it whatever fails next
            started: tuple[Playwright, int | None] = await asyncio.wrap_future(early)
            self.pw, self.driver_pid = started
        exe = self.chromium or find_chromium()
        if self.pw is None:
            self.pw, self.driver_pid = await start_driver()
        pw, self.dead = self.pw, False
        # Playwright's --disable-dev-shm-usage puts the browser's shared memory in files in TMPDIR, each
        # unlinked just after it is made: a browser killed in between (every close kills it) leaves the file
        # behind, so it gets a folder of its own, removed once it is gone (_stop)
        self.tmp = tempfile.mkdtemp(prefix="crumb-qa-browser-")
        self.browser = browser = await asyncio.wait_for(pw.chromium.launch(
            executable_path=str(self.limits.wrap(exe)), headless=True, args=launch_args(self.fence.active), timeout=LAUNCH_TIMEOUT_S * 1000,
            env={**os.environ, "TMPDIR": self.tmp},
        ), LAUNCH_TIMEOUT_S + 5)
        browser.on("disconnected", self._disconnected)
        if self.driver_pid:
            browsers = [p for p in procfs.children().get(self.driver_pid, [])
                        if b"chrom" in procfs.cmdline(p) and b"--type=" not in procfs.cmdline(p)]
            self.browser_pid = browsers[0] if browsers else None
            if self.browser_pid:
                self.share_why = lower_share(self.browser_pid)
                self.share_said = self.share_why is None
            self.profile = _profile_dir(procfs.cmdline(self.browser_pid)) if self.browser_pid else None
            self._watch = asyncio.ensure_future(self._watch_browser(self.browser_pid or -1))
        self.pool = ContextPool(browser, self.settings, self._park.base)
        self.pool.refill()

    async def _watch_browser(self, pid: int) -> None:
        """Playwright may not notice a killed browser while its helpers keep the pipe open: look ourselves."""
        while self.browser is not None:
            if pid < 0 or not procfs.alive(pid):
                self.dead = True
                self._disconnected(None)
                return
            await asyncio.sleep(WATCH_INTERVAL_S)

    def _disconnected(self, browser: Browser | None) -> None:
        """The running browser went away: the checks on it die with it. A browser already replaced says
        nothing about the checks on its successor (its event can come late, after a restart)."""
        if browser is not None and browser is not self.browser:
            return
        for ev in list(self.active):
            ev.browser_died = True
            ev.find("crash", "the browser process died during QA", "Critical", raw="browser disconnected")
            ev.stop("browser died")

    async def _stop(self, *, kill: bool = False) -> None:
        """Close politely, then kill whatever the driver left behind. With `kill` (the runner closing for
        good: nothing in the browser is worth a shutdown), the browser is killed instead of asked to
        close, ~0.05 s sooner at the end of every `crumb run`. Playwright's driver removes the browser's
        two folders (profile, artifacts) together once it sees the browser gone, and stopping the driver
        before that leaves both behind; `browser.close()` waits for that only when it reaches the driver
        before the browser's exit does, so the profile folder's removal is waited for as well."""
        leftovers = procfs.descendants(self.driver_pid) if self.driver_pid else []
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        browser, pw, pool = self.browser, self.pw, self.pool
        self.browser = self.pw = self.pool = None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), CLOSE_TIMEOUT_S)
            except (TimeoutError, PlaywrightError):
                pass
        self.driver_pid, browser_pid, self.browser_pid = None, self.browser_pid, None
        profile, self.profile = self.profile, None
        if kill and browser is not None and browser_pid is not None and browser.is_connected() \
                and b"chrom" in procfs.cmdline(browser_pid):  # still our browser, not a pid used again
            _kill([browser_pid], group=True)
        else:
            profile = None  # closed politely: close() returns once the driver has removed the folders
        if browser is not None:
            try:
                await asyncio.wait_for(browser.close(), CLOSE_TIMEOUT_S)
            except (TimeoutError, PlaywrightError):
                pass
        if profile:
            await _removed(profile, CLOSE_TIMEOUT_S)
        if pw is not None:
            try:
                await asyncio.wait_for(pw.stop(), CLOSE_TIMEOUT_S)
            except (TimeoutError, PlaywrightError, OSError):
                pass
        _kill([p for p in leftovers if os.path.exists(f"/proc/{p}")])
        if profile:  # the driver did not get to it in time
            shutil.rmtree(profile, ignore_errors=True)
        tmp, self.tmp = self.tmp, None
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    async def warm(self, timeout: float) -> None:
        await self.ready()
        if self.pool is not None:
            await self.pool.filled(timeout)

    async def restart(self) -> None:
        """Stop the browser so that the next check starts a fresh one. While other checks still run on it
        this waits for the last of them to end (`stale`): pulling it from under them would fail good games
        with a crash that is QA's own."""
        if self.active:
            self.stale = True
            return
        async with self._lock:
            began = time.monotonic()
            try:
                await self._stop()
                self.stale = False
            finally:
                self.starting += time.monotonic() - began

    def _restart_soon(self) -> None:
        """restart() in a task of its own, kept until it ends (the loop holds tasks only weakly); none once
        close() has begun, which stops the browser itself and then the loop."""
        if self.closing:
            return
        task = asyncio.ensure_future(self.restart())
        self._restarts.add(task)
        task.add_done_callback(self._restarts.discard)

    async def close(self) -> None:
        self.closing = True
        if self._monitor is not None:
            self._monitor.cancel()
            await asyncio.gather(self._monitor, return_exceptions=True)
        async with self._lock:
            await self._stop(kill=True)
        # Playwright's tasks still waiting on the killed browser (a route being answered) would wait for
        # ever: end them, so that stopping this loop destroys no pending task (asyncio.run does the same)
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=CLOSE_TIMEOUT_S)
        self._park.stop()
        self._park_dir.cleanup()
        self.limits.close()

    async def check(self, game_dir: Path, entry: str, criteria: Sequence[Criterion], manifest: Manifest | None,
                    build_id: str | None, out_dir: Path | None, controls: Sequence[str],
                    settings: QASettings, film: str, waiting: Waiting) -> QAResult:
        """One check under `settings` (the session's own [settings.qa]); the browser is shared. The caller
        passes `waiting` in to read it while the check runs (its guard gives back the time spent waiting)."""
        started, stalled_before, starting_before = time.monotonic(), self.stalled, self.starting

        def used() -> float:
            """Seconds of the budget spent: not counting time the machine stood still, time QA spent
            (re)starting its own browser, which a loaded machine can stretch to seconds, nor time the check
            waited for its turn on the browser (turns.py)."""
            return (time.monotonic() - started - (self.stalled - stalled_before) - (self.starting - starting_before)
                    - waiting.seconds())

        async def browser_stage(alone: bool = False, paint: Painting = FIRST_RUN) -> tuple[PlayReport, str | None]:
            async with self.turns.take(waiting, alone=alone):
                return await self._browser_stage(game_dir, entry, criteria, controls, used, settings, film_frames,
                                                 paint)

        try:  # the static stage reads the folder: bounded by the check's own budget like the browser stage
            static = await asyncio.wait_for(asyncio.to_thread(check_static, game_dir, entry, manifest, settings),
                                            settings.timeout_s)
        except TimeoutError:
            static = StaticReport()
            static.add("timeout", f"reading the game folder took over {settings.timeout_s:g} s (qa.timeout_s)", "Critical")
        report, error, rechecked = PlayReport(ev=Evidence()), None, None
        film_frames = settings.film_frames if out_dir is not None else 0  # nowhere to keep a filmstrip: none taken
        if static.entry_ok:
            report, error = await browser_stage()
            hang = any(f.code == "hang" for f in report.ev.findings)
            stood = self.stalled - stalled_before
            whose = _not_known_whose(report.ev)
            room = _room_left(settings, used())  # else the first run stands
            if room and whose:
                report, error = await browser_stage(alone=True)
                rechecked = (f"{whose} while other checks shared QA's browser, so it was not known whose game did it; "
                             "QA checked the game again, alone on the browser, and this result is that second run")
            elif room and ((hang and error is None) or (stood >= STALL_MIN_S and (hang or error))):
                # A stall of QA's own (its driver, its browser, the machine) looks exactly like a game that
                # hangs: before blaming the game, check it once more, on a fresh browser when no other
                # check is running.
                if not self.active:
                    await self.restart()
                second, second_error = await browser_stage()
                if stood < STALL_MIN_S and second_error is not None:
                    # the first run saw the game hang with QA itself running freely: that is the game's own
                    # doing, and a second run QA could not finish (its fresh browser died, an overloaded
                    # machine used up the budget) tells nothing against it
                    rechecked = ("a first run stopped responding; QA checked the game again, on a fresh browser, but "
                                 f"could not finish that run ({second_error}), so this result is the first run")
                else:
                    report, error = second, second_error
                    why = (f"QA's own process stood still for {stood:.0f} s (a loaded machine)" if stood >= STALL_MIN_S
                           else "a first run stopped responding")
                    rechecked = f"{why}; QA checked the game again, on a fresh browser, and this result is that second run"
            unsure = [why for why in (report.twin_unsure, report.probes_unsure) if why]
            if unsure and error is None:
                if _room_left(settings, used()):
                    paint = Painting(twin=report.twin_unsure is not None, probes=report.probes_unsure is not None)
                    report, error = await browser_stage(paint=paint)
                    again = (f"{'; and '.join(unsure)}; QA checked the game again with {paint.said()} painting, and "
                             f"this result is that {'third' if rechecked else 'second'} run")
                    rechecked = f"{rechecked}; then {again}" if rechecked else again
                else:  # no time for another run: nothing is taken to work on evidence that cannot show it
                    _unchecked(report)
        sheet = None
        if report.sheet is not None:
            try:
                sheet = await report.sheet
            except (OSError, ValueError):
                report.film = []  # a frame that is not a picture: no filmstrip rather than a wrong one
        saved = await asyncio.to_thread(save_files, report, out_dir, film, sheet)  # file writes: off the loop
        return assemble(static, report, criteria=criteria, build_id=build_id, saved=saved, error=error,
                        duration_ms=int((time.monotonic() - started) * 1000), rechecked=rechecked)

    async def _browser_stage(self, game_dir: Path, entry: str, criteria: Sequence[Criterion],
                             controls: Sequence[str], used: Callable[[], float],
                             settings: QASettings, film_frames: int = 0,
                             paint: Painting = FIRST_RUN) -> tuple[PlayReport, str | None]:
        """One run of the game in the browser; QA's own failures come back as the error, never raised."""
        ev = Evidence(sched=self.sched_counts)
        report = PlayReport(ev=ev)
        error: str | None = None
        cancelled = False
        if self.active:  # a kill or a death from now on cannot be told apart between these checks' games
            ev.shared = True
            for other in self.active:
                other.shared = True
        self.active.add(ev)
        try:
            with GameServer(game_dir) as server:  # on this thread: inside the fence, beside the browser
                self.fence.allow(server.port_in_use)
                since, kills = time.monotonic(), self.limits.kills()
                if not self.fence.active:  # say what the fence really was
                    ev.find("no_network_fence", self.fence.why, "Minor")
                try:
                    browser = await self.ready()
                    if not self.share_said:  # said when a game is checked: `crumb run` starts the browser before
                        self.share_said = True  # its pitch is checked, and a refused pitch's one error line stays one
                        log.warning("QA: %s; a hung game may slow the whole machine", self.share_why)
                    report = await self._within_budget(
                        play(browser, server.base, server.url(entry), criteria=criteria,
                             controls=controls, settings=settings, ev=ev, pool=self.pool, film_frames=film_frames,
                             paint=paint),
                        used, settings.timeout_s)
                finally:
                    for attempt in self.fence.attempts(since):  # what went below request interception
                        ev.block(attempt.url())
                    if self.limits.kills() > kills:
                        ev.memory_kill = True
                        ev.find("memory_limit", f"the kernel killed a page of QA's browser for memory ({self.limits.why}) "
                                "while other checks shared it: this game or another went over the limit" if ev.shared
                                else f"the game went over QA's browser limits ({self.limits.why}): the kernel killed "
                                "its page", "Critical")
        except TimeoutError:
            error = f"QA timed out after {settings.timeout_s:g} s"
            ev.find("timeout", f"{error}; raise qa.timeout_s if the game is just slow", "Critical")
            ev.restart_browser = True
        except BrowserNotFound:
            raise  # not a finding about the game: the caller says QA cannot run here
        except asyncio.CancelledError:  # the runner's guard gave up on this check (or close() ended it): its game may still run
            cancelled = True
            raise
        except Aborted as exc:  # the check was stopped from outside the game: the browser went away
            error = "the browser died during QA" if ev.browser_died else f"QA stopped: {exc}"
            ev.restart_browser = True
        except Hang as exc:  # only QA's own steps (opening a context or tab) raise it this far
            error = f"QA could not drive the browser: {exc} took too long"
            ev.restart_browser = True
        except Exception as exc:  # QA's own failure: still a result, with the cause
            error = f"QA failed: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
            ev.restart_browser = True
        finally:
            self.active.discard(ev)
            if cancelled:  # this task is being cancelled, so the restart must be a task of its own
                self._restart_soon()
            elif self.pool is not None and not self.active and not (self.stale or ev.restart_browser):
                self.pool.refill(grow=True)  # between checks: contexts for the next one (shaped like this one)
        if ev.browser_died:
            error = error or "the browser died during QA"
            ev.restart_browser = True
        if ev.restart_browser or self.stale:  # restart() waits for the last check running on the browser
            await self.restart()
        return report, error

    async def _within_budget(self, step: Awaitable[PlayReport], used: Callable[[], float], budget_s: float) -> PlayReport:
        """Await `step` until the check's budget is spent (TimeoutError); time the machine stood still is
        given back, so a stall cannot use up a game's budget."""
        task = asyncio.ensure_future(step)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=max(budget_s - used(), 0.0))
                if done:
                    return task.result()
                await asyncio.sleep(0)  # a stall just ended: let the monitor count it before deciding
                if budget_s - used() <= 0:
                    raise TimeoutError
        finally:
            if not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)


def _unchecked(report: PlayReport) -> None:
    """What a run whose unpainted pages could not show what QA needed says when there is no time to check
    again with those pages painting: input and probes unknown, and why."""
    def late(paint: Painting) -> str:
        return f"and less than half of qa.timeout_s was left to check again with {paint.said()} painting"

    if report.twin_unsure:
        report.ev.find("input_unchecked", f"QA could not tell whether input changes the game: {report.twin_unsure}, "
                       f"{late(Painting(twin=True))}")
    if report.probes_unsure:
        report.ev.find("probes_unchecked", f"the probes' results cannot be trusted: {report.probes_unsure}, "
                       f"{late(Painting(probes=True))}")
        report.probes = [p if not p.ok else p.model_copy(update={"ok": False, "detail": f"not checkable: {report.probes_unsure}"})
                         for p in report.probes]


def _room_left(settings: QASettings, used_s: float) -> bool:
    """Whether a check has time for a second run: more than half its budget (qa.timeout_s) is left."""
    return settings.timeout_s - used_s > settings.timeout_s / 2


def _not_known_whose(ev: Evidence) -> str | None:
    """What happened to a check that may have been another game's doing (None: nothing, or only its own).
    The kernel kills the biggest page of the browser's memory cgroup, not the page that allocated last, and
    a browser that dies takes every check on it: with other checks running, neither names the game."""
    if not ev.shared:
        return None
    if ev.browser_died:
        return "the browser died"
    if ev.memory_kill:
        return "the kernel killed a page of the browser for memory"
    return None


def assemble(static: StaticReport, report: PlayReport, *, criteria: Sequence[Criterion], build_id: str | None,
             saved: Saved | None, error: str | None, duration_ms: int, rechecked: str | None = None) -> QAResult:
    """Merge both stages into the QAResult; the verdict fields follow the documented semantics."""
    ev = report.ev
    findings = list(static.findings)
    errors = list(static.errors)
    if static.entry_ok and report.loaded and not report.hook:
        severity: Severity = "Important" if criteria else "Minor"
        ev.find("no_hook", "the game has no window.__crumb.state() test hook: checked by pixels and input only", severity)
    for probe in report.probes:
        if not probe.ok:
            text = next((c.text for c in criteria if c.id == probe.id), "")
            ev.find("probe_failed", f"probe {probe.id!r} ({text[:80]}) failed: {probe.detail[:300]}")
    findings += ev.findings
    errors += [e for e in ev.errors if e not in errors]
    probes = list(report.probes)
    ran = {p.id for p in probes}
    for c in criteria:
        if c.id not in ran:
            probes.append(ProbeResult(id=c.id, ok=False, detail="not run: QA stopped before this probe"
                                      if static.entry_ok else "not run: the game did not load"))
    saved = saved or Saved()
    exec_bad = any(f.severity != "Minor" for f in ev.findings if f.code not in ("probe_failed", "no_hook"))
    exec_ok = bool(report.loaded and report.canvas_nonblank and report.canvas_animates and report.input_responds
                   and not exec_bad and error is None)
    static_ok = static.ok
    ok = static_ok and exec_ok and all(p.ok for p in probes) and error is None \
        and not any(f.code == "no_hook" and f.severity != "Minor" for f in findings)
    return QAResult(
        build=build_id, ok=ok, exec_ok=exec_ok, static_ok=static_ok, loaded=report.loaded, hook=report.hook,
        canvas_nonblank=report.canvas_nonblank, canvas_animates=report.canvas_animates,
        input_responds=report.input_responds, probes=probes, fps=report.fps, errors=errors, findings=findings,
        blocked=list(ev.blocked), screenshots=[f.path for f in saved.screenshots], filmstrip=saved.filmstrip,
        files=[*saved.screenshots, *saved.film_files], duration_ms=duration_ms, error=error, rechecked=rechecked,
    )


@dataclass
class Saved:
    """What a check wrote: the screenshots and the filmstrip's files, each with its sha256."""

    screenshots: list[FileEntry] = field(default_factory=list)
    filmstrip: Filmstrip | None = None
    film_files: list[FileEntry] = field(default_factory=list)


def save_files(report: PlayReport, out_dir: Path | None, film: str = "film", sheet: bytes | None = None) -> Saved:
    """Write start/input/end.png into out_dir and the filmstrip into out_dir/`film`/; paths are relative to
    out_dir's grandparent (the session folder when out_dir is <session>/artifacts/qa), e.g.
    "artifacts/qa/start.png", "artifacts/qa/round-2/frame-01.png"."""
    saved = Saved()
    if out_dir is None:
        return saved
    if report.shots or report.film:
        out_dir.mkdir(parents=True, exist_ok=True)
    base = out_dir.resolve().parent.parent
    for name in SCREENSHOTS:
        if name in report.shots:
            saved.screenshots.append(write_entry(out_dir.resolve() / f"{name}.png", report.shots[name], base))
    if report.film:
        saved.filmstrip, saved.film_files = save_film(report.film, out_dir.resolve() / film, base, report.inputs,
                                                      sheet_png=sheet)
    return saved


class QARunner:
    """Owns one warm Chromium; `check()` may be called from any thread, concurrently, and never raises."""

    def __init__(self, settings: QASettings | None = None, *, chromium: Path | None = None,
                 thread: QAThread | None = None) -> None:
        """`thread`: one started earlier (boot.py), perhaps with the driver already starting on it."""
        self.settings = settings or QASettings()
        thread = thread or QAThread()
        self.fence = thread.fence  # the QA thread, its driver, browser and game servers: in a namespace of their own
        self._engine = _Engine(self.settings, chromium, self.fence, thread.driver)
        self._loop, self._thread = thread.loop, thread.thread
        self._closed = False
        self._warm = asyncio.run_coroutine_threadsafe(self._warm_up(), self._loop)
        asyncio.run_coroutine_threadsafe(self._engine.start_monitor(), self._loop)

    async def _warm_up(self) -> None:
        try:
            await self._engine.ready()
        except Exception:
            pass

    def warm(self, timeout: float = LAUNCH_TIMEOUT_S) -> bool:
        """Block until the browser is up and the contexts for the next check are open (as they are in
        the daemon, where a build separates two checks); False if that failed or took over `timeout`."""
        if self._closed:
            return False
        try:
            asyncio.run_coroutine_threadsafe(self._engine.warm(timeout), self._loop).result(timeout=timeout + 5)
            return True
        except Exception:
            return False

    def check(self, game_dir: Path, *, entry: str = "index.html", criteria: Sequence[Criterion] = (),
              manifest: Manifest | None = None, build_id: str | None = None, out_dir: Path | None = None,
              controls: Sequence[str] = (), settings: QASettings | None = None, film: str = "film") -> QAResult:
        """Run static + browser QA on `game_dir` under `settings` (a session's own [settings.qa]; default:
        this runner's); QA's own failure comes back as QAResult(ok=False, error=...), but no Chromium at all
        raises BrowserNotFound: that says nothing about the game. With `out_dir`, the screenshots go there
        and the filmstrip into its subfolder `film` (a session: "round-K")."""
        started = time.monotonic()
        settings = settings or self.settings
        if self._closed:
            return _failed(build_id, "QARunner is closed: create a new one", started)
        try:
            waiting = Waiting()
            future = asyncio.run_coroutine_threadsafe(
                self._engine.check(Path(game_dir), entry, list(criteria), manifest, build_id,
                                   Path(out_dir) if out_dir else None, list(controls), settings, film, waiting), self._loop)
        except RuntimeError as exc:
            return _failed(build_id, f"QA could not start: {exc}", started)
        try:
            return _guard(future, started + settings.timeout_s + GUARD_SLACK_S, waiting)
        except concurrent.futures.TimeoutError:
            future.cancel()
            if not self._closed:  # else close() stops the browser itself, and then closes the loop
                restart = self._engine.restart()
                try:
                    asyncio.run_coroutine_threadsafe(restart, self._loop)
                except RuntimeError:  # closed meanwhile
                    restart.close()
            return _failed(build_id, f"QA timed out after {settings.timeout_s:g} s", started, code="timeout")
        except BrowserNotFound:
            raise
        except concurrent.futures.CancelledError:  # close() ended the checks still running
            return _failed(build_id, "QA stopped: the QA runner was closed during the check", started)
        except Exception as exc:
            return _failed(build_id, f"QA failed: {type(exc).__name__}: {exc}", started)

    def close(self) -> None:
        """Close the browser and stop the thread; no browser process survives this."""
        if self._closed:
            return
        self._closed = True
        try:
            asyncio.run_coroutine_threadsafe(self._engine.close(), self._loop).result(timeout=3 * CLOSE_TIMEOUT_S)
        except Exception:
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=CLOSE_TIMEOUT_S)
        if not self._thread.is_alive():
            self._loop.close()  # its selector and wake-up pipe: three descriptors per runner
        self.fence.close()

    def __enter__(self) -> QARunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _guard(future: concurrent.futures.Future[QAResult], deadline: float, waiting: Waiting) -> QAResult:
    """The check's result, or TimeoutError once `deadline` (monotonic) has passed: a guard against a loop
    that is stuck for good. It moves on by the time the check waited for its turn, and by the time the
    machine stood still: a beat this thread slept past means nothing here ran, not QA and not the game
    (a spinning renderer has made this kernel run nothing else for a minute; see docs/design.md)."""
    stood = 0.0
    while True:
        left = deadline + waiting.seconds() + stood - time.monotonic()
        if left <= 0:
            raise concurrent.futures.TimeoutError
        beat, nap = time.monotonic(), min(left, GUARD_TICK_S)
        try:
            return future.result(timeout=nap)
        except concurrent.futures.TimeoutError:
            late = time.monotonic() - beat - nap
            if late >= STALL_MIN_S:
                stood += late


def _failed(build_id: str | None, error: str, started: float, code: str = "crash") -> QAResult:
    return QAResult(build=build_id, ok=False, error=error,
                    findings=[Finding(code=code, severity="Critical", message=error)], errors=[error],
                    duration_ms=int((time.monotonic() - started) * 1000))


def run_qa(game_dir: Path, **kwargs: Any) -> QAResult:
    """One check on a fresh (cold) runner; takes the same keywords as QARunner.check plus settings/chromium."""
    settings = kwargs.pop("settings", None)
    chromium = kwargs.pop("chromium", None)
    runner = QARunner(settings, chromium=chromium)
    try:
        return runner.check(game_dir, **kwargs)
    finally:
        runner.close()
