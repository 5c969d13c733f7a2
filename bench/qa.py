"""QA time per game, cold (a new browser each time) and warm (one reused runner), median of 10,
next to a baseline measured in the same run: a bare load of an empty page in a browser launched the
same way (warm: reused browser; cold: driver start + launch + load). Run: .venv/bin/python bench/qa.py

By default it checks the games users get: every genre's game as the embedded studio plans and
builds it from the genre's own first example pitch, with every probe its Planner wrote; per genre the
warm and cold wall time, CPU per warm check, and the game time its probes ask for (issue 18: warm
<= 0.5 s and cold <= 1.5 s median). `--test-game` measures the small test game of tests/qa/games/good.

`--film` measures what the filmstrip costs (issue 22: <= +15 %): warm checks of every genre's game that
save their files as a session's do, with the filmstrip and without it (qa.film_frames 0), alternating in
the same run, and the ratio of the medians.

A change to QA is measured against what it replaced with `bench/qa_ab.py` (both alternating in one process),
and must leave QA's facts as they were: `bench/tools/qa_facts.py` writes them for every genre's game and the
corpus, and compares two such files. `bench/tools/qa_profile.py` splits a warm check's CPU by process kind.

Warm checks start on an idle runner (`QARunner.warm()`), as in the daemon, where a build comes between
two checks of a session; "back to back" runs them with no pause, so the runner's between-checks work
(recycling the used tabs) lands on the next check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from crumb.protocol.game import Criterion, QAResult  # noqa: E402
from crumb.qa import QARunner, find_chromium, run_qa  # noqa: E402
from crumb.qa.browser import LAUNCH_ARGS  # noqa: E402
from crumb.qa.server import GameServer  # noqa: E402

GAME = ROOT / "tests" / "qa" / "games" / "good"
CRITERIA = [Criterion.model_validate(c) for c in
            json.loads((ROOT / "tests" / "qa" / "games" / "good-criteria.json").read_text())["criteria"]]
CONTROLS = ["ArrowLeft", "ArrowRight"]


def cpu_seconds() -> float:
    """CPU time of this process and every process below it (driver, browser, renderers, reaped ones too).
    On a shared machine wall time swings with others' load; this is what a check itself costs."""
    from crumb import procfs

    own = os.times()
    return own.user + own.system + sum(procfs.cpu_s(pid) or 0.0 for pid in procfs.descendants(os.getpid()))


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


async def _bare_loads(n: int, cold: bool) -> list[float]:
    """Seconds for a bare empty-page load: warm = new context+page+goto+close in a running browser."""
    exe = str(find_chromium())
    with tempfile.TemporaryDirectory() as tmp, GameServer(Path(tmp)) as server:
        (Path(tmp) / "index.html").write_text("<!doctype html><title>empty</title>")
        out = []
        if cold:
            for _ in range(n):
                t = time.perf_counter()
                pw = await async_playwright().start()
                browser = await pw.chromium.launch(executable_path=exe, args=LAUNCH_ARGS)
                page = await browser.new_page()
                await page.goto(server.url("index.html"))
                out.append(time.perf_counter() - t)
                await browser.close()
                await pw.stop()
            return out
        pw = await async_playwright().start()
        browser = await pw.chromium.launch(executable_path=exe, args=LAUNCH_ARGS)
        for _ in range(n + 1):
            t = time.perf_counter()
            ctx = await browser.new_context()
            page = await ctx.new_page()
            await page.goto(server.url("index.html"))
            await ctx.close()
            out.append(time.perf_counter() - t)
        await browser.close()
        await pw.stop()
        return out[1:]


def real_games(tmp: Path, only: list[str]) -> list[tuple[str, Path, list[Criterion], list[str]]]:
    """(genre, game folder, criteria, controls) for every genre's game, built as a session builds it."""
    from crumb.actors.embedded.builder import build_game
    from crumb.actors.embedded.research import plan_researched
    from crumb.genres import genres
    from crumb.reducer.reduce import _qa_controls

    out = []
    for g in sorted(genres(), key=lambda g: g.id):
        if only and g.id not in only:
            continue
        pitch = g.pitches[0]
        spec, _ = plan_researched(pitch)
        build_game(spec, tmp / g.id)
        out.append((g.id, tmp / g.id, list(spec.criteria), _qa_controls(spec.controls.model_dump())))
    return out


def why(result: QAResult) -> str:
    """What made a check fail, in one line: its error, its findings' codes, its failed probes."""
    probes = [f"{p.id}: {p.detail[:120]}" for p in result.probes if not p.ok]
    return ", ".join([result.error or "", *(f.code for f in result.findings), *probes]).strip(", ")


def probe_game_ms(criteria: list[Criterion]) -> int:
    """The game time the probes ask for (waits and plays), the part a long round makes long."""
    return sum(s.ms or 0 for c in criteria for s in c.probe.steps if s.do in ("wait", "play"))


def main_real(n: int, only: list[str]) -> int:
    med = statistics.median
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        games = real_games(Path(tmp), only)
        with QARunner() as qa:
            for gid, game, criteria, controls in games:
                results = [qa.check(game, criteria=criteria, controls=controls)]
                warm, cpu = [], []
                for _ in range(n):
                    qa.warm()
                    t, c = time.perf_counter(), cpu_seconds()
                    results.append(qa.check(game, criteria=criteria, controls=controls))
                    warm.append(time.perf_counter() - t)
                    cpu.append(cpu_seconds() - c)
                t = time.perf_counter()
                results.append(run_qa(game, criteria=criteria, controls=controls))
                cold = time.perf_counter() - t
                failed = [why(r) for r in results if not r.ok]
                rows.append((gid, med(warm), cold, med(cpu), probe_game_ms(criteria), not failed))
                r = rows[-1]
                print(f"  {gid:<14} warm {r[1]:5.2f} s  cold {r[2]:5.2f} s  CPU/warm check {r[3]:5.2f} s  "
                      f"probe game time {r[4] / 1000:5.1f} s  {'ok' if r[5] else 'FAILED QA: ' + '; '.join(failed)}",
                      flush=True)
    warm_m, cold_m = med(r[1] for r in rows), med(r[2] for r in rows)
    base_warm, base_cold = med(asyncio.run(_bare_loads(n, cold=False))), med(asyncio.run(_bare_loads(n, cold=True)))
    load = os.getloadavg()[0]
    print(f"real games of {len(rows)} genres, warm median of {n} per genre, one cold; {os.cpu_count()} cores, "
          f"load average {load:.1f}")
    print(f"  warm median {warm_m:.2f} s (bare page load {base_warm:.3f} s, {warm_m / base_warm:.1f}x)  "
          f"target <= 0.5 s: {'met' if warm_m <= 0.5 else 'MISSED'}")
    print(f"  cold median {cold_m:.2f} s (bare cold load {base_cold:.3f} s, {cold_m / base_cold:.1f}x)  "
          f"target <= 1.5 s: {'met' if cold_m <= 1.5 else 'MISSED'}")
    print(f"  CPU per warm check, median {med(r[3] for r in rows):.2f} s")
    return 0 if all(r[5] for r in rows) else 1


def main_film(n: int, only: list[str]) -> int:
    from crumb.settings import QASettings

    med = statistics.median
    on, off = QASettings(), QASettings(film_frames=0)
    with_film, without, frames, ok = [], [], [], True
    cpu_on: list[float] = []
    cpu_off: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        games = real_games(Path(tmp), only)
        out = Path(tmp) / "session" / "artifacts" / "qa"
        with QARunner() as qa:
            for gid, game, criteria, controls in games:
                qa.check(game, criteria=criteria, controls=controls, out_dir=out, settings=on)  # warm-up
                mine, base = [], []
                for k in range(2 * n):  # alternating: with, without, with, ... so load swings hit both alike
                    settings = on if k % 2 == 0 else off
                    qa.warm()
                    t, c = time.perf_counter(), cpu_seconds()
                    result = qa.check(game, criteria=criteria, controls=controls, out_dir=out, settings=settings)
                    (mine if settings is on else base).append(time.perf_counter() - t)
                    (cpu_on if settings is on else cpu_off).append(cpu_seconds() - c)
                    ok &= result.ok
                    if settings is on:
                        frames.append(len(result.filmstrip.frames) if result.filmstrip else 0)
                with_film += mine
                without += base
                print(f"  {gid:<14} with filmstrip {med(mine):5.2f} s  without {med(base):5.2f} s  "
                      f"ratio {med(mine) / med(base):4.2f}", flush=True)
    ratio = med(with_film) / med(without)
    print(f"filmstrip cost over {len(games)} genres, {n} warm checks each way, alternating; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {med(frames):g} frames a check (median)")
    print(f"  with {med(with_film):.3f} s  without {med(without):.3f} s  ratio {ratio:.3f}  "
          f"target <= 1.15: {'met' if ratio <= 1.15 else 'MISSED'}")
    print(f"  CPU per check (all QA processes): with {med(cpu_on):.2f} s  without {med(cpu_off):.2f} s  "
          f"ratio {med(cpu_on) / med(cpu_off):.3f}")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=None, help="runs per measurement (default 3 per genre; 10 with --test-game)")
    parser.add_argument("--test-game", action="store_true", help="the small test game instead of every genre's real one")
    parser.add_argument("--only", default="", help="comma-separated genre ids")
    parser.add_argument("--film", action="store_true", help="the filmstrip's cost: with and without, alternating")
    args = parser.parse_args()
    if args.film:
        return main_film(args.n or 3, [g for g in args.only.split(",") if g])
    if not args.test_game:
        return main_real(args.n or 3, [g for g in args.only.split(",") if g])
    n = args.n or 10
    kwargs = dict(criteria=CRITERIA, controls=CONTROLS)

    with QARunner() as qa:
        first = qa.check(GAME, **kwargs)
        if not first.ok:
            print("the good game failed QA; fix that first:\n" + first.model_dump_json(indent=1))
            return 1
        warm, warm_cpu, back = [], [], []
        for _ in range(n):
            qa.warm()
            t, c = time.perf_counter(), cpu_seconds()
            result = qa.check(GAME, **kwargs)
            warm.append(time.perf_counter() - t)
            warm_cpu.append(cpu_seconds() - c)
            assert result.ok, result.model_dump_json(indent=1)
        for _ in range(n):
            back.append(timed(lambda: qa.check(GAME, **kwargs)))
    cold = [timed(lambda: run_qa(GAME, **kwargs)) for _ in range(n)]
    warm_base = asyncio.run(_bare_loads(n, cold=False))
    cold_base = asyncio.run(_bare_loads(n, cold=True))

    med = statistics.median
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"QA on {GAME.relative_to(ROOT)} ({len(CRITERIA)} probes, every check on), median of {n}; "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    rows = [("warm", med(warm), med(warm_base), 1.0), ("cold", med(cold), med(cold_base), 3.0)]
    for name, qa_s, base_s, target in rows:
        print(f"  {name}: QA {qa_s:6.3f} s   bare page load {base_s:6.3f} s   ratio {qa_s / base_s:5.1f}x   "
              f"target <= {target:.1f} s: {'met' if qa_s <= target else 'MISSED'}")
    print(f"  warm CPU per check (all QA processes): {med(warm_cpu):.2f} s on {os.cpu_count()} cores")
    print(f"  back to back (no pause between checks): {med(back):.3f} s")
    print(f"  warm runs: {' '.join(f'{x:.2f}' for x in warm)}")
    print(f"  cold runs: {' '.join(f'{x:.2f}' for x in cold)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
