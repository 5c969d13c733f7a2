"""CLI start: median of N fresh processes of `crumb --help`, `ls`, `status`, `steer`, beside `python -c pass`.

Target (issue 18): each ≤ 0.2 s and ≤ 4 × `python -c pass` measured in the same run. The commands
run on a temporary root holding one real finished session (made once with `crumb run`, a few
seconds); the runs are interleaved, so a load that comes and goes weighs on every command alike.
Each case runs once unmeasured first, with bytecode caching on whatever PYTHONDONTWRITEBYTECODE says:
an installed crumb starts from its .pyc files, and compiling ~100 modules would be most of the figure.
A report: it exits 0 whatever the figures.
Usage: .venv/bin/python bench/cli.py [--runs 15] [--pitch "..."]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent  # the cwd of every run: `-m crumb` is this checkout's crumb
TARGET_S = 0.2
TARGET_RATIO = 4.0
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str]) -> float:
    t = time.perf_counter()
    out = subprocess.run(argv, cwd=REPO, env=ENV, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {out.returncode}:\n{out.stderr}")
    return elapsed


def make_session(root: str, pitch: str) -> str:
    """One finished session in `root`, made the way a person would: its id."""
    crumb = [sys.executable, "-m", "crumb", "--root", root]
    subprocess.run([*crumb, "run", pitch], cwd=REPO, capture_output=True, text=True, timeout=600)
    sessions = subprocess.run([*crumb, "ls"], cwd=REPO, capture_output=True, text=True, timeout=60).stdout.split()
    if not sessions:
        raise SystemExit(f"`crumb run {pitch!r}` made no session in {root}")
    return sessions[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--pitch", default="snake with 3 lives")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as root:
        session = make_session(root, args.pitch)
        crumb = [sys.executable, "-m", "crumb", "--root", root]
        cases = {
            "python -c pass (baseline)": [sys.executable, "-c", "pass"],
            "crumb --help": [*crumb, "--help"],
            "crumb ls": [*crumb, "ls"],
            "crumb status ID": [*crumb, "status", session],
            "crumb steer ID 'faster'": [*crumb, "steer", session, "faster"],
        }
        for argv in cases.values():
            timed(argv)  # warm: writes the .pyc files, fills the file cache
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, argv in cases.items():
                times[name].append(timed(argv))
    medians = {name: statistics.median(t) for name, t in times.items()}
    base = medians["python -c pass (baseline)"]
    print(f"median of {args.runs} fresh processes each; target ≤ {TARGET_S} s and ≤ {TARGET_RATIO:g} × baseline")
    for name, m in medians.items():
        ok = "" if name.startswith("python") else ("  ok" if m <= TARGET_S and m <= TARGET_RATIO * base else "  MISSED")
        print(f"{name:<28} {m:6.3f} s  {m / base:5.1f} x baseline{ok}")


if __name__ == "__main__":
    main()
