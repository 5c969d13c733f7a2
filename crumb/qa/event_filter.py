"""The browser's own events of a clock's time source kept from the game; the clock's own passed on.

audio_clock.py and media_clock.py put a sound's time on the game's clock and send the events of its end (and a
media element's `timeupdate`s) at its game time. The browser still sends its own, in real time: a game that
heard them would count an end twice, or hear it long before its game time. Each clock kept them from the game's
listeners with a copy of its own of the same wrapping (the audio clock's keyed a listener by itself alone, so
one added in both phases and removed from both was still called); the media clock's, the fuller one, is here,
for both.

EVENT_FILTER_JS, which each clock's init script begins with (so no order of scripts can leave a clock without
it), installs once per realm,
under `self[Symbol.for(EVENT_FILTER)]`, a function that a clock calls with a prototype, event types and
`heard(target, event)`, which says whether the game hears an event (the browser's own is `isTrusted`). The
game's listeners for those types on targets of that prototype are called only with the events every
registration for the target and the type lets through: listeners added with `addEventListener` (kept apart by
type and capture, as the browser keeps them), handlers set by the `on...` properties (which read back as set)
and a handler written in the markup, once the clock passes the target to the function the registration
returns (the browser made that one its own listener; a clock that takes a target when it starts playing passes
it then). A `once` listener is removed by its own first call, not by the browser's: the browser's event, which
it does not hear, may come first (a short sound's real end while QA's clock stands between two steps).
Registrations compose: each wraps what its prototype has not had wrapped yet, and an event is judged by all
of them.

Cost: none for a page that listens to no target of a registered prototype (`addEventListener` and the `on...`
properties are wrapped on that prototype alone, not on EventTarget's). Left as they were: a capture listener of
an ancestor (for an event that does not bubble, such as `ended`) and one added with
`EventTarget.prototype.addEventListener.call` hear the browser's events too.
"""

from __future__ import annotations

#: the name (Symbol.for) under which the clocks register the events of the browser's that the game must not hear
EVENT_FILTER = "crumb.qa.eventFilter"

EVENT_FILTER_JS = """(() => {
  const K = Symbol.for('__EVENT_FILTER__');
  if (self[K]) return;  // once per realm, however often it is added
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  const H = Symbol(), W = Symbol(), ours = new WeakSet();  // a target's `on...` handlers, its wrapped listeners
  const regs = [];  // {P, types, heard} of every registration
  // does the game hear e, an event of this type at target: every registration for the target and the type says so
  const heard = (target, type, e) => { for (const r of regs)
    if (r.types.has(type) && r.P.isPrototypeOf(target) && !r.heard(target, e)) return false;
    return true; };
  const filtered = (target, type) => regs.some((r) => r.types.has(type) && r.P.isPrototypeOf(target));
  const only = (type, l) => function (e) { if (!heard(this, type, e)) return; return typeof l === 'function' ? l.call(this, e) : l.handleEvent(e); };
  // a `once` listener is removed by its own first call, not by the browser's (which it does not hear)
  const key = (type, opts) => type + ((typeof opts === 'boolean' ? opts : !!(opts && opts.capture)) ? '+' : '');
  const listen = {
    addEventListener(type, l, opts) {
      if (!l || !filtered(this, type)) return add.apply(this, arguments);
      const m = this[W] || (this[W] = new Map()), k = key(type, opts), ls = m.get(k) || new Map(); m.set(k, ls);
      let w = ls.get(l);
      if (!w) { const inner = only(type, l), once = typeof opts === 'object' && opts !== null && !!opts.once;
        w = once ? function (e) { if (!heard(this, type, e)) return; remove.call(this, type, w, opts); ls.delete(l); return inner.call(this, e); } : inner;
        ls.set(l, w); }
      return add.call(this, type, w, typeof opts === 'object' && opts !== null ? {...opts, once: false} : opts); },
    removeEventListener(type, l, opts) {
      const ls = l && this[W] && this[W].get(key(type, opts));
      if (ls && ls.has(l)) { const w = ls.get(l); ls.delete(l); return remove.call(this, type, w, opts); }
      return remove.apply(this, arguments); }};
  self[K] = (P, types, hears) => {
    const r = {P, types: new Set(types), heard: hears}, ons = []; regs.push(r);
    if (P.addEventListener !== listen.addEventListener) Object.assign(P, listen);  // (else a prototype it inherits from has them)
    for (const t of r.types) {
      let on = null; for (let o = P; o && !on; o = Object.getPrototypeOf(o)) on = Object.getOwnPropertyDescriptor(o, 'on' + t) || null;
      if (!on || !on.get || !on.set) continue;
      if (!ours.has(on.set)) { const real = on;
        on = {configurable: true, enumerable: real.enumerable,
          get() { const h = this[H]; return h && t in h ? h[t] : real.get.call(this); },
          set(v) { const h = this[H] || (this[H] = {}); h[t] = typeof v === 'function' ? v : null; real.set.call(this, h[t] && only(t, h[t])); }};
        ours.add(on.set); Object.defineProperty(P, 'on' + t, on); }
      ons.push([t, on]); }
    // a handler written in the markup is the browser's own listener until it is set again through the property
    return (target) => { const h = target[H];
      for (const [t, on] of ons) if (!(h && t in h)) { const f = on.get.call(target); if (f) on.set.call(target, f); } };
  };
})();""".replace("__EVENT_FILTER__", EVENT_FILTER)
