"""`<audio>` and `<video>` elements on the game's clock.

QA runs a game on a fake clock, far faster than real time (css_clock.py and audio_clock.py say the same of
CSS animations and Web Audio). A media element keeps real time: after 2 s of game time a playing `<audio>`'s
`currentTime` had moved 0.02-0.03 s, and a 0.3 s clip's `ended` came only after 0.3 s of real time, long after
QA's step was over. A game that plays its next clip when the last one has ended, or times a rhythm by
`audio.currentTime`, stood still under QA and failed its probes (tests/qa/games/media_clock: 'clips expected
== 3, got 0' 0.95 s of game time after three clips began): a FAIL of QA's making.

MEDIA_CLOCK_JS, an init script of every QA context, keeps a game-time position for each media element the
game plays (or the browser autoplays): `play()` still plays it for real (QA's browser is muted), but its
`currentTime` is the position it was played from plus the game time since, at its `playbackRate`, held at
its `duration` or, when it loops, wrapped; `pause()` holds it and setting `currentTime` (or `fastSeek`)
moves it; `paused` and `ended` agree with it; `load()` and a new `src` put it back at the start, paused.
At the game time of its end (planned once its duration is known: at `durationchange` when it was played
before its metadata came) the element sends `timeupdate`, `pause` and `ended`, as a browser does, and stops
for real; while it plays it sends a `timeupdate` every 250 ms of game time. The browser's own `ended` and
`timeupdate`, which come in real time, are not passed to the game's listeners (`addEventListener`, the
`on...` properties and a handler written in the markup: event_filter.py), nor its own `pause` at a real end: a
`pause` is passed when the game's `pause()` made it. Cost: none for a page that plays no media (the element's
properties and listeners are wrapped on HTMLMediaElement's prototype, which no other node uses; an element
is looked after from its first play, and a timer of the game's clock runs only while it plays).

What a game can tell: the events it is sent are not `isTrusted`; the real stop waits for a real play still
starting, so a `pause()` that comes then resolves the `play()` promise instead of rejecting it; a `play`
event is sent when an element whose real play has not stopped yet is played again. Left as they were:
`played`, `buffered`, `seekable` and a video's picture (the frame the real playback is at); `playing`,
`seeked` and `play` events come in real time; a capture listener of an ancestor for `ended` (the event does
not bubble) hears the browser's too, as does one added with `EventTarget.prototype.addEventListener.call`;
a detached element that autoplays (`autoplay` set on `new Audio()`) keeps real time; a handler written in the
markup is looked at when the element first plays, not after; an element whose source failed is left to the
browser; a new `src` or `load()` while a real play is still starting rejects that play's promise (AbortError),
as the browser does, though in real time the play would often have begun by then (a page that changed an
element's source every 700 ms of game time and never waited for play() was named for it 3 times in 6 s).
"""

from __future__ import annotations

from crumb.qa.event_filter import EVENT_FILTER, EVENT_FILTER_JS

#: game time between two `timeupdate` events of a playing element, as browsers send them (about every 250 ms)
TICK_MS = 250

MEDIA_CLOCK_JS = EVENT_FILTER_JS + """
(() => {
  const M = self.HTMLMediaElement, filter = self[Symbol.for('__EVENT_FILTER__')];
  if (!M || typeof filter !== 'function') return;  // (event_filter.py's script, run just before)
  const P = M.prototype, V = Symbol(), D = Symbol();
  const now = () => performance.now() / 1000;  // game seconds
  const d = (k) => Object.getOwnPropertyDescriptor(P, k);
  const time = d('currentTime'), pausedOf = d('paused'), endedOf = d('ended'), durationOf = d('duration'),
    loopOf = d('loop'), rateOf = d('playbackRate'), errorOf = d('error');
  const play = P.play, pause = P.pause;
  const add = EventTarget.prototype.addEventListener;
  const length = (el) => { const n = durationOf.get.call(el); return n > 0 && Number.isFinite(n) ? n : NaN; };
  const realPaused = (el) => pausedOf.get.call(el);
  const fire = (el, type) => el.dispatchEvent(new Event(type));
  const soon = (el, ...types) => setTimeout(() => { for (const t of types) fire(el, t); }, 0);
  // an element's game-time position: moved on by the game time since it was last looked at
  const fold = (el, s) => { const n = now();
    if (s.run) { const len = length(el); let p = s.pos + (n - s.at) * rateOf.get.call(el);
      if (len === len) p = loopOf.get.call(el) ? p % len : p > len - 1e-6 ? len : p;  // (a sum of floats: at the end, not 1e-15 s short)
      s.pos = Math.max(0, p); }
    s.at = n; return s.pos; };
  const over = (el, s) => { const len = length(el); return len === len && !loopOf.get.call(el) && s.pos >= len; };
  const live = (el) => { const s = el[V]; return s && !errorOf.get.call(el) ? s : null; };  // a failed source: the browser's
  // the next timeupdate, or the end if it comes first (a timer of the game's clock: an end is never sent at once)
  const plan = (el) => { const s = el[V]; clearTimeout(s.timer); s.timer = 0; if (!s.run) return;
    const p = fold(el, s), len = length(el), rate = rateOf.get.call(el); let wait = __TICK__;
    if (len === len && !loopOf.get.call(el) && rate > 0) wait = Math.max(0, Math.min(wait, (len - p) / rate));
    s.timer = setTimeout(tick, Math.ceil(wait * 1000 - 1e-6), el); };
  const tick = (el) => { const s = el[V]; s.timer = 0; if (!s.run || errorOf.get.call(el)) return; fold(el, s);
    if (over(el, s)) return end(el, s); plan(el); fire(el, 'timeupdate'); };
  const stop = (el, s) => { if (realPaused(el)) return; if (s.pending) s.later = true; else pause.call(el); };
  const end = (el, s) => { s.run = false; stop(el, s); fire(el, 'timeupdate'); fire(el, 'pause'); fire(el, 'ended'); };
  // which of the browser's own events the game hears: its pause when the game's pause() made it
  const heard = (el, e) => { const s = el[V];
    if (!e.isTrusted || !s || errorOf.get.call(el)) return true;
    if (e[D] === undefined) e[D] = e.type === 'ended' ? false : s.pass > 0 && (e.type === 'timeupdate' || s.pass-- > 0);
    return e[D]; };
  const real = function (e) { const s = this[V]; if (!s || !e.isTrusted) return;
    if (e.type === 'durationchange') plan(this);
    else { s.pending = false; if (e.type === 'pause') heard(this, e);
      else if (s.later && !s.run) { s.later = false; pause.call(this); } } };
  // the game's listeners hear only the events sent on game time (and those heard() lets through)
  const adopt = filter(P, ['ended', 'timeupdate', 'pause'], heard);
  const take = (el) => { if (el[V]) return el[V];
    const s = el[V] = {pos: time.get.call(el), at: now(), run: false, timer: 0, pass: 0, pending: false, later: false};
    for (const t of ['durationchange', 'pause', 'playing']) add.call(el, t, real, true);
    adopt(el);  // a handler written in the markup
    return s; };
  P.play = function () { const paused = realPaused(this), s = take(this);
    if (s.run) { fold(this, s); return paused ? Promise.resolve() : play.call(this); }
    if (over(this, s)) s.pos = 0;
    s.run = true; s.at = now(); s.later = false; if (paused) s.pending = true; else soon(this, 'play');
    const r = play.apply(this, arguments); plan(this); return r; };
  P.pause = function () { const s = this[V]; if (!s) return pause.apply(this, arguments);
    if (s.run) { fold(this, s); s.run = false; plan(this);
      if (realPaused(this) || s.pending) soon(this, 'timeupdate', 'pause'); else s.pass++; }
    stop(this, s); };
  const seek = (el, v) => { const s = el[V]; if (!s) return; fold(el, s); const len = length(el);
    s.pos = Math.max(0, len === len ? Math.min(v, len) : v); plan(el); soon(el, 'timeupdate'); };
  Object.defineProperty(P, 'currentTime', {configurable: true, enumerable: time.enumerable,
    get() { const s = live(this); return s ? fold(this, s) : time.get.call(this); },
    set(v) { time.set.call(this, v); seek(this, Number(v)); }});
  if (typeof P.fastSeek === 'function') { const f = P.fastSeek;
    P.fastSeek = function (v) { const r = f.apply(this, arguments); seek(this, Number(v)); return r; }; }
  Object.defineProperty(P, 'paused', {configurable: true, enumerable: pausedOf.enumerable,
    get() { const s = live(this); return s ? !s.run : realPaused(this); }});
  Object.defineProperty(P, 'ended', {configurable: true, enumerable: endedOf.enumerable,
    get() { const s = live(this); if (!s) return endedOf.get.call(this); fold(this, s); return over(this, s); }});
  // a change of rate or of looping starts from where game time has put the element
  for (const [k, desc] of [['playbackRate', rateOf], ['loop', loopOf]]) Object.defineProperty(P, k, {configurable: true,
    enumerable: desc.enumerable, get: desc.get,
    set(v) { const s = this[V]; if (s) fold(this, s); desc.set.call(this, v); if (s) plan(this); }});
  // a new source, or load(): back at the start, paused (the browser's own load does the same)
  const reset = function () { const s = this[V]; if (!s) return; s.run = false; plan(this); s.pos = 0; s.at = now();
    s.pending = false; s.later = false; };
  const load = P.load; P.load = function () { reset.call(this); return load.apply(this, arguments); };
  for (const k of ['src', 'srcObject']) { const desc = d(k); if (!desc || !desc.set) continue;
    Object.defineProperty(P, k, {configurable: true, enumerable: desc.enumerable, get: desc.get,
      set(v) { reset.call(this); desc.set.call(this, v); }}); }
  // an element in the document that the browser autoplays (the `autoplay` attribute) is taken when it starts (a
  // late play of the game's own, which the game has paused since or whose end has come, is not a start)
  add.call(self, 'play', (e) => { const el = e.target;
    if (!e.isTrusted || !(el instanceof M) || realPaused(el)) return;
    const s = take(el); if (s.run || s.later) return; s.run = true; s.at = now(); plan(el); }, true);
})();""".replace("__TICK__", str(TICK_MS / 1000)).replace("__EVENT_FILTER__", EVENT_FILTER)
