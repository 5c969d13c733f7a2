"""`crumb run` wall time, process start to done, median of 5 — beside `python -c "import crumb"`.

Each run is a fresh process in a fresh folder: cold browser, embedded studio, the full QA.
Usage: .venv/bin/python bench/run.py [--runs 5] [--pitch "..."]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time


def timed(argv: list[str], cwd: str) -> float:
    t = time.perf_counter()
    out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {out.returncode}:\n{out.stderr}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pitch", default="60-second match-3 with combo bonus")
    args = ap.parse_args()
    imports, runs = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as root:
            imports.append(timed([sys.executable, "-c", "import crumb"], root))
            runs.append(timed([sys.executable, "-m", "crumb", "--root", root, "run", args.pitch], root))
    base, run = statistics.median(imports), statistics.median(runs)
    print(f"python -c 'import crumb' (baseline)  median {base:6.2f} s")
    print(f"crumb run {args.pitch!r:<40} median {run:6.2f} s  ({run / base:.0f}x baseline; target < 10 s)")


if __name__ == "__main__":
    main()
