"""One guarded game page: its own browser context, network fence, fake clock and evidence taps.

Every Playwright call goes through `guarded`, which races it against a deadline and the check's
abort signal: a game stuck in `while(true){}` never answers, so our own timeout is the only way out.
"""

from __future__ import annotations

import asyncio
import base64
import math
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession, ConsoleMessage, Dialog, Frame, Page, Response
from playwright.async_api import Error as PlaywrightError

from crumb.protocol.game import Finding, Severity
from crumb.qa.audio_clock import AUDIO_CLOCK_JS
from crumb.qa.clock_tasks import CLOCK_TASKS_JS
from crumb.qa.css_clock import CSS_CLOCK_JS
from crumb.qa.media_clock import MEDIA_CLOCK_JS
from crumb.qa.sched import Sampler, judge_late

T = TypeVar("T")

OPEN_TIMEOUT_S = 30.0  # opening a context or tab runs no game code: only a sick browser is this slow
CLOCK_START_S = 1_700_000_000  # a fixed wall-clock start (Playwright takes seconds): every run sees the same Date.now()
FRAME_MS = 17
DIALOG_LIMIT = 20
WORKER_POLL_S = 0.02  # how often a wipe looks whether the game's workers have ended
FIRST_LOOK_S = 1.0  # a step this much slower reads QA's scheduler counts, to tell a hang from a starved machine
STARVED_STEP_S = 0.5  # how much longer a step past its limit is given at a time while QA is starved

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

# The play step's autopilot, in the page: follow state().hint for `ms` of game time, one decision every
# `chunk` ms, advancing the fake clock from inside (one call instead of four per decision). Its input is
# DOM events (isTrusted false); every other QA input is the browser's own. {fallback: true} when the
# clock cannot be driven from the page.
PLAY_JS = """async ({ms, chunk, rect, frame}) => {
  const clock = globalThis.__pwClock && globalThis.__pwClock.controller;
  if (!clock || typeof clock.runFor !== 'function') return {fallback: true};
  const errors = [];
  const run = async (t) => { try { await clock.runFor(t); } catch (e) {
    const m = String(e).split('\\n')[0]; if (!errors.includes(m)) errors.push(m); } };
  const hints = () => { let s; try { s = window.__crumb.state(); } catch (e) { return []; }
    if (s && (s.phase === 'won' || s.phase === 'over')) return [];  // the round is played: no restart
    const h = s && Array.isArray(s.hint) ? s.hint : [];
    return h.filter(x => x && ((x.type === 'key' && typeof x.key === 'string') || x.type === 'click' || x.type === 'tap')).slice(0, 3); };
  const NAMED = {' ': ['Space', 32], Enter: ['Enter', 13], Escape: ['Escape', 27], Shift: ['ShiftLeft', 16],
    ArrowLeft: ['ArrowLeft', 37], ArrowUp: ['ArrowUp', 38], ArrowRight: ['ArrowRight', 39], ArrowDown: ['ArrowDown', 40]};
  const codes = (k) => NAMED[k] || (/^[a-z]$/i.test(k) ? ['Key' + k.toUpperCase(), k.toUpperCase().charCodeAt(0)]
    : /^[0-9]$/.test(k) ? ['Digit' + k, k.charCodeAt(0)] : [k, 0]);
  const key = (type, k) => { const [code, kc] = codes(k);
    const e = new KeyboardEvent(type, {key: k, code, bubbles: true, cancelable: true, composed: true});
    Object.defineProperty(e, 'keyCode', {get: () => kc}); Object.defineProperty(e, 'which', {get: () => kc});
    (document.activeElement || document.body || document).dispatchEvent(e); };
  const frac = (v) => (typeof v === 'number' && isFinite(v) ? Math.max(0, Math.min(1, v)) : 0.5);
  const point = (type, fx, fy) => {
    const r = rect || {x: 0, y: 0, width: innerWidth, height: innerHeight};
    const x = r.x + frac(fx) * Math.max(r.width - 1, 0), y = r.y + frac(fy) * Math.max(r.height - 1, 0);
    const el = document.elementFromPoint(x, y) || document.body; if (!el) return;
    const touch = type === 'tap', at = {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y,
      button: 0, isPrimary: true, pointerId: touch ? 2 : 1, pointerType: touch ? 'touch' : 'mouse'};
    el.dispatchEvent(new PointerEvent('pointerdown', {...at, buttons: 1}));
    if (touch) { try { const t = new Touch({identifier: 2, target: el, clientX: x, clientY: y});
      el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, cancelable: true, touches: [t], targetTouches: [t], changedTouches: [t]}));
      el.dispatchEvent(new TouchEvent('touchend', {bubbles: true, cancelable: true, touches: [], targetTouches: [], changedTouches: [t]}));
    } catch (e) {} }
    else el.dispatchEvent(new MouseEvent('mousedown', {...at, buttons: 1}));
    el.dispatchEvent(new PointerEvent('pointerup', at));
    if (!touch) el.dispatchEvent(new MouseEvent('mouseup', at));
    el.dispatchEvent(new MouseEvent('click', at)); };
  // A key held by a decision is held a frame at a time: a game whose keys hint changes meanwhile (a snake
  // that steps faster than one decision, 32 ms a cell at 4x) gets its next decision then, not a chunk later.
  for (let left = ms; left > 0;) {
    const now = Math.min(chunk, left), hs = hints();
    if (!hs.length) await run(now);
    const watch = hs.every(h => h.type === 'key'), seen = JSON.stringify(hs);
    let spent = 0, changed = false;
    for (const h of hs) {
      const per = Math.max(1, Math.floor(now / hs.length));
      if (h.type !== 'key') { point(h.type, h.x, h.y); await run(per); spent += per; continue; }
      key('keydown', h.key);
      for (let held = 0; held < per && !changed;) {
        const t = watch ? Math.min(frame, per - held) : per - held;
        await run(t); held += t; spent += t;
        changed = watch && left - spent > 0 && JSON.stringify(hints()) !== seen;
      }
      key('keyup', h.key);
      if (changed) break;
    }
    left -= hs.length ? spent : now;
  }
  return {errors};
}"""


# 2D painting that QA can switch, with a note of any read made while it is off that a page not painting cannot
# answer as a painting one would: such a read saw a canvas that does not show what the game drew, so the game
# may go on to compute something else (the runner then checks the game again, those pages painting). Probe pages
# judge state() only, and painting is most of what a canvas game costs under a fast clock (a 960x640 software
# canvas: ~4 ms a frame, so 60 s of game time took 15 s): they start with painting off. The main check's twin
# (its run without input) starts with it on, and play.py turns it off once state() tells the two runs apart;
# painting, once off, stays off.
# Off, a 2D context draws nothing and builds no clip and, but for beginPath and roundRect, no path: only pixels
# would show them. Its styles (fill, stroke, line, shadow, alpha, compositing) are kept by this script, and so
# are save and restore, the costliest calls a game makes there (about half of a probe page's main thread with
# them, in the hungry-hole game). The transform and the text settings stay the context's own (getTransform and
# measureText read them), and a level that changes them is saved and restored by the context too. A style read
# back is answered as the context would answer it (its own rules, on a context of the script's); the few reads
# that cannot be (a point in the path being built or in a stroke, the dash, a filter, a colour that is not one)
# count as a read of pixels. A call that would throw, or convert an argument (an object, a missing argument), is
# the context's own, so the game sees the same errors.
# `__crumbQaPaint(on)` switches; `__crumbQaPaint()` answers whether such a read was made.
_PAINT_SWITCH_JS = """(() => { let paint = PAINT, read = false;
  const wrap = (C, names, off) => { if (!C) return; for (const m of names) { const f = C.prototype[m];
    if (typeof f === 'function') C.prototype[m] = off
      ? function () { if (paint) return f.apply(this, arguments); }
      : function () { if (!paint) read = true; return f.apply(this, arguments); }; } };
  const canvas = (a) => (self.HTMLCanvasElement && a instanceof HTMLCanvasElement)
    || (self.OffscreenCanvas && a instanceof OffscreenCanvas);
  const Q = Symbol(), D = Symbol(), Gr = self.CanvasGradient, Pt = self.CanvasPattern;
  const make = self.Document && Document.prototype.createElement;
  const kept = (g) => { let s = g[Q];  // per context: the styles set while off, and the levels saved while off
    if (!s) { s = g[Q] = {style: {}, shared: false, levels: []}; if (g.canvas) g.canvas[Q] = g; } return s; };
  const own_style = (s) => { if (s.shared) { s.style = Object.assign({}, s.style); s.shared = false; } return s.style; };
  const plain = (a, n) => { if (a.length < n) return false;
    for (let i = 0; i < a.length; i++) { const t = typeof a[i]; if (t !== 'number' && t !== 'boolean') return false; }
    return true; };
  const own = (v) => { const t = typeof v;
    return t === 'string' || t === 'number' || t === 'boolean' || (t === 'object' && v !== null
      && ((Gr && v instanceof Gr) || (Pt && v instanceof Pt))); };
  // two values each style takes as they are: a value read back after either is the value the game set
  const PAIRS = {globalAlpha: [0.25, 0.75], lineWidth: [2, 3], miterLimit: [2, 3], lineDashOffset: [1, 2],
    shadowBlur: [1, 2], shadowOffsetX: [1, 2], shadowOffsetY: [1, 2], shadowColor: ['#010203', '#040506'],
    lineCap: ['butt', 'round'], lineJoin: ['miter', 'round'], globalCompositeOperation: ['source-over', 'copy'],
    imageSmoothingEnabled: [true, false], imageSmoothingQuality: ['low', 'high']};
  const quiet = (C, scratchOf) => { if (!C) return; const P = C.prototype, d = (k) => Object.getOwnPropertyDescriptor(P, k);
    let scratch = null;
    const stub = (m, n, ok) => { const f = P[m]; if (typeof f !== 'function') return;
      P[m] = function () { if (paint || !plain(arguments, n) || (ok && !ok(arguments))) return f.apply(this, arguments); }; };
    // beginPath stays the context's: a path the context does build (roundRect, a call with an argument of its
    // own) is emptied as the game empties it, else every later transform change costs more (Chromium moves
    // the path along: 60 s of match-3 took 3 s)
    for (const [m, n] of [['closePath', 0], ['moveTo', 2], ['lineTo', 2], ['bezierCurveTo', 6], ['quadraticCurveTo', 4],
        ['rect', 4]]) stub(m, n);
    stub('clip', 0, (a) => a.length === 0);
    stub('arc', 5, (a) => a[2] >= 0);
    stub('arcTo', 5, (a) => a[4] >= 0);
    stub('ellipse', 7, (a) => a[2] >= 0 && a[3] >= 0);
    const dash = P.setLineDash;
    if (dash) P.setLineDash = function (seg) {
      if (paint || !Array.isArray(seg) || !plain(seg, 0)) return dash.apply(this, arguments); };
    // A level that changes what the context keeps itself (the transform, text settings, a style the script
    // does not keep) is saved by the context too, from that first change on, and restored by it: until then
    // the context holds what it held when the level began. (Setting a font or a transform back by hand cost
    // more than the context's own save and restore.)
    const save = P.save, restore = P.restore, reset = P.reset;
    const real = (g) => { const s = paint ? null : g[Q], top = s && s.levels[s.levels.length - 1];
      if (top && !top.real) { save.call(g); g[D] = (g[D] | 0) + 1; top.real = true; } };
    for (const m of ['translate', 'rotate', 'scale', 'transform', 'setTransform', 'resetTransform']) { const f = P[m];
      if (typeof f === 'function') P[m] = function () { real(this); return f.apply(this, arguments); }; }
    for (const k of ['font', 'textAlign', 'textBaseline', 'direction', 'letterSpacing', 'wordSpacing', 'fontKerning',
        'fontStretch', 'fontVariantCaps', 'textRendering', 'lang']) { const p = d(k); if (!p || !p.set) continue;
      Object.defineProperty(P, k, {configurable: true, enumerable: p.enumerable,  // read: after a save of the
        get() { real(this); return p.get.call(this); },  // context's (its letterSpacing reads '' then)
        set(v) { real(this); p.set.call(this, v); }}); }
    for (const k of ['fillStyle', 'strokeStyle', 'shadowColor', 'filter', ...Object.keys(PAIRS)]) {
      const p = d(k); if (!p || !p.set || !p.get) continue;
      const as = (v) => {  // v read back as the context reads it back; undefined where that cannot be known
        if (typeof v === 'object') return v;  // a gradient or a pattern
        if (k === 'filter' || (typeof v === 'string' && /currentcolor/i.test(v))) return undefined;
        const g = scratch || (scratch = scratchOf()), pair = PAIRS[k] || [g.createLinearGradient(0, 0, 1, 1), g.createLinearGradient(0, 0, 2, 2)];
        p.set.call(g, pair[0]); p.set.call(g, v); const one = p.get.call(g);
        p.set.call(g, pair[1]); p.set.call(g, v); return one === p.get.call(g) ? one : undefined; };
      Object.defineProperty(P, k, {configurable: true, enumerable: p.enumerable,
        get() { const s = paint ? null : this[Q]; if (!s || !(k in s.style)) return p.get.call(this);
          const v = as(s.style[k]); if (v === undefined) { read = true; return p.get.call(this); } return v; },
        set(v) { if (paint) return p.set.call(this, v);
          const s = kept(this); if (own(v)) { own_style(s)[k] = v; return; }
          if (k in s.style) delete own_style(s)[k]; real(this); p.set.call(this, v); }}); }
    P.save = function () {
      if (paint) { this[D] = (this[D] | 0) + 1; const c = this.canvas; if (c && c[Q] !== this) c[Q] = this;
                   return save.apply(this, arguments); }
      const s = kept(this); s.levels.push({style: s.style, real: false}); s.shared = true; };  // copied on a change
    P.restore = function () { if (paint) { if (this[D] > 0) this[D]--; return restore.apply(this, arguments); }
      const s = kept(this), top = s.levels.pop();
      if (top) { s.style = top.style; const under = s.levels[s.levels.length - 1]; s.shared = !!under && under.style === s.style;
        if (top.real) { this[D]--; restore.call(this); } }
      else if (this[D] > 0) { this[D]--; s.style = {}; s.shared = false; restore.apply(this, arguments); } };  // saved while painting
    if (reset) P.reset = function () { this[Q] = undefined; this[D] = 0; return reset.apply(this, arguments); };
    wrap(C, ['isPointInStroke', 'getLineDash'], false);
    const inPath = P.isPointInPath;  // a Path2D of the game's is real, and so is the transform
    if (inPath) P.isPointInPath = function (a) { if (!paint && !(self.Path2D && a instanceof Path2D)) read = true;
      return inPath.apply(this, arguments); }; };
  for (const E of [self.HTMLCanvasElement, self.OffscreenCanvas]) {  // a new width or height resets the context
    if (!E) continue; for (const k of ['width', 'height']) { const p = Object.getOwnPropertyDescriptor(E.prototype, k);
      if (p && p.set) Object.defineProperty(E.prototype, k, {configurable: true, enumerable: p.enumerable, get: p.get,
        set(v) { const g = this[Q]; if (g) { g[Q] = undefined; g[D] = 0; } p.set.call(this, v); }}); } }
  for (const C of [self.CanvasRenderingContext2D, self.OffscreenCanvasRenderingContext2D]) {
    wrap(C, ['fillRect', 'strokeRect', 'clearRect', 'fill', 'stroke', 'fillText', 'strokeText', 'drawImage',
             'putImageData'], true);
    wrap(C, ['getImageData'], false); }
  quiet(self.CanvasRenderingContext2D, () => make.call(document, 'canvas').getContext('2d'));
  quiet(self.OffscreenCanvasRenderingContext2D, () => new OffscreenCanvas(1, 1).getContext('2d'));
  wrap(self.HTMLCanvasElement, ['toDataURL', 'toBlob', 'captureStream'], false);
  wrap(self.OffscreenCanvas, ['convertToBlob', 'transferToImageBitmap'], false);
  for (const W of [self.WebGLRenderingContext, self.WebGL2RenderingContext]) {  // a 2D canvas uploaded as a texture
    if (!W) continue; for (const m of ['texImage2D', 'texSubImage2D']) { const f = W.prototype[m];
      if (typeof f === 'function') W.prototype[m] = function () {
        if (!paint && [...arguments].some(canvas)) read = true; return f.apply(this, arguments); }; } }
  if (typeof self.createImageBitmap === 'function') { const f = self.createImageBitmap;
    self.createImageBitmap = function (src) { if (!paint && (canvas(src) || (self.CanvasRenderingContext2D
      && src instanceof CanvasRenderingContext2D))) read = true; return f.apply(this, arguments); }; }
  Object.defineProperty(self, '__crumbQaPaint', {value: (on) => { if (on !== undefined) paint = paint && !!on; return read; }});
})();"""
NO_PAINT_JS = _PAINT_SWITCH_JS.replace("PAINT,", "false,", 1)
TWIN_PAINT_JS = _PAINT_SWITCH_JS.replace("PAINT,", "true,", 1)
PAINT_SWITCH_JS = "(on) => self.__crumbQaPaint ? self.__crumbQaPaint(on === null ? undefined : on) : false"

# The blank page of the game's origin that recycle wipes from (served by the fence, never by the game's
# server), and what it runs there: clear this tab's window.name and sessionStorage (and localStorage once
# more), then name whatever the origin still holds. Cache Storage and IndexedDB listing need a secure context: loopback is one.
WIPE_PATH = "/__crumb_qa_wipe__.html"
WIPE_HTML = "<!doctype html><title>wiping</title>"
WIPE_JS = """async () => { const left = [];
  window.name = '';  // kept by a tab across navigations: a game could keep state there too
  try { sessionStorage.clear(); localStorage.clear(); } catch (e) { left.push('web storage: ' + e); }
  try { if (document.cookie) left.push('cookies'); if (localStorage.length) left.push('localStorage');
        if (sessionStorage.length) left.push('sessionStorage'); } catch (e) {}
  try { if (indexedDB.databases && (await indexedDB.databases()).length) left.push('IndexedDB'); } catch (e) {}
  try { if (self.caches && (await caches.keys()).length) left.push('Cache Storage'); } catch (e) {}
  return left; }"""

# Painting tabs note which kind of context each canvas got (the game cannot tell: getContext answers as
# before), so a filmstrip frame can be read from a 2D canvas itself, without asking the compositor for a
# frame: about a third of the cost. FRAME_JS answers null for anything else (WebGL, no canvas).
CANVAS_KIND_JS = """(() => { const get = HTMLCanvasElement.prototype.getContext, kinds = new WeakMap();
  Object.defineProperty(globalThis, '__crumbCanvasKind', {value: (c) => kinds.get(c) || null});
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) { const ctx = get.call(this, type, ...rest);
    if (ctx && !kinds.has(this)) kinds.set(this, String(type)); return ctx; }; })();"""
FRAME_JS = """(w) => { const kind = globalThis.__crumbCanvasKind; let c = document.querySelector('canvas#game');
  if (!c) { const cs = [...document.querySelectorAll('canvas')];
    cs.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight); c = cs[0]; }
  if (!c || !kind || kind(c) !== '2d' || !c.width || !c.height) return null;
  const s = document.createElement('canvas'); s.width = Math.min(w, c.width);
  s.height = Math.max(1, Math.round(c.height * s.width / c.width));
  const g = s.getContext('2d'); g.imageSmoothingQuality = 'medium'; g.drawImage(c, 0, 0, s.width, s.height);
  return s.toDataURL('image/png').split(',')[1]; }"""

# What page.screenshot(caret="hide") does first, carets left hidden: a blinking caret must not tell two
# pictures apart, nor a web font that arrived between them.
SHOT_READY_JS = """async () => { for (const el of document.querySelectorAll('input,textarea,[contenteditable]'))
  el.style.setProperty('caret-color', 'transparent', 'important'); await document.fonts.ready; }"""

# Both at once (one round trip): where the game draws, and what its hook says.
TARGET_STATE_JS = f"() => [({TARGET_JS})(), ({STATE_JS})()]"
HAS_HOOK_JS = "() => { try { const h = window.__crumb; return !!h && typeof h.state === 'function'; } catch (e) { return false; } }"
QUIET_IF_HOOKED_JS = f"() => {{ const hooked = ({HAS_HOOK_JS})(); if (hooked && self.__crumbQaPaint) self.__crumbQaPaint(false); return hooked; }}"


class Clip(TypedDict):
    """The part of the page a screenshot takes (Playwright's own Clip, which it does not export)."""

    x: float
    y: float
    width: float
    height: float


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
    memory_kill: bool = False  # the kernel killed a page of the browser for memory while this check ran
    shared: bool = False  # another check ran on the same browser at some time during this one
    sched: Sampler | None = None  # QA's threads' scheduler counts (sched.py); None: steps are judged by wall time

    def find(self, code: str, message: str, severity: Severity = "Important", raw: str | None = None) -> None:
        if any(f.code == code and f.message == message for f in self.findings):
            return
        self.findings.append(Finding(code=code, severity=severity, message=message))
        if raw is not None and raw not in self.errors:
            self.errors.append(raw)

    def navigated_away(self, url: str | None, during: str = "") -> None:
        """Name the game leaving its page once: the page's own event (which knows where it went) and a call in
        flight that lost its page race to tell it; the event's words replace the call's, never the reverse."""
        said = next((n for n, f in enumerate(self.findings) if f.code == "navigated_away"), None)
        message = (f"the game navigated away to {url[:200]}" if url is not None
                   else f"the game replaced its own page (navigated away) {during}")
        if said is None:
            self.findings.append(Finding(code="navigated_away", severity="Critical", message=message))
        elif url is not None and not self.findings[said].message.startswith("the game navigated away to "):
            self.findings[said] = Finding(code="navigated_away", severity="Critical", message=message)

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


async def guarded(step: Awaitable[T], what: str | Callable[[], str], timeout: float, ev: Evidence,
                  progress: Callable[[], int] | None = None) -> T:
    """Await `step` for at most `timeout` s; Hang on timeout, Aborted when the check is stopped. `what`
    names the step in the Hang, or says it when the hang is found (a probe's steps: which one was on).

    With `ev.sched`, a step past its limit while QA's threads wait for a CPU is given more time, until
    it ends or one of the browser's threads has run for most of the limit (sched.py): a loaded machine
    must not turn a good game into a hang. `progress` is a count the step raises as it gets on (the game
    time its context has run): a late step is judged from the last rise, since a long wait whose game
    time keeps advancing is a game at work, however much CPU the whole wait costs (a painting page's
    minute of game time costs seconds of it); the check's own budget bounds it."""
    task = asyncio.ensure_future(step)
    stop = asyncio.ensure_future(ev.abort.wait())
    try:
        done = await _settled(task, stop, max(timeout, 0.001), ev, progress)
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
    raise Hang(what() if callable(what) else what)


async def _settled(task: asyncio.Future[T], stop: asyncio.Future[Any], timeout: float, ev: Evidence,
                   progress: Callable[[], int] | None = None) -> set[asyncio.Future[Any]]:
    """Whichever of `task` and `stop` ended within `timeout` (empty: neither), stretched while starved
    or while `progress` rises. The counts are read only once a step is FIRST_LOOK_S late, and judged over
    the rest of the limit, counted again from each rise of `progress`."""
    look = min(FIRST_LOOK_S, timeout / 2)
    if ev.sched is None:
        done, _ = await asyncio.wait({task, stop}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        return done
    done, _ = await asyncio.wait({task, stop}, timeout=look, return_when=asyncio.FIRST_COMPLETED)
    if done:
        return done
    before, since, wait = ev.sched(), time.monotonic(), timeout - look
    mark = progress() if progress is not None else 0
    while True:
        done, _ = await asyncio.wait({task, stop}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        if done:
            return done
        if progress is not None and progress() != mark:  # it got on: judge it from here
            mark, before, since, wait = progress(), ev.sched(), time.monotonic(), timeout - look
            continue
        if judge_late(before, ev.sched(), time.monotonic() - since, timeout - look) == "hang":
            return done
        wait = STARVED_STEP_S


#: a document's fake clock run from inside it: null, or the first line of what the game threw meanwhile
RUN_JS = """async (ms) => { const clock = globalThis.__pwClock && globalThis.__pwClock.controller;
  if (!clock || typeof clock.runFor !== 'function') return null;
  try { await clock.runFor(ms); return null; } catch (e) { return String(e).split('\\n')[0]; } }"""


async def _run_frame(frame: Frame, ms: int) -> str | None:
    """RUN_JS in one frame. The game's own exceptions come back as its answer, so an error here is the frame's: it
    went away, is between documents, or its page crashed or closed. As with Playwright's context-wide call, that
    frame has no game time to run; the page's own events (crash, close, navigation) tell the check which it was."""
    try:
        out = await frame.evaluate(RUN_JS, ms)
    except PlaywrightError:
        return None
    return str(out) if out else None


def navigation_error(exc: BaseException) -> bool:
    text = str(exc)
    return "Execution context was destroyed" in text or "because of a navigation" in text


def _same_document(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme, pa.netloc, pa.path) == (pb.scheme, pb.netloc, pb.path)


@dataclass(frozen=True)
class Lane:
    """What a context is for: how many tabs it has, and whether they paint."""

    tabs: int
    paint: bool


MAIN = Lane(tabs=2, paint=True)     # main + twin: screenshots, pixels, frames per second
PROBE = Lane(tabs=1, paint=False)   # one acceptance probe at a time: state() only
PAINTED_PROBE = Lane(tabs=1, paint=True)  # the same, painting: for a game that reads its pixels (not pooled)


class GameContext:
    """A browser context for one check at a time: the network fence and a paused fake clock that only QA
    advances. All tabs of one context share that clock, so they step in lockstep."""

    def __init__(self, browser: Browser, ev: Evidence, base: str, *, lane: Lane, viewport: tuple[int, int]) -> None:
        self.browser, self.ev, self.base = browser, ev, base
        self.lane, self.viewport = lane, (int(viewport[0]), int(viewport[1]))
        self.context: BrowserContext | None = None
        self.tabs: list[GameTab] = []
        self.spare: list[Page] = []
        self._cdp: dict[Page, CDPSession] = {}  # kept for the page's life: opening one costs round trips
        self.sick = False  # one of its pages crashed or closed: never hand it to another check
        self.checks = 0  # the checks it served (the pool retires it after RETIRE_AFTER)
        self.wipe_url: str | None = None  # during recycle: the blank page of the game's origin the fence serves
        self.game_ms = 0  # game time its clock has run, in all: a long wait still advancing it is at work (guarded)

    async def open(self, timeout: float, *, spare: int = 0) -> None:
        """Create the context; `spare` tabs are opened now, on about:blank, for new_tab to use. Each has its
        renderer then, which the game's page uses too (the first navigation keeps the blank page's process);
        parking them on a page of our own as well cost a cold check ~4 % (0.956 x, 18 of 24 paired runs)."""
        self.context = await guarded(self.browser.new_context(
            viewport={"width": self.viewport[0], "height": self.viewport[1]}, has_touch=True,
            service_workers="block", accept_downloads=False, timezone_id="UTC", locale="en-US",
        ), "opening a browser context", OPEN_TIMEOUT_S, self.ev)
        ctx = self.context
        # all at once (each is a round trip to the browser, and none needs another), but before any page
        await asyncio.gather(
            guarded(ctx.route("**/*", self._route), "fencing the network", OPEN_TIMEOUT_S, self.ev),
            guarded(ctx.route_web_socket(re.compile(r".*"), self._websocket), "fencing WebSockets", OPEN_TIMEOUT_S, self.ev),
            guarded(ctx.add_init_script(SEED_JS), "seeding Math.random", OPEN_TIMEOUT_S, self.ev),
            guarded(ctx.add_init_script(CLOCK_TASKS_JS), "running the clock's timers several to a task", OPEN_TIMEOUT_S,
                    self.ev),
            guarded(ctx.add_init_script(CSS_CLOCK_JS), "putting CSS animations on the game clock", OPEN_TIMEOUT_S, self.ev),
            guarded(ctx.add_init_script(AUDIO_CLOCK_JS), "putting Web Audio on the game clock", OPEN_TIMEOUT_S, self.ev),
            guarded(ctx.add_init_script(MEDIA_CLOCK_JS), "putting <audio> and <video> on the game clock", OPEN_TIMEOUT_S,
                    self.ev),
            guarded(ctx.add_init_script(CANVAS_KIND_JS), "noting canvas kinds", OPEN_TIMEOUT_S, self.ev) if self.lane.paint
            else guarded(ctx.add_init_script(NO_PAINT_JS), "turning painting off", OPEN_TIMEOUT_S, self.ev),
            self._install_clock())
        ctx.on("page", self._popup)
        self.spare += await asyncio.gather(*(self._spare_page() for _ in range(spare)))

    async def _spare_page(self) -> Page:
        assert self.context is not None
        page = await guarded(self.context.new_page(), "opening a page", OPEN_TIMEOUT_S, self.ev)
        self._watch(page)
        return page

    def _watch(self, page: Page) -> None:
        def sick(_: Any) -> None:
            self.sick = True
        page.on("crash", sick)
        page.on("close", sick)

    def adopt(self, ev: Evidence, base: str) -> None:
        """Hand a context opened ahead of time (see the runner's pool) to a check."""
        self.ev, self.base = ev, base

    def release(self) -> None:
        """The check is over: its tabs stop reporting to it (the game stays frozen: its clock is paused)."""
        for tab in self.tabs:
            tab.detach()
        self.ev = Evidence()

    async def recycle(self, park_base: str, timeout: float) -> None:
        """Make a used context as good as new for the next check, without the cost of new renderers:
        the game's storage is wiped (see `wipe`; the tabs stay on its blank page, where nothing runs) and
        the clock starts over: each new document replays only the context's install and pause (see run_for).
        Raises (Hang, Aborted, PlaywrightError) when the context is not fit for reuse: then close it instead."""
        assert self.context is not None
        if self.sick:
            raise Aborted("a page of this context crashed or closed")
        pages = [t.page for t in self.tabs] + self.spare
        self.tabs, self.spare = [], []
        await self.wipe(pages, timeout)
        self.base = park_base  # the game's origin is closed again: the fence lets nothing of it through
        self.spare = pages

    async def wipe(self, pages: list[Page], timeout: float) -> None:
        """Leave the game and wipe everything it stored in this context, so the next game finds nothing.

        Every page first goes to a blank page of the game's own origin (the game's documents end there,
        and with them any loop still writing; its workers are waited for), then cookies go, Storage.clearDataForOrigin
        wipes what the browser keeps per origin (localStorage, IndexedDB, Cache Storage, service workers),
        and each page clears its own sessionStorage from inside: Chromium's per-origin clear skips
        sessionStorage, which lives per tab (Chromium issue 529829531). Each page then reads back what the
        origin still holds; anything left raises Aborted (the context must not be reused)."""
        assert self.context is not None
        origin = self.base.rstrip("/")
        self.wipe_url = origin + WIPE_PATH  # served by the fence itself: the game's server may be gone
        try:
            await asyncio.gather(*(guarded(page.goto(self.wipe_url), "leaving the game", timeout, self.ev)
                                   for page in pages))
            cdp = await self.cdp(pages[0], timeout)
            await self._workers_gone(cdp, timeout)
            await guarded(self.context.clear_cookies(), "clearing cookies", timeout, self.ev)
            await guarded(cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}),
                          "clearing the game's storage", timeout, self.ev)
            left = await asyncio.gather(*(guarded(page.evaluate(WIPE_JS), "clearing the tab's storage", timeout, self.ev)
                                          for page in pages))
        finally:
            self.wipe_url = None
        kept = sorted({item for items in left for item in items})
        if kept:
            raise Aborted(f"wiping the game's storage left {', '.join(kept)} behind")

    async def _workers_gone(self, cdp: CDPSession, timeout: float) -> None:
        """Wait until no worker of this context runs: a worker ends a little after its page (later still on a
        loaded machine), and one still running could write IndexedDB or Cache Storage after the wipe."""
        me = await guarded(cdp.send("Target.getTargetInfo"), "reading the context's id", timeout, self.ev)
        context_id = me["targetInfo"].get("browserContextId")
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            got = await guarded(cdp.send("Target.getTargets"), "listing the game's workers", timeout, self.ev)
            workers = [t for t in got["targetInfos"] if t.get("browserContextId") == context_id
                       and t.get("type") in ("worker", "shared_worker", "service_worker")]
            if not workers:
                return
            if asyncio.get_running_loop().time() > deadline:
                raise Aborted(f"{len(workers)} of the game's workers were still running {timeout:g} s after it ended")
            await asyncio.sleep(WORKER_POLL_S)

    async def cdp(self, page: Page, timeout: float) -> CDPSession:
        """The page's CDP session, with the Performance domain on (for frames per second).

        Durations are measured in the main thread's CPU time (`threadTicks`), not wall time: on a loaded
        machine wall time stretches while the game's own cost does not, and a verdict must not depend on
        what else the machine was doing (at load 28 one game read 41-48 fps in wall time and 205 in CPU
        time)."""
        if page not in self._cdp:
            assert self.context is not None
            session = await guarded(self.context.new_cdp_session(page), "opening CDP", timeout, self.ev)
            await guarded(session.send("Performance.enable", {"timeDomain": "threadTicks"}), "enabling metrics", timeout, self.ev)
            self._cdp[page] = session
        return self._cdp[page]

    async def _install_clock(self) -> None:
        assert self.context is not None
        await guarded(self.context.clock.install(time=CLOCK_START_S), "installing the fake clock", OPEN_TIMEOUT_S, self.ev)
        await guarded(self.context.clock.pause_at(CLOCK_START_S + 1), "pausing the fake clock", OPEN_TIMEOUT_S, self.ev)

    async def new_tab(self, url: str, timeout: float) -> GameTab:
        assert self.context is not None
        if self.spare:
            page = self.spare.pop(0)
        else:
            page = await guarded(self.context.new_page(), "opening a page", OPEN_TIMEOUT_S, self.ev)
            self._watch(page)
        tab = GameTab(self, page, url)
        self.tabs.append(tab)
        return tab

    async def run_for(self, ms: int, timeout: float) -> None:
        """Advance game time in every frame of this context's tabs (chunks, so an abort is noticed in between).

        Each document's own fake clock is run from inside it (RUN_JS), not through Playwright's context-wide
        `clock.run_for`: that one also logs the time it ran for every document opened later in the context to
        replay, so a reused context's next game loaded with `performance.now()` already at the game time of
        every check before it (a naive "60 - performance.now() / 1000" timer ran out at once, on the second
        check of a context only). The fake clock runs the game's timers and frames inside this call, so an
        exception the game throws there comes back here (the clock still advances): it is recorded as the
        game's error."""
        assert self.context is not None
        remaining = ms
        while remaining > 0:
            chunk = min(remaining, 10_000)
            frames = [frame for tab in self.tabs for frame in tab.page.frames]
            thrown = await guarded(asyncio.gather(*(_run_frame(frame, chunk) for frame in frames)),
                                   f"running {chunk} ms of game time", timeout, self.ev)
            for raw in thrown:
                if raw:
                    self.ev.page_error(raw)
            remaining -= chunk
            self.game_ms += chunk

    async def close(self, timeout: float = 3.0) -> bool:
        """Close the context; False when even that hung (the caller should restart the browser)."""
        if self.context is None:
            return True
        ctx, self.context = self.context, None
        try:
            await asyncio.wait_for(ctx.close(), timeout)
            return True
        except TimeoutError:
            return False
        except PlaywrightError:
            return True

    async def _route(self, route: Any) -> None:
        url = route.request.url
        try:
            if self.wipe_url is not None and url == self.wipe_url:
                await route.fulfill(status=200, content_type="text/html", body=WIPE_HTML)
            elif url.startswith(self.base):
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
        # Page.on is typed per event name (one overload each), so every tap is registered by its literal name
        page.on("pageerror", self._page_error)
        page.on("console", self._console)
        page.on("dialog", self._dialog)
        page.on("crash", self._crash)
        page.on("framenavigated", self._navigated)
        page.on("response", self._response)
        self._taps: dict[str, Callable[..., None]] = {  # what detach removes: the same six
            "pageerror": self._page_error, "console": self._console, "dialog": self._dialog,
            "crash": self._crash, "framenavigated": self._navigated, "response": self._response}

    def detach(self) -> None:
        for event, tap in self._taps.items():
            self.page.remove_listener(event, tap)

    async def load(self, timeout: float) -> None:
        self._expected = self.url
        self.loaded = False
        # no limit of Playwright's own: guarded's is the one (it gives a load starved of CPU more time)
        await guarded(self.page.goto(self.url, wait_until="load", timeout=0), "loading the page", timeout, self.ev)
        self.loaded = True

    async def reload(self, timeout: float) -> None:
        """A fresh game: everything the game stored is wiped as between checks (cookies, web storage,
        IndexedDB, Cache Storage: see GameContext.wipe), then the page is loaded again. Probe tabs are
        alone in their context, so a probe never finds what an earlier probe stored, whichever tab it runs in."""
        self.loaded = False  # leaving for the wipe page is QA's doing, not the game navigating away
        await self.owner.wipe([self.page], timeout)
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

    async def paint_switch(self, painting: bool) -> AbstractAsyncContextManager[Any]:
        """Make this tab's 2D painting switchable from its next load on, starting on or off (_PAINT_SWITCH_JS);
        disposing of what this returns takes the script away again (the tab goes back to the pool)."""
        return await guarded(self.page.add_init_script(TWIN_PAINT_JS if painting else NO_PAINT_JS),
                             "making painting switchable", OPEN_TIMEOUT_S, self.ev)

    async def quiet_if_hooked(self, timeout: float) -> bool:
        """Whether the page has defined window.__crumb.state; if so, its painting is switched off (one round trip)."""
        return await guarded(self.page.evaluate(QUIET_IF_HOOKED_JS), "looking for window.__crumb.state", timeout,
                             self.ev) is True

    async def paint(self, on: bool | None, timeout: float) -> bool:
        """Switch painting (None: leave it) where it is switchable (_PAINT_SWITCH_JS); whether the game read canvas
        pixels while painting was off, on this page since it loaded."""
        read = await guarded(self.page.evaluate(PAINT_SWITCH_JS, on), "switching painting", timeout, self.ev)
        return read is True

    async def autoplay(self, ms: int, chunk: int, rect: dict[str, Any] | None, timeout: float) -> bool:
        """Run PLAY_JS; False when the page cannot drive its own clock (then the caller plays step by step)."""
        out = await guarded(self.page.evaluate(PLAY_JS, {"ms": ms, "chunk": chunk, "rect": rect, "frame": FRAME_MS}),
                            f"playing {ms} ms by the game's hints", timeout, self.ev)
        if not isinstance(out, dict) or out.get("fallback"):
            return False
        for raw in out.get("errors") or []:
            self.ev.page_error(str(raw))
        return True

    async def target_and_state(self, timeout: float) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """Where the game draws (see TARGET_JS) and what state() says (see `state`)."""
        rect, reading = await guarded(self.page.evaluate(TARGET_STATE_JS), "finding the canvas and reading state()",
                                      timeout, self.ev)
        return rect, reading

    def _clip(self, rect: dict[str, Any] | None) -> Clip:
        """The target element's box cut to the viewport (without one, or none left: the whole viewport)."""
        if rect and rect["width"] >= 1 and rect["height"] >= 1:
            x0, y0 = max(0.0, rect["x"]), max(0.0, rect["y"])
            x1 = min(float(self.viewport[0]), rect["x"] + rect["width"])
            y1 = min(float(self.viewport[1]), rect["y"] + rect["height"])
            if x1 - x0 >= 1 and y1 - y0 >= 1:
                return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
        return {"x": 0.0, "y": 0.0, "width": float(self.viewport[0]), "height": float(self.viewport[1])}

    async def screenshot(self, rect: dict[str, Any] | None, timeout: float) -> bytes:
        """What the compositor shows of the game, full size, as PNG."""
        return await guarded(self._capture(rect, 1.0, timeout), "taking a screenshot", timeout, self.ev)

    async def _capture(self, rect: dict[str, Any] | None, scale: float, timeout: float) -> bytes:
        """The compositor's picture of the target (the viewport without one) at `scale`.

        Playwright's page.screenshot makes the same CDP call at the same place (the viewport's clip moved
        by the page's scroll, read from the browser, not from the page, where a game's global `scrollY`
        would replace it), with four more round trips around it, and PNG encoding tuned for size; here
        optimizeForSpeed (`bench/qa_ab.py --change cdp-shots`: 0.95-0.97 x the wall of a warm check, the
        same verdicts). A page's screenshots all come from here, so equal pictures are equal bytes. As
        there, web fonts are waited for and carets hidden (left so)."""
        cdp = await self.owner.cdp(self.page, timeout)
        await asyncio.gather(*(frame.evaluate(SHOT_READY_JS) for frame in self.page.frames), return_exceptions=True)
        view = (await cdp.send("Page.getLayoutMetrics"))["cssVisualViewport"]
        clip = self._clip(rect)
        got = await cdp.send("Page.captureScreenshot", {
            "format": "png", "optimizeForSpeed": True, "captureBeyondViewport": False,
            "clip": {"x": view["pageX"] + clip["x"], "y": view["pageY"] + clip["y"],
                     "width": math.floor(clip["width"] + 1e-3), "height": math.floor(clip["height"] + 1e-3),
                     "scale": view["scale"] * scale}})
        return base64.b64decode(got["data"])

    async def frame(self, rect: dict[str, Any] | None, width: int, timeout: float) -> bytes:
        """A small PNG of what the game shows, `width` pixels wide (never enlarged): read from the game's 2D
        canvas itself when it has one (what it drew; HTML over the canvas is not in it), else taken by the
        compositor at that scale (CDP Page.captureScreenshot's clip scale); never a full-size picture."""
        drawn = await guarded(self.page.evaluate(FRAME_JS, width), "reading a filmstrip frame", timeout, self.ev)
        if isinstance(drawn, str) and drawn:
            return base64.b64decode(drawn)
        scale = min(1.0, width / self._clip(rect)["width"])
        return await guarded(self._capture(rect, scale, timeout), "taking a filmstrip frame", timeout, self.ev)

    async def main_thread_s(self, timeout: float) -> float:
        """CPU seconds the page's main thread has spent on tasks (TaskDuration in threadTicks), for frames per second."""
        cdp = await self.owner.cdp(self.page, timeout)
        got = await guarded(cdp.send("Performance.getMetrics"), "reading metrics", timeout, self.ev)
        return next((m["value"] for m in got["metrics"] if m["name"] == "TaskDuration"), 0.0)

    # ------------------------------------------------------------ evidence taps

    def _page_error(self, exc: PlaywrightError) -> None:
        name = getattr(exc, "name", "") or ""
        message = getattr(exc, "message", "") or str(exc)
        raw = f"{name}: {message}" if name and not message.startswith(name) else message
        self.ev.page_error(raw.splitlines()[0] if raw else "unknown error")

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type != "error":
            return
        text = msg.text
        if text.startswith("Failed to load resource"):
            return  # reported as missing_asset / network_blocked with the URL
        self.ev.find("console_error", f"the game logged an error: {text[:300]}", raw=text)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs += 1
        if self.dialogs == 1:
            self.ev.find("dialog", f"the game opened a {dialog.type} dialog ({dialog.message[:100]!r}); QA dismissed it", "Minor")
        if self.dialogs == DIALOG_LIMIT:
            self.ev.find("dialog_loop", f"the game opened {DIALOG_LIMIT} {dialog.type} dialogs in a row: an endless dialog loop", "Critical")
            self.ev.stop("endless dialogs")
        asyncio.ensure_future(self._dismiss(dialog))

    @staticmethod
    async def _dismiss(dialog: Dialog) -> None:
        try:
            await dialog.dismiss()
        except PlaywrightError:
            pass

    def _crash(self, _page: Page) -> None:
        self.ev.find("crash", "the game's page crashed (the renderer died: out of memory or a browser bug)", "Critical",
                     raw="page crashed")
        self.ev.stop("page crashed")

    def _navigated(self, frame: Frame) -> None:
        if frame != self.page.main_frame or not self.loaded:
            return
        if not _same_document(frame.url, self._expected):
            self.ev.navigated_away(frame.url)
            self.ev.stop("navigated away")

    def _response(self, response: Response) -> None:
        if response.status >= 400 and response.url.startswith(self.owner.base):
            path = response.url[len(self.owner.base) - 1:]
            self.ev.find("missing_asset", f"the game requested {path}, which is not in the game folder ({response.status})",
                         raw=f"{response.status} {response.url}")
