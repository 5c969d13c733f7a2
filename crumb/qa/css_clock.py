"""CSS animations, transitions and Web Animations on the game's clock.

QA runs a game on a fake clock, far faster than real time: a minute of game time passes in a fraction
of a second. That clock moves the game's timers and frames, but the page's CSS animations, transitions
and Web Animations follow the browser's own timeline, in real time, so under QA they had barely moved
when a step ended. A game whose logic waits for one to end (a card that flips and then is compared, a
button that pops and then scores, a Simon pad that lights and then the next) never got on, and its
probes failed: a FAIL that was QA's doing, not the game's.

CSS_CLOCK_JS, an init script of every QA context, takes each such animation off the browser's timeline:
it pauses it, moves its current time on every frame of the fake clock by the game time that passed, and
finishes it when its end comes. The browser sends the events of an end (animationend, transitionend, a
Web Animation's finish) at its next rendering update, so when one ends the fake clock takes its next
timer only after a real frame (at most WAIT_FRAME_MS): the game hears of the end at the game time it
came, as in a browser running in real time. Only where the page listens for an end (or, for an iteration's
end, for `animationiteration`): a game that lets its hundred floating "+1"s fade unheard waits for no frame.

Cost: nothing for a page that declares no animation or transition (elements added to the DOM are looked
at, not its animations); otherwise a `getAnimations()` (a style update, as a browser makes every frame)
whenever the DOM changed.

What the game can tell: a taken animation reads `playState` "running", as it would, but its `startTime`
reads null (a paused animation's). A CSS animation the game pauses with `animation-play-state` keeps
moving (pausing it from a script, as here, is what makes the property no longer apply); one paused with
`pause()` stays paused. Start events (animationstart, transitionrun) still come with the next real frame.
Animations of a scroll timeline are left on it. A page whose style sheets declare none, and whose script
gives an element a transition of its own (`el.style.transition = ...`) and starts it in the same run of the
clock (between two of QA's steps), has that one move in real time until the next step: such a style is
looked for before each run, not watched on every frame.
"""

from __future__ import annotations

from crumb.qa.clock_tasks import REAL_FRAME

#: the longest a fake clock waits for a real frame after an animation ended (a tab that gets no frames)
WAIT_FRAME_MS = 1000

CSS_CLOCK_JS = """(() => {
  if (!self.document || !self.Animation || !Document.prototype.getAnimations) return;
  const D = document, A = Animation.prototype, E = Element.prototype;
  const pause = A.pause, play = A.play, reverse = A.reverse, finish = A.finish;
  const stateOf = Object.getOwnPropertyDescriptor(A, 'playState');
  const taken = new Set(), AT = Symbol();
  let looping = false, styled = false;
  const hears = {end: false, iteration: false};  // does the page listen for an end (an iteration's end)?
  // a style that makes an animation or a transition (a sheet that cannot be read is taken to)
  const declares = (s) => !!s && ((!!s.animationName && s.animationName !== 'none')
    || (!!s.transitionDuration && /[1-9]/.test(s.transitionDuration)));
  const sheet = (sh) => { let list; try { list = sh.cssRules; } catch (e) { return true; } return !list || rules(list); };
  const rules = (list) => { for (const r of list) { if (declares(r.style) || (r.styleSheet && sheet(r.styleSheet))) return true;
    let inner = null; try { inner = r.cssRules; } catch (e) {} if (inner && inner.length && rules(inner)) return true; }
    return false; };
  const scan = () => { styled = [...D.styleSheets, ...(D.adoptedStyleSheets || [])].some(sheet); };
  const take = (a) => {
    if (taken.has(a) || a.timeline !== D.timeline || stateOf.get.call(a) !== 'running') return;
    a[AT] = performance.now(); pause.call(a); taken.add(a); loop(); };
  const adopt = () => { for (const a of D.getAnimations()) take(a); };
  const loop = () => { if (!looping) { looping = true; requestAnimationFrame(step); } };
  const iteration = (a) => a.effect ? a.effect.getComputedTiming().currentIteration : null;
  // one frame of the fake clock (requestAnimationFrame is the clock's): each taken animation moves on by
  // the game time since it last moved, at its own rate
  const step = () => {
    const now = performance.now(); let ended = false;
    for (const a of taken) {
      if (stateOf.get.call(a) !== 'paused') { taken.delete(a); continue; }  // cancelled, or finished by the game
      const dt = now - a[AT], rate = a.playbackRate, t = a.currentTime; a[AT] = now;
      if (!dt || !rate || t === null) continue;
      const end = a.effect ? a.effect.getComputedTiming().endTime : 0, next = t + dt * rate;
      if (rate > 0 ? next >= end : next <= 0) { taken.delete(a); finish.call(a); ended = ended || hears.end; continue; }
      const was = hears.iteration ? iteration(a) : null;
      a.currentTime = next;
      if (hears.iteration && iteration(a) !== was) ended = true;
    }
    if (ended) realFrame();
    if (taken.size) requestAnimationFrame(step); else looping = false;
  };
  // the clock's next timer waits for a real frame after an end: that frame sends the end's events (clock_tasks.py
  // runs the clock's timers and takes this wait)
  const realFrame = () => { const pw = self.__pwClock, b = pw && pw.builtins, ask = self[Symbol.for('__REAL_FRAME__')];
    if (!b || typeof ask !== 'function') return;
    ask((run) => { let gone = false; const go = () => { if (!gone) { gone = true; run(); } };
      b.requestAnimationFrame(go); b.setTimeout(go, __WAIT_MS__); }); };
  A.pause = function () { taken.delete(this); return pause.apply(this, arguments); };
  A.play = function () { const r = play.apply(this, arguments); take(this); return r; };
  A.reverse = function () { const r = reverse.apply(this, arguments); take(this); return r; };
  Object.defineProperty(A, 'playState', {configurable: true, enumerable: stateOf.enumerable,
    get() { return taken.has(this) ? 'running' : stateOf.get.call(this); }});
  if (E.animate) { const animate = E.animate; E.animate = function () { const a = animate.apply(this, arguments); take(a); return a; }; }
  const KINDS = {animationend: 'end', transitionend: 'end', finish: 'end', webkitanimationend: 'end',
    webkittransitionend: 'end', animationiteration: 'iteration', webkitanimationiteration: 'iteration'};
  const heard = (type) => { const k = KINDS[String(type).toLowerCase()]; if (k) hears[k] = true; };
  const listen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type) { heard(type); return listen.apply(this, arguments); };
  for (const P of [self.HTMLElement, self.SVGElement, self.Document, self.Window, self.Animation]) {
    for (const type of Object.keys(KINDS)) { const d = P && Object.getOwnPropertyDescriptor(P.prototype, 'on' + type);
      if (!d || !d.set) continue;
      Object.defineProperty(P.prototype, 'on' + type, {configurable: true, enumerable: d.enumerable, get: d.get,
        set(v) { heard(type); d.set.call(this, v); }}); } }
  const handlers = Object.keys(KINDS).map((t) => '[on' + t + ']').join(',');
  // Which changes of the DOM to look at: where no style sheet declares an animation or a transition, only
  // elements added (their own style may), and attributes once a style of an element's own declares one
  // (a DOM game that moves its sprites by their style on every frame is not looked at on every frame)
  let inlined = false;
  const sheetNode = (n) => n.nodeType === 1 && (n.tagName === 'STYLE' || n.tagName === 'LINK' || !!n.querySelector('style,link'));
  const inline = (n) => declares(n.style) || !!n.querySelector('[style*="anim" i],[style*="transition" i]');
  const seen = new MutationObserver((records) => {
    if (records.some((r) => r.type === 'childList' && (r.target.tagName === 'STYLE'
        || [...r.addedNodes, ...r.removedNodes].some(sheetNode)))) restyle();
    const hit = records.some((r) => r.type === 'attributes'
      || [...r.addedNodes].some((n) => n.nodeType === 1 && (styled || inlined || (inline(n) && mark()))));  // text starts nothing
    if (hit) adopt();  // at once: between two runs of the clock a real frame would start it in real time
  });
  const watch = () => seen.observe(D, {subtree: true, childList: true, attributes: styled || inlined});
  const restyle = () => { const was = styled || inlined; scan(); if ((styled || inlined) !== was) watch(); };
  const mark = () => { if (!inlined) { inlined = true; if (!styled) watch(); } return true; };
  watch();
  D.addEventListener('load', (e) => { if (e.target && e.target.tagName === 'LINK') restyle(); }, true);
  // a style of an element's own set from a script (el.style.transition = ...) is seen in its attribute, and a
  // handler written in the markup (onanimationend="...") in its own: looked for when the page has loaded and
  // before each run of the clock (all of QA's go through the controller's runFor), as are the animations
  // begun since the last run (at load, on a hover, from a key QA pressed)
  const look = () => { if (!styled && !inlined && inline(D)) mark();
    if (!hears.end && D.querySelector(handlers)) { heard('animationend'); heard('animationiteration'); } adopt(); };
  let runs = false;
  const before = () => { const c = self.__pwClock && self.__pwClock.controller;
    if (runs || !c || typeof c.runFor !== 'function') return; runs = true; const run = c.runFor;
    c.runFor = function () { look(); return run.apply(this, arguments); }; };
  before();  // the clock's own script may come after this one: then at the load, before QA's first run
  D.addEventListener('DOMContentLoaded', () => { before(); restyle(); look(); });
})();""".replace("__WAIT_MS__", str(WAIT_FRAME_MS)).replace("__REAL_FRAME__", REAL_FRAME)
