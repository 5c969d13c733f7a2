"""What a long game-time probe costs beyond the game's own compute: every genre's real game on a probe page
as QA makes it (seeded, fake clock, painting off), started, then a short wait and a long one; for each, the
CPU of every process (this one, Playwright's driver, the browser and all its helpers) against the CPU the
page's main thread spent running the game (Performance TaskDuration in thread ticks).

Run: .venv/bin/python bench/qa_long.py [--only snake,flappy] [--short 2000] [--long 60000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from bench.qa import cpu_seconds, real_games  # noqa: E402
from crumb.qa import find_chromium  # noqa: E402
from crumb.qa.browser import LAUNCH_ARGS  # noqa: E402
from crumb.qa.page import CLOCK_START_S, NO_PAINT_JS, RUN_JS, SEED_JS  # noqa: E402
from crumb.qa.server import GameServer  # noqa: E402


async def measure(game: Path, short: int, long: int) -> dict[str, tuple[float, float, float]]:
    out = {}
    with GameServer(game) as server:
        pw = await async_playwright().start()
        browser = await pw.chromium.launch(executable_path=str(find_chromium()), args=LAUNCH_ARGS)
        for name, ms in (("short", short), ("long", long)):
            ctx = await browser.new_context(viewport={"width": 960, "height": 640})
            await ctx.add_init_script(SEED_JS)
            await ctx.add_init_script(NO_PAINT_JS)
            await ctx.clock.install(time=CLOCK_START_S)
            await ctx.clock.pause_at(CLOCK_START_S + 1)
            page = await ctx.new_page()
            cdp = await ctx.new_cdp_session(page)
            await cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
            await page.goto(server.url("index.html"))
            await ctx.clock.run_for(500)
            await page.keyboard.press("Enter")
            await ctx.clock.run_for(34)

            async def busy(cdp=cdp) -> float:  # type: ignore[no-untyped-def]
                got = await cdp.send("Performance.getMetrics")
                return next(m["value"] for m in got["metrics"] if m["name"] == "TaskDuration")

            b, c, t = await busy(), cpu_seconds(), time.perf_counter()
            left = ms
            while left > 0:  # as QA advances a probe's wait: 10 s at a time, from inside the page
                await page.main_frame.evaluate(RUN_JS, min(left, 10_000))
                left -= 10_000
            out[name] = (cpu_seconds() - c, await busy() - b, time.perf_counter() - t)
            await ctx.close()
        await browser.close()
        await pw.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--short", type=int, default=2000)
    parser.add_argument("--long", type=int, default=60000)
    args = parser.parse_args()
    rows = []
    print(f"load average {os.getloadavg()[0]:.1f}; game time short {args.short} ms, long {args.long} ms")
    print(f"{'genre':<14} {'CPU short':>9} {'CPU long':>9} {'game long':>9} {'beyond game: short':>19} {'long':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for gid, game, _c, _k in real_games(Path(tmp), [g for g in args.only.split(",") if g]):
            got = asyncio.run(measure(game, args.short, args.long))
            (cs, gs, _), (cl, gl, _) = got["short"], got["long"]
            rows.append((gid, cs, cl, gl, cs - gs, cl - gl))
            print(f"{gid:<14} {cs:9.3f} {cl:9.3f} {gl:9.3f} {cs - gs:19.3f} {cl - gl:6.3f}", flush=True)
    med = statistics.median
    print(f"median over {len(rows)} genres: CPU short {med(r[1] for r in rows):.3f} s, long {med(r[2] for r in rows):.3f} s; "
          f"the game's own main thread in the long one {med(r[3] for r in rows):.3f} s; beyond the game: short "
          f"{med(r[4] for r in rows):.3f} s, long {med(r[5] for r in rows):.3f} s; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
