"""One guarded game page: its own browser context, network fence, fake clock and evidence taps.

Every Playwright call goes through `guarded`, which races it against a deadline and the check's
abort signal: a game stuck in `while(true){}` never answers, so our own timeout is the only way out.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from crumb.protocol.game import Finding

T = TypeVar("T")

OPEN_TIMEOUT_S = 30.0  # opening a context or tab runs no game code: only a sick browser is this slow
CLOCK_START_MS = 1_700_000_000_000  # a fixed wall-clock start: every run sees the same Date.now()
FRAME_MS = 17
DIALOG_LIMIT = 20

# Deterministic Math.random for every QA page, so a run with input and one without differ only by input.
SEED_JS = """(() => { let a = 0x2545F491;
  Math.random = function () { a |= 0; a = (a + 0x6D2B79F5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; })();"""

STATE_JS = """() => { const h = window.__crumb;
  if (!h || typeof h.state !== 'function') return {hook: false};
  try { return {hook: true, state: JSON.parse(JSON.stringify(h.state()))}; }
  catch (e) { return {hook: true, error: String((e && e.message) || e)}; } }"""

# The element QA looks at: canvas#game, else the largest canvas, else the body.
TARGET_JS = """() => { let el = document.querySelector('canvas#game');
  if (!el) { const cs = [...document.querySelectorAll('canvas')];
    cs.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight); el = cs[0]; }
  const canvas = !!el; if (!el) el = document.body; if (!el) return null;
  const r = el.getBoundingClientRect();
  return {canvas, id: el.id || '', x: r.left, y: r.top, width: r.width, height: r.height}; }"""

class Hang(Exception):
    """The page did not answer in time: the game is stuck (an endless loop, a blocked main thread)."""


class Aborted(Exception):
    """The check was stopped (crash, navigation away, dialog loop, browser died); the reason is recorded."""


@dataclass(eq=False)
class Evidence:
    """What all pages of one check observed; shared so one crash stops every page of the check."""

    errors: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    abort: asyncio.Event = field(default_factory=asyncio.Event)
    abort_reason: str | None = None
    browser_died: bool = False
    restart_browser: bool = False

    def find(self, code: str, message: str, severity: str = "Important", raw: str | None = None) -> None:
        if any(f.code == code and f.message == message for f in self.findings):
            return
        self.findings.append(Finding(code=code, severity=severity, message=message))  # type: ignore[arg-type]
        if raw is not None and raw not in self.errors:
            self.errors.append(raw)

    def stop(self, reason: str) -> None:
        if not self.abort.is_set():
            self.abort_reason = reason
            self.abort.set()

    def page_error(self, raw: str) -> None:
        code = "syntax_error" if raw.startswith("SyntaxError") else "page_error"
        what = "a syntax error" if code == "syntax_error" else "an uncaught error"
        self.find(code, f"the game threw {what}: {raw[:300]}", "Critical" if code == "syntax_error" else "Important", raw=raw)

    def block(self, url: str) -> None:
        if url not in self.blocked:
            self.blocked.append(url)
            self.find("network_blocked", f"the game tried to reach {url[:200]} (blocked: games must not use the network)")


async def guarded(step: Awaitable[T], what: str, timeout: float, ev: Evidence) -> T:
    """Await `step` for at most `timeout` s; Hang on timeout, Aborted when the check is stopped."""
    task = asyncio.ensure_future(step)
    stop = asyncio.ensure_future(ev.abort.wait())
    try:
        done, _ = await asyncio.wait({task, stop}, timeout=max(timeout, 0.001), return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # we were cancelled: do not leave the step behind unobserved
        task.cancel()
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        raise
    finally:
        stop.cancel()
    if task in done:
        try:
            return task.result()
        except PlaywrightError as exc:
            if ev.abort.is_set():
                raise Aborted(ev.abort_reason or "stopped") from exc
            raise
    task.cancel()
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # never "exception never retrieved"
    if stop in done:
        raise Aborted(ev.abort_reason or "stopped")
    raise Hang(what)


_CLOSED = ("Target page, context or browser has been closed", "Target closed", "has been closed", "crashed",
           "Execution context was destroyed", "frame was detached", "Browser closed")


def game_error(exc: BaseException) -> str | None:
    """The game's own exception inside a fake-clock call ("Clock.run_for: TypeError: ..."), else None."""
    text = str(exc).strip()
    if not text.startswith("Clock.") or any(c in text for c in _CLOSED):
        return None
    first = text.split(": ", 1)[1] if ": " in text else text
    return first.splitlines()[0].strip()


def navigation_error(exc: BaseException) -> bool:
    text = str(exc)
    return "Execution context was destroyed" in text or "because of a navigation" in text


def _same_document(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme, pa.netloc, pa.path) == (pb.scheme, pb.netloc, pb.path)


class GameContext:
    """A fresh browser context for one run: the network fence, and (with `fake_clock`) a paused clock that
    only QA advances. All tabs of one context share that clock, so they step in lockstep."""

    def __init__(self, browser: Browser, ev: Evidence, base: str, *, fake_clock: bool,
                 viewport: tuple[int, int]) -> None:
        self.browser, self.ev, self.base = browser, ev, base
        self.fake_clock, self.viewport = fake_clock, viewport
        self.context: BrowserContext | None = None
        self.tabs: list[GameTab] = []
        self.spare: list[Page] = []

    async def open(self, timeout: float, *, spare: int = 0, park_url: str | None = None) -> None:
        """Create the context; `spare` tabs are opened now (and parked on `park_url`) for new_tab to use."""
        self.context = await guarded(self.browser.new_context(
            viewport={"width": self.viewport[0], "height": self.viewport[1]}, has_touch=True,
            service_workers="block", accept_downloads=False, timezone_id="UTC", locale="en-US",
        ), "opening a browser context", OPEN_TIMEOUT_S, self.ev)
        ctx = self.context
        await guarded(ctx.route("**/*", self._route), "fencing the network", OPEN_TIMEOUT_S, self.ev)
        await guarded(ctx.route_web_socket(re.compile(r".*"), self._websocket), "fencing WebSockets", OPEN_TIMEOUT_S, self.ev)
        if self.fake_clock:
            await guarded(ctx.add_init_script(SEED_JS), "seeding Math.random", OPEN_TIMEOUT_S, self.ev)
            await guarded(ctx.clock.install(time=CLOCK_START_MS), "installing the fake clock", OPEN_TIMEOUT_S, self.ev)
            await guarded(ctx.clock.pause_at(CLOCK_START_MS + 1000), "pausing the fake clock", OPEN_TIMEOUT_S, self.ev)
        ctx.on("page", self._popup)
        for _ in range(spare):
            page = await guarded(ctx.new_page(), "opening a page", OPEN_TIMEOUT_S, self.ev)
            if park_url:
                await guarded(page.goto(park_url), "parking a page", OPEN_TIMEOUT_S, self.ev)
            self.spare.append(page)

    def adopt(self, ev: Evidence, base: str) -> None:
        """Hand a context opened ahead of time (see the runner's pool) to a check."""
        self.ev, self.base = ev, base

    async def new_tab(self, url: str, timeout: float) -> "GameTab":
        assert self.context is not None
        if self.spare:
            page = self.spare.pop(0)
        else:
            page = await guarded(self.context.new_page(), "opening a page", OPEN_TIMEOUT_S, self.ev)
        tab = GameTab(self, page, url)
        self.tabs.append(tab)
        return tab

    async def run_for(self, ms: int, timeout: float) -> None:
        """Advance game time in every tab of this context (chunks, so an abort is noticed in between).

        The fake clock runs the game's timers and frames inside this call, so an exception the game
        throws there comes back here (the clock still advances): it is recorded as the game's error."""
        assert self.context is not None
        remaining = ms
        while remaining > 0:
            chunk = min(remaining, 10_000)
            try:
                await guarded(self.context.clock.run_for(chunk), f"running {chunk} ms of game time", timeout, self.ev)
            except PlaywrightError as exc:
                raw = game_error(exc)
                if raw is None:
                    raise
                self.ev.page_error(raw)
            remaining -= chunk

    async def close(self, timeout: float = 3.0) -> bool:
        """Close the context; False when even that hung (the caller should restart the browser)."""
        if self.context is None:
            return True
        ctx, self.context = self.context, None
        try:
            await asyncio.wait_for(ctx.close(), timeout)
            return True
        except asyncio.TimeoutError:
            return False
        except PlaywrightError:
            return True

    async def _route(self, route: Any) -> None:
        url = route.request.url
        try:
            if url.startswith(self.base):
                await route.continue_()
            else:
                self.ev.block(url)
                await route.abort("blockedbyclient")
        except PlaywrightError:
            pass  # the page went away meanwhile

    async def _websocket(self, ws: Any) -> None:
        self.ev.block(ws.url)
        try:
            await ws.close(code=1008, reason="blocked by CRUMB QA")
        except PlaywrightError:
            pass

    async def _popup(self, page: Page) -> None:
        try:
            opener = await page.opener()
        except PlaywrightError:
            return
        if opener is None or any(page is t.page for t in self.tabs):
            return  # one of QA's own tabs (they have no opener)
        self.ev.find("popup", "the game opened a new window; QA closed it", "Minor")
        try:
            await page.close()
        except PlaywrightError:
            pass


class GameTab:
    """One page of the game with its evidence taps; every action is guarded."""

    def __init__(self, owner: GameContext, page: Page, url: str) -> None:
        self.owner, self.page, self.url, self.ev = owner, page, url, owner.ev
        self.viewport = owner.viewport
        self.loaded = False
        self.dialogs = 0
        self._expected = url
        page.on("pageerror", self._page_error)
        page.on("console", self._console)
        page.on("dialog", self._dialog)
        page.on("crash", self._crash)
        page.on("framenavigated", self._navigated)
        page.on("response", self._response)

    async def load(self, timeout: float) -> None:
        self._expected = self.url
        self.loaded = False
        await guarded(self.page.goto(self.url, wait_until="load", timeout=(timeout + 5) * 1000),
                      "loading the page", timeout, self.ev)
        self.loaded = True

    async def reload(self, timeout: float) -> None:
        """A fresh game: storage cleared, page loaded again."""
        await guarded(self.page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"),
                      "clearing storage", timeout, self.ev)
        await self.load(timeout)

    async def key(self, key: str, down: bool, timeout: float) -> None:
        kb = self.page.keyboard
        await guarded(kb.down(key) if down else kb.up(key), f"{'pressing' if down else 'releasing'} {key!r}", timeout, self.ev)

    async def press(self, key: str, timeout: float) -> None:
        await guarded(self.page.keyboard.press(key), f"pressing {key!r}", timeout, self.ev)

    async def point(self, kind: str, x: float, y: float, rect: dict[str, Any] | None, timeout: float) -> None:
        """click or tap at (x, y), fractions of the target element."""
        r = rect or {"x": 0, "y": 0, "width": self.viewport[0], "height": self.viewport[1]}
        px = r["x"] + max(0.0, min(1.0, x)) * max(r["width"] - 1, 0)
        py = r["y"] + max(0.0, min(1.0, y)) * max(r["height"] - 1, 0)
        action = self.page.touchscreen.tap(px, py) if kind == "tap" else self.page.mouse.click(px, py)
        await guarded(action, f"{kind} at ({x:.2f}, {y:.2f})", timeout, self.ev)

    async def state(self, timeout: float) -> dict[str, Any]:
        """{"hook": bool, "state": {...}} or {"hook": true, "error": "..."}."""
        return await guarded(self.page.evaluate(STATE_JS), "reading window.__crumb.state()", timeout, self.ev)

    async def target(self, timeout: float) -> dict[str, Any] | None:
        return await guarded(self.page.evaluate(TARGET_JS), "finding the canvas", timeout, self.ev)

    async def screenshot(self, rect: dict[str, Any] | None, timeout: float) -> bytes:
        clip = None
        if rect and rect["width"] >= 1 and rect["height"] >= 1:
            x0, y0 = max(0.0, rect["x"]), max(0.0, rect["y"])
            x1 = min(float(self.viewport[0]), rect["x"] + rect["width"])
            y1 = min(float(self.viewport[1]), rect["y"] + rect["height"])
            if x1 - x0 >= 1 and y1 - y0 >= 1:
                clip = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
        return await guarded(self.page.screenshot(clip=clip, caret="hide", timeout=timeout * 1000),
                             "taking a screenshot", timeout, self.ev)

    async def main_thread_s(self, timeout: float) -> float:
        """Seconds the page's main thread has been busy (Chromium's TaskDuration), for frames per second."""
        if not hasattr(self, "_cdp"):
            assert self.owner.context is not None
            self._cdp = await guarded(self.owner.context.new_cdp_session(self.page), "opening CDP", timeout, self.ev)
            await guarded(self._cdp.send("Performance.enable"), "enabling metrics", timeout, self.ev)
        got = await guarded(self._cdp.send("Performance.getMetrics"), "reading metrics", timeout, self.ev)
        return next((m["value"] for m in got["metrics"] if m["name"] == "TaskDuration"), 0.0)

    # ------------------------------------------------------------ evidence taps

    def _page_error(self, exc: Any) -> None:
        name = getattr(exc, "name", "") or ""
        message = getattr(exc, "message", "") or str(exc)
        raw = f"{name}: {message}" if name and not message.startswith(name) else message
        self.ev.page_error(raw.splitlines()[0] if raw else "unknown error")

    def _console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        text = msg.text
        if text.startswith("Failed to load resource"):
            return  # reported as missing_asset / network_blocked with the URL
        self.ev.find("console_error", f"the game logged an error: {text[:300]}", raw=text)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs += 1
        if self.dialogs == 1:
            self.ev.find("dialog", f"the game opened a {dialog.type} dialog ({dialog.message[:100]!r}); QA dismissed it", "Minor")
        if self.dialogs == DIALOG_LIMIT:
            self.ev.find("dialog_loop", f"the game opened {DIALOG_LIMIT} {dialog.type} dialogs in a row: an endless dialog loop", "Critical")
            self.ev.stop("endless dialogs")
        asyncio.ensure_future(self._dismiss(dialog))

    @staticmethod
    async def _dismiss(dialog: Any) -> None:
        try:
            await dialog.dismiss()
        except PlaywrightError:
            pass

    def _crash(self, _page: Any) -> None:
        self.ev.find("crash", "the game's page crashed (the renderer died: out of memory or a browser bug)", "Critical",
                     raw="page crashed")
        self.ev.stop("page crashed")

    def _navigated(self, frame: Any) -> None:
        if frame != self.page.main_frame or not self.loaded:
            return
        if not _same_document(frame.url, self._expected):
            self.ev.find("navigated_away", f"the game navigated away to {frame.url[:200]}", "Critical")
            self.ev.stop("navigated away")

    def _response(self, response: Any) -> None:
        if response.status >= 400 and response.url.startswith(self.owner.base):
            path = response.url[len(self.owner.base) - 1:]
            self.ev.find("missing_asset", f"the game requested {path}, which is not in the game folder ({response.status})",
                         raw=f"{response.status} {response.url}")
