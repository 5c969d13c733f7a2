"""Where one warm QA check's CPU goes, per process kind: this Python process, Playwright's driver (node),
Chromium's browser process, its renderers, its GPU process, its other helpers (network, storage...).

Run: .venv/bin/python bench/tools/qa_profile.py [--only match3,snake] [-n 3]
Prints, per genre, the median CPU seconds of each kind over n warm checks (from /proc, all threads,
reaped children included in the parents' cutime only for processes that ended).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from crumb.qa import QARunner  # noqa: E402


def kind(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "gone"
    text = b" ".join(cmd)
    if pid == os.getpid():
        return "python"
    if b"run-driver" in text or b"node" in cmd[0]:
        return "driver"
    if b"--type=renderer" in text:
        return "renderer"
    if b"--type=gpu-process" in text:
        return "gpu"
    if b"--type=" in text:
        return "helper"
    if b"chrom" in text:
        return "browser"
    return "other"


def snapshot() -> dict[int, tuple[str, float]]:
    from crumb import procfs

    own = os.times()
    out = {os.getpid(): ("python", own.user + own.system)}
    for pid in procfs.descendants(os.getpid()):
        if (cpu := procfs.cpu_s(pid)) is not None:  # gone meanwhile: it counts in neither snapshot
            out[pid] = (kind(pid), cpu)
    return out


def diff(a: dict[int, tuple[str, float]], b: dict[int, tuple[str, float]]) -> dict[str, float]:
    by: dict[str, float] = defaultdict(float)
    for pid, (k, cpu) in b.items():
        by[k] += cpu - (a[pid][1] if pid in a else 0.0)
    return by


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="match3,pong,snake,whack")
    parser.add_argument("-n", type=int, default=3)
    args = parser.parse_args()
    from bench.qa import real_games

    only = [g for g in args.only.split(",") if g]
    kinds = ("python", "driver", "browser", "renderer", "gpu", "helper", "other")
    print(f"load average {open('/proc/loadavg').read().split()[:3]}")
    print(f"{'genre':<14} {'wall':>6} {'total':>6} " + " ".join(f"{k:>8}" for k in kinds))
    with tempfile.TemporaryDirectory() as tmp:
        games = real_games(Path(tmp), only)
        with QARunner() as qa:
            for gid, game, criteria, controls in games:
                qa.check(game, criteria=criteria, controls=controls)
                rows, walls = [], []
                for _ in range(args.n):
                    qa.warm()
                    a, t = snapshot(), time.perf_counter()
                    qa.check(game, criteria=criteria, controls=controls)
                    walls.append(time.perf_counter() - t)
                    rows.append(diff(a, snapshot()))
                med = {k: statistics.median(r.get(k, 0.0) for r in rows) for k in kinds}
                total = statistics.median(sum(r.values()) for r in rows)
                print(f"{gid:<14} {statistics.median(walls):6.2f} {total:6.2f} "
                      + " ".join(f"{med[k]:8.2f}" for k in kinds), flush=True)
    print(f"load average {open('/proc/loadavg').read().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
