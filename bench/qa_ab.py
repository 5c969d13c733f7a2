"""A QA change against what it replaced, in one process, alternating: warm checks of every genre's real game
with the baseline and with the change, one after the other, so the load of a shared machine weighs on both
alike. Prints wall and CPU (this process and every browser process) per check, medians, and the ratios.

Run: .venv/bin/python bench/qa_ab.py [-n 2] [--only match3,snake] [--change chains]

Changes:
  chains  probes judged on another chain's page on the way (qa/chains.py), against the rule before it
          (a probe joined a chain only at its end)
  play-frames  the play step's autopilot holding a key a frame at a time and deciding again as soon as
          the game's key hint changes (page.py's PLAY_JS), against one decision per chunk (100 ms of game
          time for an 8 s play: a snake at 1.5x speed stepped twice on one decision, into walls)
  cdp-shots  screenshots through CDP with optimizeForSpeed (page.py's GameTab._capture), against
          Playwright's page.screenshot(caret="hide")
  server-stop  each check's game server stopped through a wake-up socket (qa/server.py's _Server.serve),
          against socketserver's serve_forever(poll_interval=0.05) and shutdown(), which waited for the
          next poll on QA's event loop
  share  the browser's autogroup at nice 5 (qa/limits.py's lower_share), against nice 0: what the lower
          CPU share costs a check while QA's own process (nice 0) competes with the browser for the cores
  quiet-twin  the twin tab (the main check's run without input) stopping its 2D painting once state() tells
          the runs apart (play.py's QUIET_TWIN, page.py's TWIN_PAINT_JS), against a twin that paints throughout
  early-quiet  the twin of a game whose state() is there once loaded stopping its painting before the game's
          clock first runs (play.py's EARLY_QUIET), against a twin painting until QA's first look
  twin-at-once  main and twin loading at once on a warm browser too, the twin told after its load whether to
          paint (play.py's _Stage.main), against main loading first and the twin then, its script chosen by
          whether main had state()
  quiet-canvas  pages that do not paint keeping a 2D context's styles, save and restore in their script and
          building no path (page.py's _PAINT_SWITCH_JS), against the same script without that part, which
          only turns the drawing calls off.
          The script is a context's, set when the pool opens it, so each way has a runner of its own, used
          only with its own script in place (alternating as the others)
  clock-in-page  each tab's fake clock run from inside its frames (page.py's GameContext.run_for, RUN_JS), against
          Playwright's context-wide clock.run_for, which also logs each call for later documents to replay
          (a reused context's next game loaded with the game time of the checks before it), and a recycled
          context's clock installed and paused again
  clock-tasks  the fake clock's timers run several to a real task, up to 8 ms of real time (qa/clock_tasks.py), against
          a task of their own each, as Playwright's clock runs them (the same script with a budget of 0). The
          script is a context's, so each way has a runner of its own, as quiet-canvas.
          Such two-runner changes: an A/A (the same script both ways) gave 0.705 x the wall at load 10-15, so
          under load which runner a way gets weighs more than the change; measure them by alternating
          `bench/qa.py` runs of two checkouts instead (docs/benchmarks.md, "QA of the real games")
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.qa import cpu_seconds, real_games  # noqa: E402
from crumb.protocol.game import Criterion  # noqa: E402
from crumb.qa import QARunner  # noqa: E402
from crumb.qa.limits import AUTOGROUP_NICE, has_autogroups, lower_share  # noqa: E402


def chains_before(criteria: Sequence[Criterion]) -> list:
    """qa/chains.py's rule before probes joined on the way: only at a chain's end."""
    from crumb.qa.chains import Link, continuation

    out: list[list[Link]] = []
    for n, criterion in enumerate(criteria):
        steps = list(criterion.probe.steps)
        for chain in out:
            rest = continuation(chain[-1].criterion.probe.steps, steps)
            if rest is not None:
                chain.append(Link(n, criterion, rest))
                break
        else:
            out.append([Link(n, criterion, tuple(steps))])
    return out


#: PLAY_JS's decision loop before play-frames: one decision per chunk, whatever the game did meanwhile
PLAY_LOOP_BEFORE = """  for (let left = ms; left > 0;) {
    const now = Math.min(chunk, left), hs = hints();
    if (!hs.length) await run(now);
    for (const h of hs) {
      const per = Math.max(1, Math.floor(now / hs.length));
      if (h.type === 'key') { key('keydown', h.key); await run(per); key('keyup', h.key); }
      else { point(h.type, h.x, h.y); await run(per); }
    }
    left -= now;
  }
  return {errors};
}"""


#: the lines of page.py's _PAINT_SWITCH_JS that make a canvas that does not paint keep only what the game can
#: read back; without them, the script before quiet-canvas (the drawing calls off, every other call the context's own)
QUIET_CANVAS_LINES = ("  quiet(self.CanvasRenderingContext2D, () => make.call(document, 'canvas').getContext('2d'));\n"
                      "  quiet(self.OffscreenCanvasRenderingContext2D, () => new OffscreenCanvas(1, 1).getContext('2d'));\n")


@contextlib.contextmanager
def baseline(change: str) -> Iterator[None]:
    """What `change` replaced, patched in while the block runs."""
    with contextlib.ExitStack() as stack:
        for target, name, value in replaced(change):
            stack.enter_context(mock.patch.object(target, name, value))
        yield


def replaced(change: str) -> list[tuple[object, str, object]]:
    """(owner, attribute, what it was before `change`) for each name the change replaced."""
    import crumb.qa.page as page
    import crumb.qa.play as play

    if change == "quiet-canvas":
        assert QUIET_CANVAS_LINES in page.NO_PAINT_JS, "page.py's paint script changed: update QUIET_CANVAS_LINES"
        return [(page, name, getattr(page, name).replace(QUIET_CANVAS_LINES, ""))
                for name in ("NO_PAINT_JS", "TWIN_PAINT_JS")]
    if change == "play-frames":
        return [(page, "PLAY_JS", page.PLAY_JS[:page.PLAY_JS.index("  // A key held by a decision")] + PLAY_LOOP_BEFORE)]
    if change == "share":  # main() sets each way's nice on the running browser
        return []
    if change in ("quiet-twin", "early-quiet"):
        return [(play, "QUIET_TWIN" if change == "quiet-twin" else "EARLY_QUIET", False)]
    if change == "server-stop":
        import threading

        from crumb.qa.server import GameServer, _Server

        def start(self):
            self._server = _Server(self.root, self.port)
            self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                            daemon=True)
            self._thread.start()
            return self

        def stop(self):
            if self._server is not None:
                self._server.shutdown()
                self._server.server_close()
                self._server.close_connections()
                self._server = None

        return [(GameServer, "start", start), (GameServer, "stop", stop)]
    if change == "cdp-shots":
        async def screenshot(self, rect, timeout):
            return await page.guarded(self.page.screenshot(clip=self._clip(rect), caret="hide", timeout=0),
                                      "taking a screenshot", timeout, self.ev)

        return [(page.GameTab, "screenshot", screenshot)]
    if change == "clock-tasks":
        from crumb.qa.clock_tasks import clock_tasks_js

        return [(page, "CLOCK_TASKS_JS", clock_tasks_js(0))]
    if change == "chains":
        return [(play, "chains", chains_before)]
    if change == "clock-in-page":
        async def run_for(self, ms, timeout):
            for chunk in [10_000] * (ms // 10_000) + ([ms % 10_000] if ms % 10_000 else []):
                try:
                    await page.guarded(self.context.clock.run_for(chunk), "running game time", timeout, self.ev)
                except page.PlaywrightError as exc:  # the game's own exception: "Clock.run_for: TypeError: ..."
                    if not str(exc).startswith("Clock.run_for: ") or "closed" in str(exc) or "crashed" in str(exc):
                        raise
                    self.ev.page_error(str(exc).split(": ", 1)[1].splitlines()[0])

        real_recycle = page.GameContext.recycle

        async def recycle(self, park_base, timeout):
            await real_recycle(self, park_base, timeout)
            await self._install_clock()

        return [(page.GameContext, "run_for", run_for), (page.GameContext, "recycle", recycle)]
    if change == "twin-at-once":
        async def main_before(self, ctx, main, twin, controls, report, film_frames=0, quiet_twin=False):
            early = quiet_twin and play.EARLY_QUIET and self.pool is not None and self.pool.grown
            painting = True
            if early:
                await main.load(self.load_s)
                painting = not await main.page.evaluate(page.HAS_HOOK_JS)
            switchable = await twin.paint_switch(painting) if quiet_twin else None
            await (twin.load(self.load_s) if early else asyncio.gather(main.load(self.load_s), twin.load(self.load_s)))
            await self._main(ctx, main, twin, controls, report, film_frames, switchable is not None, painting)
            if switchable is not None:
                await switchable.__aexit__(None, None, None)

        return [(play._Stage, "main", main_before)]
    raise SystemExit(f"unknown change {change!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2, help="warm checks each way per genre")
    parser.add_argument("--only", default="")
    parser.add_argument("--change", default="chains")
    args = parser.parse_args()
    if args.change == "share" and not has_autogroups():  # lower_share would do nothing: both ways the same
        raise SystemExit("--change share: this kernel shows this process no autogroup, so there is no share to compare")
    med = statistics.median
    only = [g for g in args.only.split(",") if g]
    loads = [os.getloadavg()[0]]
    wall: dict[str, list[float]] = {"before": [], "after": []}
    cpu: dict[str, list[float]] = {"before": [], "after": []}
    same = True
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        games = real_games(Path(tmp), only)
        after = stack.enter_context(QARunner())
        runners = {"before": after, "after": after}
        if args.change in ("quiet-canvas", "clock-tasks"):  # a runner whose contexts were all opened with the script before
            with baseline(args.change):
                runners["before"] = stack.enter_context(QARunner())
                runners["before"].warm()
        for gid, game, criteria, controls in games:
            for way, qa in {id(r): (w, r) for w, r in runners.items()}.values():  # a warm-up check each
                with baseline(args.change) if way == "before" else contextlib.nullcontext():
                    qa.check(game, criteria=criteria, controls=controls)
                    qa.warm()
            seen: dict[str, list] = {"before": [], "after": []}
            for k in range(2 * args.n):
                way = "before" if k % 2 == 0 else "after"
                qa = runners[way]
                with baseline(args.change) if way == "before" else contextlib.nullcontext():
                    qa.warm()
                    if args.change == "share" and qa._engine.browser_pid:
                        why = lower_share(qa._engine.browser_pid, 0 if way == "before" else AUTOGROUP_NICE)
                        assert why is None, why
                    t, c = time.perf_counter(), cpu_seconds()
                    result = qa.check(game, criteria=criteria, controls=controls)
                    wall[way].append(time.perf_counter() - t)
                    cpu[way].append(cpu_seconds() - c)
                    qa.warm()  # the pool refilled while this way's scripts are in place
                seen[way].append((result.ok, [(p.id, p.ok) for p in result.probes],
                                  sorted(f.code for f in result.findings)))
            same &= all(s == seen["before"][0] for s in seen["before"] + seen["after"])
            loads.append(os.getloadavg()[0])
            n = args.n
            print(f"  {gid:<14} wall {med(wall['before'][-n:]):5.2f} -> {med(wall['after'][-n:]):5.2f} s   "
                  f"CPU {med(cpu['before'][-n:]):5.2f} -> {med(cpu['after'][-n:]):5.2f} s"
                  f"{'' if seen['after'] == seen['before'] else '   VERDICT FACTS DIFFER'}", flush=True)
    print(f"{args.change}: {len(games)} genres, {args.n} warm checks each way, alternating; {os.cpu_count()} cores, "
          f"load average {min(loads):.1f}-{max(loads):.1f}")
    print(f"  wall per check: before {med(wall['before']):.2f} s, after {med(wall['after']):.2f} s, "
          f"ratio {med(wall['after']) / med(wall['before']):.3f}")
    print(f"  CPU per check:  before {med(cpu['before']):.2f} s, after {med(cpu['after']):.2f} s, "
          f"ratio {med(cpu['after']) / med(cpu['before']):.3f}")
    print(f"  ok, probes and finding codes the same in every check: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
