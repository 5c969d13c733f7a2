"""The fake clock's timers run several to a real task.

Playwright's fake clock runs each timer (each frame, each setTimeout) and then yields a real task before the
next. Chromium finishes a 2D canvas's frame at the end of every task that drew on it, so each frame of game
time was rasterized, although QA looks at a painting tab only a few times a check: pong's full-canvas
gradient cost 1.4 ms a frame in `CanvasRenderingContext2D::FinalizeFrame`, 89 of the 118 ms that a second
of its game time took (a Chromium trace of one run of the clock).

CLOCK_TASKS_JS, an init script of every QA context, wraps the clock's `postTask` (a private field of
Playwright's clock, whose version we pin) and lets the clock take its next timer in the same task, after the
promise jobs the last one queued (as between two frames in a browser), until DEFAULT_BUDGET_MS of real time
has passed; then it yields a real task, as before, and the browser draws and delivers what came in (a loaded
image, a message from a worker). It yields at once where the game itself posted a message (`postMessage`, in
the timer or in a promise job it queued: a scheduler such as React's runs its work in the message's task,
which came before the clock's next timer and still does), and where another of QA's scripts asks for a real
frame first (`REAL_FRAME`: css_clock.py, after an animation ended, so that the browser sends the end's
events at the game time it came).

What a game can tell: real tasks come fewer to the second of game time, so a resource that arrives in real
time is seen a few more frames of game time later (it was never at a fixed game time); a canvas shows the
last of several frames drawn in one task.
"""

from __future__ import annotations

#: real time the clock runs timers in one task before it yields one (a frame at 60 Hz is 16.7 ms)
DEFAULT_BUDGET_MS = 8

#: the name (Symbol.for) under which other scripts ask the clock for a real frame before its next timer
REAL_FRAME = "crumb.qa.realFrame"

_SCRIPT = """(() => {
  let hooked = false, posted = false, ours = false, wait = null;
  const mark = (P) => { const f = P && P.postMessage; if (typeof f !== 'function') return;
    P.postMessage = function () { if (!ours) posted = true; return f.apply(this, arguments); }; };
  mark(self.MessagePort && MessagePort.prototype);
  mark(self);  // a window's postMessage is its own (the global's operations are not on its prototype)
  // css_clock.py: after an animation's end, its events come with the next real frame (a function that takes
  // the task to run once that frame came)
  self[Symbol.for('__REAL_FRAME__')] = (then) => { wait = then; };
  const hook = () => { const pw = self.__pwClock, c = pw && pw.controller, e = c && c._embedder;
    if (hooked || !e || typeof e.postTask !== 'function' || !pw.builtins) return;
    hooked = true;
    const real = pw.builtins.performance, postTask = e.postTask;
    const post = (task) => { ours = true; try { postTask.call(e, task); } finally { ours = false; } };  // a real task
    let since = -1;  // when the timers of this task began (real ms), -1 before the first
    e.postTask = (task) => {
      if (wait) { const w = wait; wait = null; since = -1; w(() => post(task)); return; }
      const now = real.now(); if (since < 0) since = now;
      if (now - since >= __BUDGET__) { posted = false; since = -1; post(task); return; }
      // decided after the promise jobs the last timer queued, which may post a message too
      queueMicrotask(() => { if (!posted) { task(); return; } posted = false; since = -1; post(task); }); };
  };
  hook();  // the clock's own script may come after this one: then at DOMContentLoaded, before QA's first run
  if (self.document) document.addEventListener('DOMContentLoaded', hook);
})();"""


def clock_tasks_js(budget_ms: int = DEFAULT_BUDGET_MS) -> str:
    """The script with a budget of its own: 0 runs every timer in a task of its own, as Playwright's clock does
    (`bench/qa_ab.py --change clock-tasks` measures against that)."""
    return _SCRIPT.replace("__BUDGET__", str(budget_ms)).replace("__REAL_FRAME__", REAL_FRAME)


CLOCK_TASKS_JS = clock_tasks_js()
