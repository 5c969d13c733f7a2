"""`crumb run` on the embedded default, every genre of the catalogue, cold and warm, against the floor.

cold: a fresh `crumb run` process in a fresh folder, no daemon and no browser running (the file cache
      may be warm): interpreter start, imports, plan, build, the full QA in a browser it launches, verdict.
warm: `crumb run` handing its pitch to a `crumb watch` daemon already running on the folder, whose
      browser is warm (one pitch ran before the timed ones).
floor: what no tool that checks a real game in a real browser can beat, measured in the same run:
      `python -c pass` plus the same Chromium headless shell QA uses loading that genre's game page
      cold (process start to the page's DOM dumped after load).

Targets (issue 18): cold median <= 2.0 s and <= 2.2 x the floor; warm median <= 1.3 s.
Usage: .venv/bin/python bench/run.py [--runs 1] [--only snake,pong] [--json]
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crumb.daemon.lock import daemon_status  # noqa: E402
from crumb.genres import genres  # noqa: E402
from crumb.qa.browser import find_chromium  # noqa: E402

PY = sys.executable
COLD_TARGET_S, WARM_TARGET_S, FLOOR_RATIO = 2.0, 1.3, 2.2


#: `crumb run`'s exit codes for a session that ended or waits for a person (a PARTIAL): all a finished run
SETTLED = (0, 1, 3, 4)


def as_installed() -> None:
    """Bytecode as an installed crumb has it (pip writes the .pyc files). Without them (a checkout run with
    PYTHONDONTWRITEBYTECODE=1) every fresh process compiles what it imports: 55 modules, ~60 ms of
    `crumb pitch` alone, which no user pays."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the processes started below inherit it
    compileall.compile_dir(ROOT / "crumb", quiet=1)


def timed(argv: list[str], cwd: str | None = None, ok: tuple[int, ...] = (0,)) -> float:
    t = time.perf_counter()
    out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - t
    if out.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} exited {out.returncode}:\n{out.stderr[-2000:]}")
    return elapsed


def pitch_for(genre_id: str) -> str:
    """The genre's own first example pitch (each genre folder lists pitches its Planner must read as it)."""
    return next(g for g in genres() if g.id == genre_id).pitches[0]


def crumb(root: str, *args: str) -> list[str]:
    return [PY, "-m", "crumb", "--root", root, *args]


def game_page(root: str) -> Path:
    return next(Path(root, "sessions").glob("*/artifacts/game/index.html"))


def page_load_s(chromium: Path, page: Path) -> float:
    """A cold headless-shell start that loads the game page and dumps its DOM after load."""
    with tempfile.TemporaryDirectory() as profile:
        return timed([str(chromium), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                      f"--user-data-dir={profile}", "--dump-dom", page.as_uri()])


@contextlib.contextmanager
def watching(root: str) -> Iterator[subprocess.Popen[bytes]]:
    """`crumb watch` on `root`, yielded once it holds the root (`crumb run` then follows it), stopped after."""
    proc = subprocess.Popen(crumb(root, "watch"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not daemon_status(Path(root))["running"]:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit(f"crumb watch did not start on {root}")
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


class WarmDaemon:
    """`crumb watch` on a folder of its own, warmed by one pitch before any timed run."""

    def __init__(self) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="crumb-bench-warm-")
        self.root = self.dir.name
        self.stack = contextlib.ExitStack()
        self.stack.enter_context(watching(self.root))
        timed(crumb(self.root, "run", "snake with 3 lives"), ok=SETTLED)

    def run(self, pitch: str) -> float:
        return timed(crumb(self.root, "run", pitch), ok=SETTLED)

    def close(self) -> None:
        self.stack.close()
        self.dir.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="timed runs per genre and mode (the median is kept)")
    ap.add_argument("--only", default="", help="comma-separated genre ids")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    as_installed()
    ids = sorted(g.id for g in genres())
    if args.only:
        ids = [i for i in ids if i in args.only.split(",")]
    chromium = find_chromium()
    starts = [timed([PY, "-c", "pass"]) for _ in range(5)]
    python_s = statistics.median(starts)
    warm = WarmDaemon()
    rows = []
    try:
        for gid in ids:
            pitch = pitch_for(gid)
            cold, loads = [], []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="crumb-bench-cold-") as root:
                    cold.append(timed(crumb(root, "run", pitch), cwd=root, ok=SETTLED))
                    loads.append(page_load_s(chromium, game_page(root)))
            warm_s = statistics.median(warm.run(pitch) for _ in range(args.runs))
            floor = python_s + statistics.median(loads)
            rows.append({"genre": gid, "pitch": pitch, "cold_s": round(statistics.median(cold), 3),
                         "warm_s": round(warm_s, 3), "floor_s": round(floor, 3),
                         "cold_x_floor": round(statistics.median(cold) / floor, 2)})
            if not args.json:
                r = rows[-1]
                print(f"  {gid:<14} cold {r['cold_s']:5.2f} s  warm {r['warm_s']:5.2f} s  floor {r['floor_s']:5.2f} s"
                      f"  cold/floor {r['cold_x_floor']:4.2f}", flush=True)
    finally:
        warm.close()
    cold_m = statistics.median(r["cold_s"] for r in rows)
    warm_m = statistics.median(r["warm_s"] for r in rows)
    ratio_m = statistics.median(r["cold_x_floor"] for r in rows)
    summary = {"genres": len(rows), "python_c_pass_s": round(python_s, 3), "cold_median_s": round(cold_m, 3),
               "warm_median_s": round(warm_m, 3), "cold_x_floor_median": ratio_m,
               "load_average": round(os.getloadavg()[0], 1), "rows": rows}
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    met = lambda ok: "met" if ok else "MISSED"  # noqa: E731
    print(f"python -c pass (baseline) {python_s:.3f} s; {len(rows)} genres, load average {summary['load_average']}")
    print(f"crumb run cold, median  {cold_m:5.2f} s   target <= {COLD_TARGET_S} s: {met(cold_m <= COLD_TARGET_S)}")
    print(f"cold / floor, median    {ratio_m:5.2f} x   target <= {FLOOR_RATIO} x: {met(ratio_m <= FLOOR_RATIO)}")
    print(f"crumb run warm, median  {warm_m:5.2f} s   target <= {WARM_TARGET_S} s: {met(warm_m <= WARM_TARGET_S)}")


if __name__ == "__main__":
    main()
