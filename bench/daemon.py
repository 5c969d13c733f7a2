"""The daemon's speed: inbox file → transcript event latency, and its idle cost over 1,000 sessions.

1. Latency: 200 steering files dropped (atomic rename) into a paused session's inbox; latency is the
   event's `ts` minus the moment of the rename. Targets: p50 <= 20 ms, p99 <= 100 ms. Baseline, same
   run: the cost of one durable transcript append.
2. Idle: a `crumb watch` over 1,000 finished sessions, CPU over 30 s and RSS. Targets: <= 1% of one
   core, <= 150 MB. Baseline, same run: an idle Python process that has imported crumb.

Usage: .venv/bin/python bench/daemon.py [--drops 200] [--sessions 1000] [--idle-seconds 30] [--poll]
(--poll: the daemon runs with its polling backend, as `crumb watch --poll`; latency is then bound by the
poll interval, and the idle figure is the one to read.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ulid import ULID

from crumb.daemon.lock import daemon_status
from crumb.settings import Settings
from crumb.store import paths
from crumb.store.reader import read_events
from crumb.store.writer import TranscriptWriter


def wait_for(cond, timeout: float):
    deadline = time.monotonic() + timeout
    while not (value := cond()):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout}s")
        time.sleep(0.01)
    return value


def make_session(root: Path, *, paused: bool) -> str:
    sid = str(ULID())
    sdir = paths.session_dir(root, sid)
    for sub in ("inbox", "artifacts", "archive"):
        (sdir / sub).mkdir(parents=True)
    w = TranscriptWriter(paths.transcript_path(root, sid), sid, fsync="never")
    w.append("session.start", {"settings": Settings().to_data()}, from_="daemon")
    if paused:
        w.append("user.pause", {}, from_="user")
    else:
        w.append("user.cancel", {}, from_="user")
    return sid


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_watch(root: Path, poll: bool = False) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "watch", "-q", *(["--poll"] if poll else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: daemon_status(root)["running"], 60)
    return proc


def latency(drops: int, poll: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "inbox").mkdir()
        sid = make_session(root, paused=True)
        w = TranscriptWriter(root / "baseline.jsonl", "01JBASELINE000000000000000", fsync="always")
        t = time.perf_counter()
        for i in range(50):
            w.append("note", {"text": f"baseline {i}"})
        append_ms = (time.perf_counter() - t) / 50 * 1000
        proc = start_watch(root, poll)
        try:
            inbox = paths.session_inbox(root, sid)
            dropped: dict[str, float] = {}
            durable: list[float] = []
            for i in range(drops):
                tmp_file = inbox / f".n{i}.tmp"
                tmp_file.write_text(f"/note drop {i}\n")
                target = inbox / f"n{i}.txt"
                dropped[f"drop {i}"] = time.time()
                t0 = time.perf_counter()
                os.replace(tmp_file, target)
                while target.exists():  # archived only after the event is durably appended
                    time.sleep(0.0002)
                durable.append((time.perf_counter() - t0) * 1000)
            events = wait_for(lambda: (ev := [e for e in read_events(paths.transcript_path(root, sid))
                                              if e["kind"] == "user.note"]) and len(ev) >= drops and ev, 60)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    lat = sorted((datetime.fromisoformat(e["ts"]).timestamp() - dropped[e["data"]["text"]]) * 1000 for e in events)
    durable.sort()
    print(f"durable append (baseline)              {append_ms:8.2f} ms")
    for name, values in (("drop -> event stamped", lat), ("drop -> event durable + file archived", durable)):
        p50, p99 = statistics.median(values), values[max(0, int(len(values) * 0.99) - 1)]
        print(f"{name:<38} p50 {p50:7.2f} ms ({p50 / append_ms:.1f}x)  p99 {p99:7.2f} ms ({p99 / append_ms:.1f}x)"
              "   targets p50 <= 20, p99 <= 100")


def idle(n: int, seconds: float, poll: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "inbox").mkdir()
        for _ in range(n):
            make_session(root, paused=False)
        base = subprocess.Popen([sys.executable, "-c", "import crumb.daemon.daemon, time; time.sleep(3600)"])
        proc = start_watch(root, poll)
        try:
            time.sleep(2)  # let start-up replay finish before measuring idle cost
            c0, b0 = cpu_seconds(proc.pid), cpu_seconds(base.pid)
            time.sleep(seconds)
            c1, b1 = cpu_seconds(proc.pid), cpu_seconds(base.pid)
            rss, base_rss = rss_mb(proc.pid), rss_mb(base.pid)
        finally:
            proc.terminate()
            base.kill()
            proc.wait(timeout=30)
    cpu = (c1 - c0) / seconds * 100
    print(f"idle python + crumb (baseline) {100 * (b1 - b0) / seconds:6.2f} % CPU  {base_rss:7.1f} MB RSS")
    print(f"daemon over {n} sessions     {cpu:6.2f} % CPU  {rss:7.1f} MB RSS "
          f"({rss / base_rss:.1f}x baseline RSS; targets <= 1% CPU, <= 150 MB)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--drops", type=int, default=None, help="default 200 (20 with --poll: a drop waits for a poll round)")
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--idle-seconds", type=float, default=30)
    ap.add_argument("--poll", action="store_true", help="run the daemon with its polling backend")
    args = ap.parse_args()
    print(f"backend: {'poll (1 s interval)' if args.poll else 'inotify'}")
    latency(args.drops or (20 if args.poll else 200), args.poll)
    idle(args.sessions, args.idle_seconds, args.poll)


if __name__ == "__main__":
    main()
