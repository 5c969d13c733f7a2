"""Throughput: N pitch files dropped at once into the inbox of a running `crumb watch` (embedded studio).

Every pitch must reach the end (done, or a PARTIAL waiting for a person); the figures are sessions per
minute from the drop to the last one settled, each session's time from the drop to settled (the
slowest one says whether any was starved), and the peak RSS of the daemon alone and of the daemon with
its browser (summed RSS, so shared pages count more than once). The baseline, in the same run: one pitch alone through the same warm daemon, as sessions
per minute. Target (issue 18): >= 40 sessions/min on 2 cores, none starved.
Usage: .venv/bin/python bench/throughput.py [-n 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import as_installed, watching  # noqa: E402
from crumb.cli.verdict import outcome, settled  # noqa: E402
from crumb.genres import genres  # noqa: E402
from crumb.reducer.replay import replay_file  # noqa: E402
from crumb.store.reader import TranscriptError, read_events  # noqa: E402

TARGET_PER_MIN = 40.0
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


def tree(pid: int) -> list[int]:
    from crumb import procfs

    return [pid, *procfs.descendants(pid)]


class Peak(threading.Thread):
    """Samples the daemon's RSS and its whole process tree's every 100 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.own, self.all, self.stop = pid, 0.0, 0.0, threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.1):
            self.own = max(self.own, rss_mb(self.pid))
            self.all = max(self.all, sum(rss_mb(p) for p in tree(self.pid)))


def drop(inbox: Path, pitches: list[str]) -> float:
    """Write every pitch aside, then rename them all in: the daemon sees them arrive at once."""
    staged = []
    for n, text in enumerate(pitches):
        tmp = inbox.parent / f".stage-{n}.txt"
        tmp.write_text(text + "\n", encoding="utf-8")
        staged.append((tmp, inbox / f"pitch-{n:02d}.txt"))
    t = time.monotonic()
    for tmp, final in staged:
        os.rename(tmp, final)
    return t


def sessions(root: Path) -> set[str]:
    return {p.name for p in (root / "sessions").glob("*")} if (root / "sessions").exists() else set()


def verdicts(root: Path, sids: set[str]) -> Counter[str]:
    """How the sessions ended ("PASS", "PARTIAL", "done error", ...), "QA error" for every QA check that
    could not judge its game (a fast batch of failed checks is not throughput), and "QA rechecked" for
    every check QA ran twice (a stall, or a page killed for memory in the shared browser: qa/turns.py)."""
    tally: Counter[str] = Counter()
    for sid in sids:
        transcript = root / "sessions" / sid / "transcript.jsonl"
        ended = outcome(root, replay_file(transcript))
        tally[str(ended["verdict"] or ended["done"])] += 1
        for event in read_events(transcript):
            data = (event.get("data") or {}) if event["kind"] == "qa.result" else {}
            tally.update(["QA error"] * bool(data.get("error")) + ["QA rechecked"] * bool(data.get("rechecked")))
    return tally


def settle_times(root: Path, since: float, count: int, timeout: float, known: set[str]) -> list[float]:
    """Seconds from `since` until each of `count` new sessions (not in `known`) settled, polled every 50 ms."""
    done: dict[str, float] = dict.fromkeys(known, -1.0)
    count += len(known)
    deadline = time.monotonic() + timeout
    while len(done) < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {len(done)} of {count} sessions settled within {timeout:g} s")
        for transcript in (root / "sessions").glob("*/transcript.jsonl"):
            sid = transcript.parent.name
            if sid in done:
                continue
            try:
                if settled(replay_file(transcript)):
                    done[sid] = time.monotonic() - since
            except TranscriptError:
                continue
        time.sleep(0.05)
    return sorted(t for sid, t in done.items() if sid not in known)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=20, help="pitch files dropped at once (default 20)")
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    as_installed()
    examples = [g.pitches[0] for g in sorted(genres(), key=lambda g: g.id)]
    pitches = [examples[i % len(examples)] for i in range(args.n)]
    with tempfile.TemporaryDirectory(prefix="crumb-bench-throughput-") as tmp:
        root = Path(tmp)
        (root / "inbox").mkdir()
        with watching(tmp) as proc:
            # the baseline: one pitch alone through the same daemon, warm after a first one
            for _ in range(2):
                alone = settle_times(root, drop(root / "inbox", [pitches[0]]), 1, args.timeout, sessions(root))[0]
            peak = Peak(proc.pid)
            peak.start()
            known = sessions(root)
            batch = settle_times(root, drop(root / "inbox", pitches), args.n, args.timeout, known)
            peak.stop.set()
        ended = verdicts(root, sessions(root) - known)
    wall = max(batch)
    rate, base_rate = args.n / wall * 60, 60 / alone
    load = os.getloadavg()[0]
    print(f"{args.n} pitches dropped at once into a running daemon, {os.cpu_count()} cores, load average {load:.1f}")
    print(f"  all settled in {wall:.1f} s: {rate:.1f} sessions/min (one alone: {alone:.2f} s = {base_rate:.1f}/min; "
          f"ratio {rate / base_rate:.2f})   target >= {TARGET_PER_MIN:g}/min: {'met' if rate >= TARGET_PER_MIN else 'MISSED'}")
    print(f"  drop to settled per session: p50 {statistics.median(batch):.1f} s, slowest {wall:.1f} s, "
          f"fastest {min(batch):.1f} s")
    print(f"  peak RSS: daemon {peak.own:.0f} MB, daemon + browser {peak.all:.0f} MB (summed over processes)")
    print(f"  how they ended: {', '.join(f'{name} {count}' for name, count in sorted(ended.items()))}")
    if ended["QA error"]:
        raise SystemExit(f"{ended['QA error']} QA checks could not judge their game: these figures are not throughput")


if __name__ == "__main__":
    main()
