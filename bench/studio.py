"""Studio speed: append → page latency over SSE, and what 50 open tabs cost the daemon.

1. Latency. A real `crumb studio` (subprocess) and a real Chromium page on a session. The bench appends
   events with TranscriptWriter at jittered intervals and takes each event's arrival time from the page
   (window.__studio.arrivals, stamped when the row is added to the timeline); a raw SSE socket client
   measures the transport alone. Target: p50 < 100 ms.
2. Daemon-side cost. A daemon-like worker process appends events and tails them (TranscriptWriter +
   Cursor, what `crumb watch` does per event) while we time it under three conditions, alternating
   in a rotating order so drift in other load on the machine cancels out:
     baseline  no Studio working (frozen with SIGSTOP: it costs nothing, as if absent)
     idle      Studio running, no tab open
     tabs      Studio + N tabs (each: one detail fetch on open, then one SSE stream carrying events and panels, like session.js)
   Reported as medians, as ratios to the baseline (of the medians, and the median of per-round ratios),
   and the Studio's own CPU time per append. The idle condition is the control: the idle Studio does
   almost nothing, so how far its ratio strays from 1.0 is the noise floor of the machine. The worker appends with fsync="never": the cheapest possible
   append, so any slowdown the Studio causes shows up as large as it can.

Usage: .venv/bin/python bench/studio.py [--events 200] [--tabs 50] [--rounds 40] [--appends 250]
Writes bench/out/studio.json.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crumb.qa import find_chromium  # noqa: E402
from crumb.qa.browser import LAUNCH_ARGS  # noqa: E402
from crumb.store.paths import transcript_path  # noqa: E402
from crumb.store.reader import Cursor  # noqa: E402
from crumb.store.writer import TranscriptWriter  # noqa: E402
from tests.studio.scripted import Scripted  # noqa: E402

OUT = Path(__file__).resolve().parent / "out"
CLI = [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')"]


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


# ---------------------------------------------------------------- the Studio, as a user runs it


class StudioProcess:
    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen([*CLI, "--root", str(root), "studio", "--port", "0", "--no-open"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        m = re.search(r"(http://[\d.]+:(\d+)/)", line)
        if not m:
            self.stop()
            raise SystemExit(f"the Studio did not start: {line!r}")
        self.url, self.port = m.group(1), int(m.group(2))

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Tab:
    """What one open session page does to the server: one SSE stream, which carries the events and
    the changed panels (the page fetches the session's detail only once, when it opens)."""

    def __init__(self, host: str, port: int, session: str) -> None:
        self.host, self.port, self.session = host, port, session
        self.arrivals: dict[int, float] = {}
        self.stop = threading.Event()
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        # This thread stands in for a browser tab on the person's side; at the lowest priority, so what the
        # daemon loses shows the Studio's cost (its fan-out to 50 streams), not this bench's own readers.
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        try:
            detail = http.client.HTTPConnection(self.host, self.port, timeout=60)
            detail.request("GET", f"/api/sessions/{self.session}")
            detail.getresponse().read()
            detail.close()
            self.conn.request("GET", f"/api/sessions/{self.session}/stream?after=0")
            resp = self.conn.getresponse()
            while not self.stop.is_set():
                line = resp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.arrivals[int(line[4:])] = time.time()
        except Exception as err:  # noqa: BLE001 - closed by close()
            if not self.stop.is_set():
                print(f"tab stream ended: {err!r}", file=sys.stderr)

    def close(self) -> None:
        self.stop.set()
        if self.conn.sock is not None:
            try:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conn.close()


# ---------------------------------------------------------------- 1. latency


def latency(root: Path, events: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    s = Scripted(root).to_partial()
    studio = StudioProcess(root)
    raw = Tab("127.0.0.1", studio.port, s.session)
    appended: dict[int, float] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(find_chromium()), headless=True, args=LAUNCH_ARGS)
            page = browser.new_page()
            page.goto(f"{studio.url}s/{s.session}")
            page.wait_for_function("() => window.__studio && window.__studio.connects >= 1")
            rnd = random.Random(7)
            for i in range(events):
                ev = s.writer.append("note", {"text": f"bench {i}"}, body=f"bench {i}")
                appended[ev["seq"]] = time.time()
                time.sleep(rnd.uniform(0.02, 0.08))
            last = max(appended)
            page.wait_for_function(f"() => window.__studio.lastSeq >= {last}", timeout=60_000)
            arrivals = page.evaluate("window.__studio.arrivals")
            browser.close()
        deadline = time.monotonic() + 10
        while max(raw.arrivals, default=0) < last and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        raw.close()
        studio.stop()
    page_ms = [float(arrivals[str(q)]) - t * 1000 for q, t in appended.items()]
    sse_ms = [(raw.arrivals[q] - t) * 1000 for q, t in appended.items() if q in raw.arrivals]
    return {
        "events": events,
        "page_ms": {"p50": round(pct(page_ms, 50), 1), "p90": round(pct(page_ms, 90), 1),
                    "p99": round(pct(page_ms, 99), 1), "max": round(max(page_ms), 1)},
        "sse_ms": {"p50": round(pct(sse_ms, 50), 1), "p99": round(pct(sse_ms, 99), 1), "n": len(sse_ms)},
    }


# ---------------------------------------------------------------- 2. daemon-side cost


def worker(path: str, session: str) -> None:
    """The daemon's per-event work: a validated append under the lock, then read back from the tail.

    Runs as one long-lived process taking "N" lines on stdin, so conditions can alternate quickly.
    """
    w = TranscriptWriter(Path(path), session, fsync="never")
    cur = Cursor(Path(path))
    cur.read_new()
    i = 0
    for line in sys.stdin:
        n = int(line)
        cpu0, t0 = time.process_time(), time.perf_counter()
        for _ in range(n):
            i += 1
            if i % 5 == 0:  # one in five changes a panel (every open tab then refetches the detail)
                w.append("budget.warning", {"budget": "tokens", "used": i, "limit": 10**6})
            else:
                w.append("progress", {"effect_id": "bench.1", "actor": "builder", "message": f"step {i}"},
                         from_="builder")
            cur.read_new()
        print(json.dumps({"wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - cpu0}), flush=True)


class Worker:
    def __init__(self, root: Path, session: str) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(transcript_path(root, session)),
                                      session], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, appends: int) -> dict[str, float]:
        self.proc.stdin.write(f"{appends}\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return json.loads(self.proc.stdout.readline())  # type: ignore[union-attr,no-any-return]

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait(10)


def daemon_cost(root: Path, tabs: int, rounds: int, appends: int) -> dict[str, Any]:
    """Time the daemon's work with no Studio, an idle Studio and a Studio serving `tabs` tabs.

    Two Studio processes run: A with the tabs connected, B with none. A frozen process (SIGSTOP) costs
    nothing, so each condition is a choice of which one runs: baseline = both frozen, idle = B, tabs = A.
    That lets the conditions alternate quickly, in a rotating order, and be compared round by round.
    """
    s = Scripted(root).to_partial()
    path = transcript_path(root, s.session)
    a, b = StudioProcess(root), StudioProcess(root)
    work = Worker(root, s.session)
    open_tabs = [Tab("127.0.0.1", a.port, s.session) for _ in range(tabs)]
    results: dict[str, list[dict[str, float]]] = {"baseline": [], "idle": [], "tabs": []}
    studio_cpu: dict[str, list[float]] = {"idle": [], "tabs": []}
    caught_up: list[bool] = []

    def last_seq() -> int:
        c = Cursor(path)
        c.read_new()
        return c.seq

    def settle() -> None:
        """Both Studios running until every tab has every line: nothing spills into the next timing."""
        end, deadline = last_seq(), time.monotonic() + 60
        while time.monotonic() < deadline and not all(t.arrivals.get(end) for t in open_tabs):
            time.sleep(0.02)
        caught_up.append(all(t.arrivals.get(end) for t in open_tabs))

    try:
        settle()
        order = ["baseline", "idle", "tabs"]
        for r in range(rounds):
            for cond in order[r % 3:] + order[: r % 3]:
                running = {"baseline": [], "idle": [b], "tabs": [a]}[cond]
                for proc in (a, b):
                    os.kill(proc.proc.pid, signal.SIGCONT if proc in running else signal.SIGSTOP)
                c0 = [p.cpu_s() for p in running]
                results[cond].append(work.run(appends))
                for proc in (a, b):
                    os.kill(proc.proc.pid, signal.SIGCONT)
                settle()
                if running:  # its CPU until every tab had every line (catch-up after a freeze is not counted
                    studio_cpu[cond].append(running[0].cpu_s() - c0[0])  # here: that is in another condition)
    finally:
        work.close()
        for proc in (a, b):
            os.kill(proc.proc.pid, signal.SIGCONT)
        for t in open_tabs:
            t.close()
        a.stop()
        b.stop()

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in results[name])

    def paired(name: str, key: str) -> float:
        return statistics.median(x[key] / y[key] for x, y in zip(results[name], results["baseline"]))

    return {
        "tabs": tabs, "rounds": rounds, "appends_per_round": appends,
        "daemon_us_per_append": {n: round(med(n, "wall_s") / appends * 1e6, 1) for n in results},
        "daemon_wall_ratio_of_medians": {n: round(med(n, "wall_s") / med("baseline", "wall_s"), 3) for n in ("idle", "tabs")},
        "daemon_wall_ratio_paired": {n: round(paired(n, "wall_s"), 3) for n in ("idle", "tabs")},
        "daemon_cpu_ratio_of_medians": {n: round(med(n, "cpu_s") / med("baseline", "cpu_s"), 3) for n in ("idle", "tabs")},
        "studio_cpu_ms_per_append": {n: round(statistics.median(v) / appends * 1000, 3) for n, v in studio_cpu.items()},
        "every_tab_got_every_event": all(caught_up),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=200, help="events appended for the latency run")
    ap.add_argument("--tabs", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--appends", type=int, default=250, help="daemon appends timed per condition and round")
    ap.add_argument("--worker", nargs=2, metavar=("PATH", "SESSION"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1])
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result = {"latency": latency(root, args.events),
                  "daemon_cost": daemon_cost(root, args.tabs, args.rounds, args.appends),
                  "machine": {"cpus": os.cpu_count(), "load_avg": os.getloadavg()}}
    OUT.mkdir(exist_ok=True)
    (OUT / "studio.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
