"""Watcher-level benchmark for issue 3: how fast a saved inbox file becomes a WatchEvent, and what an
idle watcher over many sessions costs.

    .venv/bin/python bench/inbox_latency.py [--drops 200] [--sessions 1000] [--idle-seconds 30] [--json]

1. Latency from close (plain write) or rename (atomic save) of a file in a session inbox to
   `Watcher.get()` returning its event: p50/p99 over N drops each. Baselines, same run, same saves:
   watchdog's usual Observer + FileSystemEventHandler, and its raw inotify reader calling back into a
   threading.Event (the floor).
   Targets (for the whole daemon, file → transcript): p50 ≤ 20 ms, p99 ≤ 100 ms.
2. Idle cost over S session folders for T seconds, in separate processes run side by side: CPU
   (% of one core) and RSS of a watcher (inotify, and polling), against a baseline process that
   imports the same modules and sleeps. Targets (daemon): ≤ 1 % of one core, ≤ 150 MB. The
   polling fallback runs at its default interval (1 s); its baseline, same run, is watchdog's own
   PollingObserver over the same tree at the same interval (a snapshot of the tree each round).

The part "file → event in the transcript" needs the daemon and is measured by the daemon benchmark.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from crumb.daemon.watcher import Watcher


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def summary(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": pct(ms, 50), "p99_ms": pct(ms, 99), "mean_ms": statistics.fmean(ms), "max_ms": max(ms)}


def drop(inbox: Path, i: int, how: str) -> float:
    """Save one file the given way; return perf_counter() at the moment the save completed."""
    if how == "close":
        with open(inbox / f"m{i:04d}.txt", "w") as fh:
            fh.write(f"message {i}\n")
        return time.perf_counter()
    tmp = inbox / f".m{i:04d}.txt.tmp"
    tmp.write_text(f"message {i}\n")
    os.rename(tmp, inbox / f"m{i:04d}.txt")
    return time.perf_counter()


def watcher_latency(root: Path, drops: int, how: str, *, poll: bool = False) -> list[float]:
    sdir = root / "sessions" / "BENCH"
    (sdir / "inbox").mkdir(parents=True, exist_ok=True)
    w = Watcher(root, poll=poll, poll_interval=0.1)
    w.start()
    try:
        while w.get(timeout=0.5) is not None:  # the start-up rescan
            pass
        out = []
        for i in range(drops):
            done = drop(sdir / "inbox", i, how)
            ev = w.get(timeout=10)
            got = time.perf_counter()
            assert ev is not None and ev.path.name == f"m{i:04d}.txt", ev
            out.append((got - done) * 1000)
            os.unlink(ev.path)
        return out
    finally:
        w.stop()


def raw_inotify_latency(folder: Path, drops: int, how: str) -> list[float]:
    """The floor: watchdog's inotify reader calling back straight into a threading.Event."""
    from watchdog.observers.inotify_c import InotifyConstants as C
    from watchdog.observers.inotify_c import InotifyFD

    folder.mkdir(parents=True, exist_ok=True)
    seen = threading.Event()
    stamp = [0.0]
    want = "close" if how == "close" else "moved"

    class Callback:
        def on_event(self, event: Any) -> None:
            if event.name.startswith(b"m") and (event.is_close_write if want == "close" else event.is_moved_to):
                stamp[0] = time.perf_counter()
                seen.set()

        def on_watch_deleted(self, wd: int) -> None: ...

        def on_queue_overflow(self) -> None: ...

    fd = InotifyFD()
    fd.start()
    fd.add_callback(os.fsencode(folder), C.IN_CLOSE_WRITE | C.IN_MOVED_TO, Callback(), 1)
    try:
        out = []
        for i in range(drops):
            seen.clear()
            done = drop(folder, i, how)
            assert seen.wait(10)
            got = time.perf_counter()
            out.append((got - done) * 1000)
            os.unlink(folder / f"m{i:04d}.txt")
        return out
    finally:
        fd.stop()
        fd.join()


def observer_latency(folder: Path, drops: int, how: str) -> list[float]:
    """The usual way to use watchdog: an Observer and a FileSystemEventHandler (one thread per watch)."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    folder.mkdir(parents=True, exist_ok=True)
    seen = threading.Event()

    class Handler(FileSystemEventHandler):
        def on_closed(self, event: Any) -> None:
            if how == "close" and os.path.basename(event.src_path).startswith("m"):
                seen.set()

        def on_moved(self, event: Any) -> None:
            if how == "rename" and os.path.basename(event.dest_path).startswith("m"):
                seen.set()

    observer = Observer()
    observer.schedule(Handler(), str(folder))
    observer.start()
    try:
        out = []
        for i in range(drops):
            seen.clear()
            done = drop(folder, i, how)
            assert seen.wait(10)
            out.append((time.perf_counter() - done) * 1000)
            os.unlink(folder / f"m{i:04d}.txt")
        return out
    finally:
        observer.stop()
        observer.join()


# ---------------------------------------------------------------- idle cost, in child processes

IDLE_CHILD = r"""
import os, sys, time, json
from pathlib import Path
mode, root, seconds = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
from crumb.daemon.watcher import Watcher   # the baseline imports the same code
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
w = None
if mode == "watchdog_poll":
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers.polling import PollingObserver
    observer = PollingObserver(timeout=1.0)
    observer.schedule(FileSystemEventHandler(), str(root), recursive=True)
    observer.start()
elif mode != "baseline":
    w = Watcher(root, poll=(mode == "poll"))
    w.start()
    n = 0
    while w.get(timeout=2.0) is not None:   # drain the start-up rescan
        n += 1
print("ready", flush=True)
sys.stdin.readline()                          # all children start measuring together
c0, t0 = time.process_time(), time.monotonic()
time.sleep(seconds)
cpu, wall = time.process_time() - c0, time.monotonic() - t0
out = {"mode": mode, "cpu_pct": 100 * cpu / wall, "rss_mb": rss_mb(), "threads": len(os.listdir("/proc/self/task"))}
if w is not None:
    out["backend"] = w.backend
    w.stop()
print(json.dumps(out), flush=True)
"""


def make_sessions(root: Path, n: int) -> None:
    for i in range(n):
        sdir = root / "sessions" / f"S{i:05d}"
        (sdir / "inbox").mkdir(parents=True)
        (sdir / "artifacts").mkdir()
        (sdir / "transcript.jsonl").write_text('{"seq": 1}\n')


def idle_costs(root: Path, sessions: int, seconds: float) -> dict[str, dict[str, Any]]:
    make_sessions(root, sessions)
    procs = {
        mode: subprocess.Popen(
            [sys.executable, "-c", IDLE_CHILD, mode, str(root), str(seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        for mode in ("baseline", "inotify", "poll", "watchdog_poll")
    }
    for p in procs.values():
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = {}
    for mode, p in procs.items():
        out, _ = p.communicate(timeout=seconds + 120)
        results[mode] = json.loads(out.strip().splitlines()[-1])
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drops", type=int, default=200)
    ap.add_argument("--poll-drops", type=int, default=40, help="drops for the (slow) polling backend")
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--idle-seconds", type=float, default=30.0)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    args = ap.parse_args(argv)
    logging.getLogger("watchdog").setLevel(logging.CRITICAL)  # its Observer logs a harmless error on stop

    report: dict[str, Any] = {"latency": {}, "idle": {}}
    with tempfile.TemporaryDirectory(prefix="crumb-bench-") as tmp:
        base = Path(tmp)
        for how in ("close", "rename"):
            raw = summary(raw_inotify_latency(base / f"raw-{how}", args.drops, how))
            std = summary(observer_latency(base / f"obs-{how}", args.drops, how))
            crumb = summary(watcher_latency(base / f"w-{how}", args.drops, how))
            report["latency"][how] = {
                "baseline_raw_inotify": raw,
                "baseline_watchdog_observer": std,
                "watcher": crumb,
                # timings below the clock's useful resolution are counted as 0.01 ms
                "ratio_p50_vs_observer": crumb["p50_ms"] / max(std["p50_ms"], 0.01),
                "ratio_p99_vs_observer": crumb["p99_ms"] / max(std["p99_ms"], 0.01),
            }
        report["latency"]["rename_poll"] = {"watcher": summary(watcher_latency(base / "w-poll", args.poll_drops,
                                                                                 "rename", poll=True))}
        report["idle"] = idle_costs(base / "idle", args.sessions, args.idle_seconds)
        idle = report["idle"]
        idle["ratio_poll_vs_watchdog_poll"] = idle["poll"]["cpu_pct"] / max(idle["watchdog_poll"]["cpu_pct"], 0.001)
    report["load_average"] = os.getloadavg()

    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"# watcher latency, save → Watcher.get() (load average {report['load_average'][0]:.1f})")
    for how in ("close", "rename"):
        r = report["latency"][how]
        w, o, b = r["watcher"], r["baseline_watchdog_observer"], r["baseline_raw_inotify"]
        print(f"{how:>7} ({args.drops} drops): watcher p50 {w['p50_ms']:.2f} ms, p99 {w['p99_ms']:.2f} ms "
              f"(max {w['max_ms']:.1f}) | watchdog Observer p50 {o['p50_ms']:.2f}, p99 {o['p99_ms']:.2f} | "
              f"raw inotify p50 {b['p50_ms']:.2f}, p99 {b['p99_ms']:.2f} | watcher/Observer p50 "
              f"{r['ratio_p50_vs_observer']:.2f}x, p99 {r['ratio_p99_vs_observer']:.2f}x")
    p = report["latency"]["rename_poll"]["watcher"]
    print(f"   poll ({args.poll_drops} drops, 0.1 s interval): p50 {p['p50_ms']:.1f} ms, p99 {p['p99_ms']:.1f} ms")
    print(f"# idle over {args.sessions} sessions for {args.idle_seconds:g} s (separate processes, side by side)")
    base_rss = report["idle"]["baseline"]["rss_mb"]
    for mode in ("baseline", "inotify", "poll", "watchdog_poll"):
        r = report["idle"][mode]
        extra = "" if mode == "baseline" else f" | +{r['rss_mb'] - base_rss:.1f} MB over baseline, {r['threads']} threads"
        print(f"{mode:>13}: CPU {r['cpu_pct']:.3f} % of one core, RSS {r['rss_mb']:.1f} MB{extra}")
    print(f"poll / watchdog_poll CPU: {report['idle']['ratio_poll_vs_watchdog_poll']:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
