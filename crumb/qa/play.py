"""The browser stage: load the game, watch it draw, play it, run the acceptance probes.

Each check uses fake-clock browser contexts (no real waiting anywhere), all running at once:
  main + twin  one context, two tabs sharing its clock: both start, only main gets the controls; any
               difference in state() or pixels is the input's doing (Math.random is seeded, time is
               fake, so the runs are otherwise identical). Screenshots: start, input, end; with
               `film_frames`, the filmstrip's small frames too (film.py: evenly spread, and the first
               after each input). Frames per second come from the main thread's busy time over one
               second of game time (capped at 60), not counting the filmstrip's frames.
  probes       `probe_tabs` more contexts of one tab each (a clock each): every acceptance probe runs on
               a freshly loaded page, the probes shared out among the tabs.
Contexts come ready from a pool that is refilled between checks, so a check starts by loading the game.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from crumb.protocol.game import Criterion, ProbeResult, ProbeStep
from crumb.qa.chains import Link, chains
from crumb.qa.expect import judge_all
from crumb.qa.film import FRAME_WIDTH, Schedule, Shot, contact_sheet, ordered
from crumb.qa.page import (
    FRAME_MS,
    MAIN,
    OPEN_TIMEOUT_S,
    PAINTED_PROBE,
    PROBE,
    Aborted,
    Evidence,
    GameContext,
    GameTab,
    Hang,
    Lane,
    guarded,
    navigation_error,
)
from crumb.qa.pixels import Picture, analyse
from crumb.settings import QASettings

SETTLE_MS = 500      # game time after load before the first look
HOLD_MS = 150        # how long a control key is held (games that poll held keys see it)
AFTER_MS = 1000      # game time between the "input" and "end" screenshots
MAX_CONTROLS = 8
# A reused tab keeps its renderer, which grows by about 10 MB with every game it loads and gives little
# back: after some 60 checks a runner's five renderers passed the browser's 2 GB memory cgroup and the
# kernel killed one in the middle of a good game (a false `crash` and `memory_limit`). A context that
# served this many checks is closed instead of recycled, and a new one (new renderers) takes its place.
RETIRE_AFTER = 20
CRASH_GRACE_S = 1.0
# The twin stops painting once state() is known to tell the runs apart (page.py's TWIN_PAINT_JS): a quarter
# of a check's CPU. bench/qa_ab.py --change quiet-twin measures it against a twin that paints throughout.
QUIET_TWIN = True
# ... and, where state() is there once the game has loaded, stops before the game's clock first runs (--change early-quiet)
EARLY_QUIET = True
_TRACE = os.environ.get("CRUMB_QA_TRACE") == "1"
# what else a page that does not paint cannot answer as a painting one (page.py's _PAINT_SWITCH_JS)
UNKEPT = (", or what a page that does not paint does not keep (a point in the path it was building or in a stroke, "
          "the line dash, a filter, a colour that is not one)")
_T0 = time.monotonic()


def trace(label: str) -> None:
    """CRUMB_QA_TRACE=1 prints when each phase ends (for tuning; silent otherwise)."""
    if _TRACE:
        print(f"[qa {time.monotonic() - _T0:8.3f}] {label}", file=sys.stderr)


@dataclass(frozen=True)
class Input:
    kind: str  # key | click | tap
    key: str = ""
    x: float = 0.5
    y: float = 0.5

    def label(self) -> str:
        return repr(self.key) if self.kind == "key" else self.kind


_ALIASES = {
    "space": [" "], "spacebar": [" "], "enter": ["Enter"], "return": ["Enter"], "esc": ["Escape"],
    "escape": ["Escape"], "up": ["ArrowUp"], "down": ["ArrowDown"], "left": ["ArrowLeft"], "right": ["ArrowRight"],
    "arrows": ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"],
    "arrow keys": ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"], "wasd": ["w", "a", "s", "d"],
}
_POINTER = {"click", "mouse", "pointer", "left click", "mouse click", "drag"}
_TOUCH = {"tap", "touch", "swipe"}
DEFAULT_INPUTS = [Input("key", k) for k in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " ")] + [Input("click")]


def controls_to_inputs(controls: Sequence[str]) -> list[Input]:
    """Spec control names ("ArrowLeft", "Space", "WASD", "click", "tap") → distinct inputs to perform."""
    out: list[Input] = []
    for raw in controls:
        name = " " if str(raw) == " " else str(raw).strip()  # the Space key is a KeyboardEvent.key of " "
        low = name.lower()
        if not name:
            continue
        if low in _POINTER:
            items = [Input("click")]
        elif low in _TOUCH:
            items = [Input("tap")]
        elif low in _ALIASES:
            items = [Input("key", k) for k in _ALIASES[low]]
        elif low.startswith("arrow") and low[5:] in ("up", "down", "left", "right"):
            items = [Input("key", "Arrow" + low[5:].capitalize())]
        else:
            items = [Input("key", name)]
        out.extend(i for i in items if i not in out)
    return out


def hint_inputs(state: Any) -> list[Input]:
    """The inputs the game hints at; none once the round has ended, so that a play step that wins (or
    loses) early does not follow the result screen's "press Enter" into a new round and lose the score
    the probes are about to read."""
    if isinstance(state, dict) and state.get("phase") in ("won", "over"):
        return []
    hints = state.get("hint") if isinstance(state, dict) else None
    out: list[Input] = []
    for h in hints if isinstance(hints, list) else []:
        if not isinstance(h, dict):
            continue
        if h.get("type") == "key" and isinstance(h.get("key"), str):
            out.append(Input("key", h["key"]))
        elif h.get("type") in ("click", "tap"):
            try:
                out.append(Input(h["type"], x=float(h.get("x", 0.5)), y=float(h.get("y", 0.5))))
            except (TypeError, ValueError):
                continue
    return out


@dataclass
class PlayReport:
    ev: Evidence
    loaded: bool = False
    hook: bool = False
    canvas_nonblank: bool | None = None
    canvas_animates: bool | None = None
    input_responds: bool | None = None
    fps: float | None = None
    probes: list[ProbeResult] = field(default_factory=list)
    shots: dict[str, bytes] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)
    film: list[Shot] = field(default_factory=list)  # the filmstrip's frames (none when not asked for)
    # why this run's pages that did not paint could not show what QA needed (the runner checks again with
    # those pages painting): the twin's, whether input changes the game (input_responds is None then); the
    # probes', that the game computed from pixels that were never painted
    twin_unsure: str | None = None
    probes_unsure: str | None = None
    sheet: asyncio.Future[bytes] | None = None  # their contact sheet, being made while the check goes on


class ContextPool:
    """Fake-clock contexts kept open between checks, their tabs on a blank page (about:blank when new, the
    wipe page when recycled), so a check starts by loading the game rather than by spawning renderers (a
    new tab costs about half a second of CPU, a reused one a navigation). A context goes back to the pool
    only after a clean check, and is recycled (the game left, everything it stored wiped, clock reset)
    between checks. Each check brings its own settings (a session's [settings.qa]); the pool keeps what
    the latest check asked for (its viewport, its probe tabs) and hands a check only contexts of the
    check's viewport."""

    def __init__(self, browser: Browser, settings: QASettings, park_base: str) -> None:
        self.browser, self.settings, self.park_base = browser, settings, park_base
        # how many of each to keep ready between checks: at first just enough for one check, so a cold
        # runner's first check does not wait for tabs it may not use; all of them after that check
        self.want = {MAIN: 1, PROBE: 1}
        self.full = {MAIN: 1, PROBE: settings.probe_tabs}
        self.ready: dict[Lane, list[GameContext]] = {lane: [] for lane in self.full}
        self.waiting: dict[Lane, int] = {lane: 0 for lane in self.full}
        self.used: list[GameContext] = []
        self.grown = False  # the first check is over: keep the full set ready
        self.checks = 0  # checks running: then only what a check waits for is opened (renderers cost CPU)
        self.broken = False  # a used context could not even be closed: the browser needs a restart
        self._filling: asyncio.Future[None] | None = None
        self._changed = asyncio.Condition()
        self.closed = False

    def tune(self, settings: QASettings) -> None:
        """Shape the pool like the check that starts now: ready contexts of another viewport are closed,
        and as many probe contexts as it may use are kept ready from now on."""
        self.settings = settings
        self.full[PROBE] = settings.probe_tabs
        if self.grown:
            self.want = dict(self.full)
        for lane, group in self.ready.items():
            stale = [c for c in group if c.viewport != settings.viewport]
            self.ready[lane] = [c for c in group if c.viewport == settings.viewport]
            for ctx in stale:
                asyncio.ensure_future(ctx.close())

    async def take(self, lane: Lane, viewport: tuple[int, int], *, wait: bool = True) -> GameContext | None:
        """A ready context of `viewport`; with `wait`, one is opened if none is ready (None if that fails, or
        the pool is shaped for another viewport: open your own)."""
        if tuple(viewport) != tuple(self.settings.viewport):
            return None
        deadline = time.monotonic() + OPEN_TIMEOUT_S
        while wait and not self.ready[lane] and not self.closed and time.monotonic() < deadline:
            self.waiting[lane] += 1
            try:
                self.refill()
                filling = self._filling

                def settled(filling: asyncio.Future[None] | None = filling) -> bool:
                    return bool(self.ready[lane]) or filling is None or filling.done()
                async with self._changed:
                    await asyncio.wait_for(self._changed.wait_for(settled), deadline - time.monotonic())
            except TimeoutError:
                break
            finally:
                self.waiting[lane] -= 1
            if not self.ready[lane] and filling is not None and filling.done() and filling is self._filling \
                    and not self.used:
                break  # the fill ended without one: it could not open a context
        while self.ready[lane]:
            ctx = self.ready[lane].pop(0)
            if not ctx.sick and ctx.viewport == viewport:
                return ctx
            asyncio.ensure_future(ctx.close())  # its renderer died while it waited: of no use to anyone
        return None

    def give_back(self, ctx: GameContext) -> None:
        """A context after a clean check: recycled by the next refill()."""
        ctx.release()
        ctx.checks += 1
        self.used.append(ctx)

    def refill(self, *, grow: bool = False) -> None:
        """Recycle what came back and open what is missing (`grow`: up to the full set)."""
        if grow:
            self.grown = True
            self.want = dict(self.full)
        if not self.closed and (self._filling is None or self._filling.done()):
            self._filling = asyncio.ensure_future(self._fill())

    async def filled(self, timeout: float) -> None:
        """Wait until the pool is full again (or `timeout` passes)."""
        if self._filling is not None and not self._filling.done():
            await asyncio.wait({self._filling}, timeout=timeout)

    async def _fill(self) -> None:
        try:
            await self._fill_up()
        finally:
            async with self._changed:
                self._changed.notify_all()

    async def _added(self, ctx: GameContext) -> None:
        self.ready[ctx.lane].append(ctx)
        async with self._changed:
            self._changed.notify_all()

    def _short(self, lane: Lane) -> bool:
        return len(self.ready[lane]) < (self.want[lane] if self.checks == 0 else self.waiting[lane])

    async def _reuse(self, ctx: GameContext) -> None:
        """Recycle one used context into `ready`, or close it (unfit, unwanted, or of another viewport)."""
        if ctx.viewport != self.settings.viewport:  # shaped for other settings: of no use now
            await ctx.close()
            return
        if ctx.checks >= RETIRE_AFTER:  # its renderers have grown: new ones instead (_fill_up opens them)
            await ctx.close()
            return
        try:
            await ctx.recycle(self.park_base, self.settings.load_timeout_s)
        except (Hang, Aborted, PlaywrightError):
            self.broken |= not await ctx.close()
            return
        if self.closed or len(self.ready.get(ctx.lane, [])) >= self.want.get(ctx.lane, 0):
            await ctx.close()
            return
        await self._added(ctx)

    async def _fill_up(self) -> None:
        while self.used and not self.closed:
            batch, self.used = self.used, []  # all at once: each wipe is mostly waiting on the browser
            await asyncio.gather(*(self._reuse(ctx) for ctx in batch))
        for lane in self.want:
            while not self.closed and self._short(lane):
                ctx = GameContext(self.browser, Evidence(), self.park_base, lane=lane, viewport=self.settings.viewport)
                try:
                    await ctx.open(self.settings.load_timeout_s, spare=lane.tabs)
                except (Hang, Aborted, PlaywrightError):
                    await ctx.close()
                    return
                if self.closed:
                    await ctx.close()
                    return
                await self._added(ctx)

    async def close(self) -> None:
        self.closed = True
        if self._filling is not None:
            self._filling.cancel()
        async with self._changed:
            self._changed.notify_all()
        contexts = [c for group in self.ready.values() for c in group] + self.used
        self.ready, self.used = {lane: [] for lane in self.full}, []
        await asyncio.gather(*(c.close() for c in contexts), return_exceptions=True)


@dataclass(frozen=True)
class Painting:
    """Which of a run's pages paint throughout: those a first run could not tell by (PlayReport's
    twin_unsure, probes_unsure), and only those, since painting is most of a page's cost."""

    twin: bool = False
    probes: bool = False

    def said(self) -> str:
        return " and ".join(what for what, on in (("both runs of the main check", self.twin),
                                                  ("its probe pages", self.probes)) if on) or "no page"


FIRST_RUN = Painting()  # a first run: no page paints throughout that need not


class _Stage:
    def __init__(self, browser: Browser, base: str, url: str, settings: QASettings,
                 ev: Evidence, pool: ContextPool | None = None, quiet: bool = True) -> None:
        self.browser, self.base, self.url = browser, base, url
        self.quiet = quiet  # probe pages, which judge state() alone, do not paint (unless play's `paint` says)
        self.pixels_read = False  # a probe page read canvas pixels (or what it did not keep) while it did not paint
        self.pool = pool
        self.settings, self.ev = settings, ev
        self.contexts: list[GameContext] = []
        self.step_s = settings.probe_timeout_s
        self.load_s = settings.load_timeout_s
        self.main_loaded = asyncio.Event()  # probes load after main and twin: five loads at once help no one
        self.film: Schedule | None = None  # the filmstrip's schedule, while the main play-through records one
        self.film_ctx: GameContext | None = None
        self.film_tab: GameTab | None = None
        self.film_rect: dict[str, Any] | None = None

    async def run(self, ctx: GameContext, ms: int) -> None:
        """Advance `ctx`'s game time; in the filmed context, stopping at each filmstrip mark for a frame."""
        film = self.film
        if film is None or ctx is not self.film_ctx:
            await ctx.run_for(ms, self.step_s)
            return
        while ms > 0:
            step = film.step(ms)
            if step:
                await ctx.run_for(step, self.step_s)
            film.t_ms += step
            ms -= step
            if film.due():
                await self.frame()

    async def frame(self, after: str | None = None) -> None:
        """Take one filmstrip frame of the main tab now."""
        if self.film is not None and self.film_tab is not None:
            self.film.add(await self.film_tab.frame(self.film_rect, FRAME_WIDTH, self.step_s), after)

    async def new_context(self, lane: Lane) -> GameContext:
        ctx = await self.pool.take(lane, self.settings.viewport) if self.pool and lane in self.pool.full else None
        if ctx is not None:
            ctx.adopt(self.ev, self.base)
            self.contexts.append(ctx)
            return ctx
        ctx = GameContext(self.browser, self.ev, self.base, lane=lane, viewport=self.settings.viewport)
        self.contexts.append(ctx)
        await ctx.open(self.load_s)
        return ctx

    async def close_all(self, reuse: bool) -> None:
        """Hand the contexts back to the pool after a clean check; otherwise close them."""
        if reuse and self.pool is not None and not self.pool.closed and not any(c.sick for c in self.contexts):
            for ctx in self.contexts:
                self.pool.give_back(ctx)
            return
        results = await asyncio.gather(*(c.close() for c in self.contexts), return_exceptions=True)
        if any(r is not True for r in results):
            self.ev.restart_browser = True

    # ------------------------------------------------------------ inputs

    async def perform(self, ctx: GameContext, actors: Sequence[GameTab], inp: Input, hold_ms: int,
                      rect: dict[str, Any] | None) -> None:
        """Do `inp` in every tab of `actors` at once, held over `hold_ms` of (the context's shared) game time."""
        if inp.kind == "key":
            await asyncio.gather(*(t.key(inp.key, True, self.step_s) for t in actors))
            await self.run(ctx, hold_ms)
            await asyncio.gather(*(t.key(inp.key, False, self.step_s) for t in actors))
        else:
            await asyncio.gather(*(t.point(inp.kind, inp.x, inp.y, rect, self.step_s) for t in actors))
            await self.run(ctx, hold_ms)

    async def start(self, ctx: GameContext, tabs: Sequence[GameTab], rect: dict[str, Any] | None,
                    hook: bool) -> list[Input]:
        """Enter, then Space, then a click, until the hook leaves "title" (without a hook: Enter only).
        Every tab gets the same inputs at the same game time; the first one is watched."""
        used = []
        for inp in (Input("key", "Enter"), Input("key", " "), Input("click")):
            used.append(inp)
            await self.perform(ctx, tabs, inp, FRAME_MS * 2, rect)
            if not hook:
                break
            reading = await tabs[0].state(self.step_s)
            if (reading.get("state") or {}).get("phase") != "title":
                break
        return used

    # ------------------------------------------------------------ main + twin

    async def main(self, ctx: GameContext, main: GameTab, twin: GameTab, controls: Sequence[str],
                   report: PlayReport, film_frames: int = 0, quiet_twin: bool = False) -> None:
        # Both tabs load at once (the clock stands still until QA runs it, so the twin starts at the same moment
        # whenever it loads), the twin painting; a game whose state() is there once loaded has the twin stop
        # painting before its clock first runs.
        switchable = await twin.paint_switch(True) if quiet_twin else None
        await asyncio.gather(main.load(self.load_s), twin.load(self.load_s))
        painting = not (switchable is not None and EARLY_QUIET and await twin.quiet_if_hooked(self.step_s))
        await self._main(ctx, main, twin, controls, report, film_frames, switchable is not None, painting)
        if switchable is not None:  # the tab goes back to the pool as it came (a check that fails closes it instead)
            await guarded(switchable.__aexit__(None, None, None), "removing the twin's paint switch", OPEN_TIMEOUT_S,
                          self.ev)

    async def _main(self, ctx: GameContext, main: GameTab, twin: GameTab, controls: Sequence[str],
                    report: PlayReport, film_frames: int, switchable: bool, painting: bool) -> None:
        self.main_loaded.set()
        report.loaded = True
        trace('main loaded')
        await ctx.run_for(SETTLE_MS, self.step_s)
        trace('main settled')
        rect, first = await main.target_and_state(self.step_s)
        trace('main state')
        if rect is None or not rect.get("canvas"):
            self.ev.find("no_canvas", "the page has no <canvas>; QA looked at the whole page instead", "Minor")
        report.hook = "state" in first
        if first.get("error"):
            self.ev.find("hook_error", f"window.__crumb.state() threw: {first['error'][:200]}", raw=first["error"])
        # state() tells the two runs apart from here on: the twin's pictures are needed only if it never does
        quiet = switchable and (report.hook or not painting)
        if quiet and painting:
            await twin.paint(False, self.step_s)
        blind = quiet and not report.hook  # a twin that never painted, and no state() to compare after all
        shots = report.shots
        # a background tab gets no compositor frames: a screenshot would wait seconds for one
        await guarded(main.page.bring_to_front(), "bringing the game to the front", self.step_s, self.ev)
        shots["start"] = await main.screenshot(rect, self.step_s)
        trace('main start shot')
        if film_frames:  # the filmstrip starts at the first look; its end is set once the inputs are known
            self.film = Schedule(film_frames, SETTLE_MS, SETTLE_MS + AFTER_MS, t_ms=SETTLE_MS, shots=report.film)
            self.film_ctx, self.film_tab, self.film_rect = ctx, main, rect
            await self.frame()

        started = await self.start(ctx, [main, twin], rect, report.hook)  # the twin starts too: only controls differ
        await self.frame(after="start")

        inputs = controls_to_inputs(controls)
        if not inputs:  # no spec: what the game hints, then the usual suspects
            hinted = hint_inputs((await main.state(self.step_s)).get("state")) if report.hook else []
            inputs = hinted + [i for i in DEFAULT_INPUTS if i not in hinted]
        inputs = inputs[:MAX_CONTROLS]
        report.inputs = [i.label() for i in inputs]
        if self.film is not None:
            self.film.last_ms = self.film.t_ms + HOLD_MS * len(inputs) + AFTER_MS
        responded = False
        for inp in inputs:
            try:
                await self.perform(ctx, [main], inp, HOLD_MS, rect)
            except PlaywrightError as exc:
                if "Unknown key" not in str(exc):
                    raise
                self.ev.find("bad_control", f"the control {inp.key!r} is not a key the browser knows", "Minor")
                await self.run(ctx, HOLD_MS)
            await self.frame(after=inp.label())
            if not responded and not blind:  # after each input: opposite inputs (left, then right) may cancel out later
                responded = await self.differ(main, twin, rect, report.hook)

        trace('main inputs done')
        shots["input"] = await main.screenshot(rect, self.step_s)
        s1, t1 = await asyncio.gather(main.state(self.step_s), twin.state(self.step_s))
        busy = await self.run_busy(ctx, main, AFTER_MS)
        self.film = None  # the play-through is over: nothing more is filmed
        if report.film:
            report.sheet = asyncio.ensure_future(asyncio.to_thread(contact_sheet, ordered(report.film)))
        frames = AFTER_MS / (1000 / 60)
        report.fps = round(min(60.0, frames / busy), 1) if busy > 0 else 60.0
        trace('main ran 1 s')
        shots["end"] = await main.screenshot(rect, self.step_s)
        s2, t2 = await asyncio.gather(main.state(self.step_s), twin.state(self.step_s))
        twin_shots: list[bytes] = []
        if blind:
            report.twin_unsure = ("state() was there when the game had loaded but not once it had settled, and the run "
                                  "without input had not painted, so the two runs could not be compared")
        elif quiet and not responded:
            report.twin_unsure = ("state() did not tell the run with input from the one without, and their pictures "
                                  "could not be compared: the one without had stopped painting")
        elif quiet and await twin.paint(None, self.step_s):
            report.twin_unsure = (f"the game read its canvas's pixels{UNKEPT} in the run without input after that run "
                                  "had stopped painting, so the two runs no longer played the same game")
        elif not responded:
            twin_shots = [await twin.screenshot(rect, self.step_s)]
            responded = s1 != t1 or s2 != t2 or twin_shots[0] != shots["end"]
        report.input_responds = None if report.twin_unsure else responded
        report.canvas_animates = len({shots["start"], shots["input"], shots["end"], *twin_shots}) > 1
        report.canvas_nonblank = False
        picture = None
        for name in ("start", "input", "end"):
            picture = await self.look(shots[name])
            if not picture.blank:
                report.canvas_nonblank = True
                break

        trace('main analysed')
        total = SETTLE_MS + AFTER_MS + HOLD_MS * len(inputs)
        if not report.canvas_nonblank:
            colour = picture.mode if picture else "?"
            self.ev.find("blank_canvas", f"the canvas stayed one colour ({colour}) in every screenshot: nothing is drawn")
        elif not report.canvas_animates:
            self.ev.find("frozen_canvas", f"the canvas never changed over {total / 1000:.1f} s of game time and "
                         f"{len(inputs) + len(started)} inputs: the picture is frozen")
        if report.input_responds is False:
            self.ev.find("no_input_response", f"pressing {', '.join(report.inputs)} changed neither the picture nor "
                         "state(), compared with a run without them: the game ignores input")
        if report.hook and (s1.get("state") or {}).get("phase") == "title":
            self.ev.find("start_ignored", "the game stayed on the title screen after Enter, Space and a click")
        if report.fps < 30:
            self.ev.find("low_fps", f"the game's main thread can only keep up {report.fps} frames per second", "Minor")

    async def run_busy(self, ctx: GameContext, tab: GameTab, ms: int) -> float:
        """Advance `ms` of game time (filmed like `run`); the seconds `tab`'s main thread was busy doing
        so, not counting the filmstrip's frames, which are taken between the measured spans."""
        busy, left = 0.0, ms
        while left > 0:
            step = self.film.step(left) if self.film is not None and ctx is self.film_ctx else left
            before = await tab.main_thread_s(self.step_s)
            if step:
                await ctx.run_for(step, self.step_s)
            busy += await tab.main_thread_s(self.step_s) - before
            left -= step
            if self.film is not None and ctx is self.film_ctx:
                self.film.t_ms += step
                if self.film.due():
                    await self.frame()
        return busy

    async def differ(self, main: GameTab, twin: GameTab, rect: dict[str, Any] | None, hook: bool) -> bool:
        """Does the run with input differ from the one without? state() when there is a hook, else pixels."""
        if hook:
            states = await asyncio.gather(main.state(self.step_s), twin.state(self.step_s))
            return states[0] != states[1]
        pngs = await asyncio.gather(main.screenshot(rect, self.step_s), twin.screenshot(rect, self.step_s))
        return pngs[0] != pngs[1]

    async def look(self, png: bytes) -> Picture:
        return await asyncio.to_thread(analyse, png)

    # ------------------------------------------------------------ probes

    async def probes(self, criteria: Sequence[Criterion]) -> list[ProbeResult]:
        """Every probe on a freshly loaded page, or further on the page of a probe whose steps it goes on
        from (chains.py); the chains are shared out among `probe_tabs` tabs of their own (a context, so a
        clock, each) that work at once. Results keep the criteria's order."""
        queue = chains(criteria)
        results: dict[int, ProbeResult] = {}
        contexts = [await self.new_context(PROBE if self.quiet else PAINTED_PROBE)]
        while self.quiet and self.pool is not None and len(contexts) < min(self.settings.probe_tabs, len(queue)):
            more = await self.pool.take(PROBE, self.settings.viewport, wait=False)  # more tabs only if ready: a new one costs more
            if more is None:
                break
            more.adopt(self.ev, self.base)
            self.contexts.append(more)
            contexts.append(more)

        async def worker(ctx: GameContext) -> None:
            tab = await ctx.new_tab(self.url, self.load_s)
            await self.main_loaded.wait()
            while queue and not self.ev.abort.is_set():
                chain = queue.pop(0)
                left = await self.chain(ctx, tab, chain, results, fresh=not tab.loaded)
                if self.quiet and not self.pixels_read and not self.ev.abort.is_set():  # before the next load forgets
                    self.pixels_read = await self.read_pixels(tab)
                if left:  # a probe failed midway: the ones after it start again on a page of their own
                    queue[:0] = [[Link(k.index, k.criterion, tuple(k.criterion.probe.steps))] for k in left]

        await asyncio.gather(*(worker(c) for c in contexts))
        return [results[n] for n in sorted(results)]

    async def read_pixels(self, tab: GameTab) -> bool:
        """Whether the game on this probe page read canvas pixels, which it does not paint, or what it does not
        keep (page.py's _PAINT_SWITCH_JS). A page that failed cannot say: only a wrong reading of a working page
        is at stake here."""
        try:
            return await tab.paint(None, self.step_s)
        except (Hang, Aborted, PlaywrightError):
            return False

    async def chain(self, ctx: GameContext, tab: GameTab, links: list[Link], results: dict[int, ProbeResult],
                    fresh: bool) -> list[Link]:
        """Judge each probe of the chain in turn on one page; the links not reached when one fails."""
        first = links[0].criterion
        current = "loading the page"
        try:
            await (tab.load(self.load_s) if fresh else tab.reload(self.load_s))
            await ctx.run_for(SETTLE_MS, self.step_s)
            rect, before = await tab.target_and_state(self.step_s)
            if "state" not in before:
                why = before.get("error") or "the game has no window.__crumb.state() test hook"
                for link in links:
                    results[link.index] = ProbeResult(id=link.criterion.id, ok=False, detail=f"not checkable: {why}")
                return []
        except Hang as exc:
            results[links[0].index] = self._hung(first, current, exc)
            return links[1:]
        except (Aborted, PlaywrightError) as exc:
            results[links[0].index] = self._failed(first, current, exc)
            return links[1:]
        for n, link in enumerate(links):
            result, ok = await self.probe(ctx, tab, link, rect, before["state"])
            results[link.index] = result
            if not ok:
                return links[n + 1:]
        return []

    async def probe(self, ctx: GameContext, tab: GameTab, link: Link, rect: dict[str, Any] | None,
                    before: dict[str, Any]) -> tuple[ProbeResult, bool]:
        """One probe's remaining steps on the page, judged against the page's settled state; False when
        the page is not fit to go on with (a step failed), whatever the expectations said."""
        criterion = link.criterion
        current = "its first step"
        limit = self.settings.probe_timeout_s

        async def steps() -> None:
            nonlocal current
            for n, step in enumerate(link.steps, 1):
                current = f"step {n} ({_describe(step)})"
                await self.step(ctx, tab, step, rect, limit)

        try:
            # the probe's limit holds for all its steps together, as guarded judges a step's, counted
            # from the last time the game's clock moved on (a long wait is many chunks of game time)
            await guarded(steps(), lambda: current, limit, self.ev, progress=lambda: ctx.game_ms)
            after = await tab.state(self.step_s)
            if "state" not in after:
                return ProbeResult(id=criterion.id, ok=False,
                                   detail=f"state() failed after the steps: {after.get('error')}"), False
            trace(f'probe {criterion.id} done')
            ok, detail, observed = judge_all(criterion.probe.expect, before, after["state"])
            return ProbeResult(id=criterion.id, ok=ok, detail=detail, observed=observed), True
        except Hang as exc:
            return self._hung(criterion, current, exc), False
        except (Aborted, PlaywrightError) as exc:
            return self._failed(criterion, current, exc), False

    def _hung(self, criterion: Criterion, current: str, exc: Hang) -> ProbeResult:
        self.ev.find("hang", f"the game stopped responding during probe {criterion.id!r}, {exc}", "Critical",
                     raw=f"hang: probe {criterion.id} {exc}")
        self.ev.stop("hang")
        return ProbeResult(id=criterion.id, ok=False, detail=f"the game stopped responding during {current}")

    def _failed(self, criterion: Criterion, current: str, exc: Aborted | PlaywrightError) -> ProbeResult:
        if isinstance(exc, Aborted):
            return ProbeResult(id=criterion.id, ok=False, detail=f"not finished: QA stopped the game ({exc})")
        if navigation_error(exc):
            self.ev.navigated_away(None, "during a probe")
        return ProbeResult(id=criterion.id, ok=False, detail=f"{current} failed: {_first_line(exc)}")

    async def step(self, ctx: GameContext, tab: GameTab, step: ProbeStep, rect: dict[str, Any] | None,
                   timeout: float) -> None:
        old, self.step_s = self.step_s, timeout
        try:
            if step.do == "start":
                reading = await tab.state(timeout)
                await self.start(ctx, [tab], rect, "state" in reading)
            elif step.do == "key":
                await self.perform(ctx, [tab], Input("key", step.key or "Enter"), FRAME_MS * 2, rect)
            elif step.do in ("click", "tap"):
                await self.perform(ctx, [tab], Input(step.do, x=_frac(step.x), y=_frac(step.y)), FRAME_MS, rect)
            elif step.do == "wait":
                await ctx.run_for(step.ms, timeout)
            elif step.do == "play":
                await self.play(ctx, tab, step.ms, rect)
            elif step.do == "reload":
                await tab.reload(self.load_s)
                await ctx.run_for(SETTLE_MS, timeout)
        finally:
            self.step_s = old

    async def play(self, ctx: GameContext, tab: GameTab, ms: int, rect: dict[str, Any] | None) -> None:
        """Follow state().hint for `ms` of game time, one decision every `chunk` ms (at most 100 decisions):
        in the page when it can drive its own clock (alone in its context), else one call at a time."""
        chunk = max(100, -(-ms // 100))  # a decision a tick: a snake steps every 130 ms, two steps on one decision hit walls
        if len(ctx.tabs) == 1 and await tab.autoplay(ms, chunk, rect, self.step_s):
            return
        left = ms
        while left > 0:
            now = min(chunk, left)
            hints = hint_inputs((await tab.state(self.step_s)).get("state"))[:3]
            if not hints:
                await ctx.run_for(now, self.step_s)
            for inp in hints:
                await self.perform(ctx, [tab], inp, max(1, now // len(hints)), rect)
            left -= now


def _frac(v: float | None) -> float:
    return 0.5 if v is None else v


def _describe(step: ProbeStep) -> str:
    if step.do == "key":
        return f"key {step.key!r}"
    if step.do in ("click", "tap"):
        return f"{step.do} at ({_frac(step.x):.2f}, {_frac(step.y):.2f})"
    if step.do in ("wait", "play"):
        return f"{step.do} {step.ms} ms"
    return step.do


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


async def play(browser: Browser, base: str, url: str, *, criteria: Sequence[Criterion],
               controls: Sequence[str], settings: QASettings, ev: Evidence,
               pool: ContextPool | None = None, film_frames: int = 0, paint: Painting = FIRST_RUN) -> PlayReport:
    """Run every browser check; a broken game is evidence, not an exception (only QA's own failure raises).
    `film_frames` > 0: record the main play-through's filmstrip (that many evenly spread frames, and the
    first after each input) into the report. By default probe pages do not paint, and the twin stops
    painting where state() tells the runs apart (unless QUIET_TWIN is off); `paint` names those that paint
    throughout instead (the runner's second run of what the first could not tell)."""
    stage = _Stage(browser, base, url, settings, ev, pool, quiet=not paint.probes)
    report = PlayReport(ev=ev)

    async def main_part(ctx: GameContext, main: GameTab, twin: GameTab) -> None:
        try:
            await stage.main(ctx, main, twin, controls, report, film_frames, not paint.twin and QUIET_TWIN)
        except Hang as exc:
            try:  # a runaway allocation looks like a hang until the renderer dies: give it a moment
                await asyncio.wait_for(ev.abort.wait(), CRASH_GRACE_S)
            except TimeoutError:
                pass
            if any(f.code == "crash" for f in ev.findings):
                return
            what = str(exc)
            if what == "loading the page":
                msg = f"the page never finished loading within {settings.load_timeout_s:g} s: an endless loop at load?"
            else:
                msg = f"the game stopped responding while QA was {what}: an endless loop?"
            ev.find("hang", msg, "Critical", raw=f"hang: {what}")
            ev.stop("hang")
        except Aborted:
            pass
        except PlaywrightError as exc:
            if not navigation_error(exc):
                raise
            ev.navigated_away(None, "while QA was playing it")
            ev.stop("navigated away")
        finally:
            stage.main_loaded.set()  # also when main failed: the probes still run (or see the abort)

    async def probe_part() -> None:
        report.probes = await stage.probes(criteria)
        if stage.pixels_read:
            report.probes_unsure = (f"the game read its canvas's pixels{UNKEPT} on a probe page, where nothing is "
                                    "painted, so what it computed from them there is not what it computes when it paints")

    clean = False
    if pool is not None:
        pool.tune(settings)
        pool.checks += 1
    try:
        trace("check begins")
        ctx = await stage.new_context(MAIN)
        main = await ctx.new_tab(url, settings.load_timeout_s)
        twin = await ctx.new_tab(url, settings.load_timeout_s)
        parts = [asyncio.ensure_future(main_part(ctx, main, twin))]
        if criteria:
            parts.append(asyncio.ensure_future(probe_part()))
        try:
            await asyncio.gather(*parts)
            clean = not ev.abort.is_set() and not ev.restart_browser
        finally:  # QA's own failure in one part (it raises): stop the other before the contexts close
            for part in parts:
                part.cancel()
            await asyncio.gather(*parts, return_exceptions=True)
    finally:
        if pool is not None:
            pool.checks -= 1
        await stage.close_all(reuse=clean)
        trace('contexts closed')
    return report
