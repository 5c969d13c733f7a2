"""Web Audio's clock on the game's clock.

QA runs a game on a fake clock, far faster than real time (css_clock.py says the same of CSS animations).
An AudioContext keeps the sound card's time, real time: after 2 s of game time its `currentTime` had
moved 0.02 s, and a 300 ms tone's `ended` came only after 0.3 s of real time, long after QA's step was
over. A rhythm game that times its notes by `currentTime`, or a Simon game that plays its next tone when
the last one has ended, stood still under QA and failed its probes: a FAIL of QA's making.

AUDIO_CLOCK_JS, an init script of every QA context, gives each AudioContext a `currentTime` (and
`getOutputTimestamp().contextTime`) that runs on game time while the context runs, and takes over the
times of its sources (oscillators, buffer sources, constant sources): a source starts playing at once
(QA's browser is muted: when a sound is heard does not matter), and its `ended` comes at the game time of
its end, its `stop(when)` or, for a buffer that does not loop, the buffer's end at the rate it was
started at. The browser's own `ended`, which comes in real time, is not passed to the game's listeners
(`addEventListener` and `onended`: event_filter.py).

Left as they were: AudioParam automation (what a sound sounds like, in real time); a buffer set on a source
after it started, and a rate changed after, do not move its end (`<audio>` and `<video>` elements are
media_clock.py's). A game can tell that the events it is sent are not `isTrusted`, and a listener it adds with
`EventTarget.prototype.addEventListener.call` hears the browser's `ended` too.
"""

from __future__ import annotations

from crumb.qa.event_filter import EVENT_FILTER, EVENT_FILTER_JS

AUDIO_CLOCK_JS = EVENT_FILTER_JS + """
(() => {
  const B = self.BaseAudioContext, S = self.AudioScheduledSourceNode, RT = self.AudioContext;
  const filter = self[Symbol.for('__EVENT_FILTER__')];  // (event_filter.py's script, run just before)
  if (!B || !S || !RT || typeof filter !== 'function') return;
  // (an OfflineAudioContext renders as fast as it can: left as it is)
  const V = Symbol(), now = () => performance.now() / 1000;  // game seconds
  const real = Object.getOwnPropertyDescriptor(B.prototype, 'currentTime');
  // game time while the context runs (as the game asked it to: resume, suspend, close; else as it is)
  const clock = (ctx) => { let v = ctx[V];
    if (!v) v = ctx[V] = {t: real.get.call(ctx), at: now(), run: null};
    const n = now(), running = v.run === null ? ctx.state === 'running' : v.run;
    if (running) v.t += n - v.at; v.at = n; return v; };
  Object.defineProperty(B.prototype, 'currentTime', {configurable: true, enumerable: real.enumerable,
    get() { return this instanceof RT ? clock(this).t : real.get.call(this); }});
  const A = RT.prototype;
  for (const [m, run] of [['resume', true], ['suspend', false], ['close', false]]) { const f = A[m];
    if (typeof f === 'function') A[m] = function () { clock(this).run = run; return f.apply(this, arguments); }; }
  const stamp = A.getOutputTimestamp;
  if (typeof stamp === 'function') A.getOutputTimestamp = function () {
    return {contextTime: clock(this).t, performanceTime: performance.now()}; };
  // a source: started at once for real; its end is game time's, sent as the real one would be
  const stopReal = S.prototype.stop;
  const end = (node) => { const s = node[V]; if (!s || s.sent) return; const ctx = node.context, left = s.end - clock(ctx).t;
    if (left > 0) { s.timer = setTimeout(() => end(node), Math.max(1, Math.ceil(left * 1000))); return; }
    s.sent = true; try { stopReal.call(node, 0); } catch (e) {}
    node.dispatchEvent(new Event('ended')); };
  const plan = (node) => { const s = node[V]; clearTimeout(s.timer); if (Number.isFinite(s.end)) end(node); };
  const wrapStart = (P, length) => { if (!Object.prototype.hasOwnProperty.call(P, 'start')) return; const f = P.start;
    P.start = function (when = 0, ...rest) { if (!(this.context instanceof RT)) return f.apply(this, arguments);
      const r = f.call(this, 0, ...rest);
      const t0 = Math.max(Number(when) || 0, clock(this.context).t);
      this[V] = {end: t0 + length(this, rest), sent: false, timer: 0}; plan(this); return r; }; };
  wrapStart(S.prototype, () => Infinity);
  if (self.AudioBufferSourceNode) wrapStart(AudioBufferSourceNode.prototype, (node, [offset = 0, duration]) => {
    const rate = Math.abs(node.playbackRate.value) || 1, buf = node.buffer;
    if (duration !== undefined) return Number(duration) / rate;
    return !buf || node.loop ? Infinity : Math.max(0, buf.duration - Number(offset)) / rate; });
  S.prototype.stop = function (when = 0) { const s = this[V];
    if (!s) return stopReal.call(this, when);  // not started: the browser says so
    if (!s.sent) { s.end = Math.max(Number(when) || 0, clock(this.context).t); plan(this); } };
  // the game's `ended` listeners hear only the end sent on game time (a source of an OfflineAudioContext: every end)
  filter(S.prototype, ['ended'], (node, e) => !e.isTrusted || !(node.context instanceof RT));
})();""".replace("__EVENT_FILTER__", EVENT_FILTER)
