"""Studio speed: append → page latency over SSE, and what 50 open tabs cost the daemon.

1. latency: a real `crumb studio` (subprocess) and a real Chromium page on a session. The bench appends
   events with TranscriptWriter at jittered intervals and takes each event's arrival time from the page
   (window.__studio.arrivals, stamped when the row is added to the timeline); a raw SSE socket client
   measures the transport alone. Target: p50 < 100 ms.
2. live: a real `crumb watch` daemon records steering files dropped one after another into the session
   the tabs watch (each renamed into the inbox, timed until the daemon has appended the event durably
   and archived the file), so every event it writes is streamed to every tab. `browser` does the same
   with real Chromium tabs in one browser: one shown, the others in the background.
3. burst: a daemon-like worker process appends 250 events at a time and tails them (TranscriptWriter +
   Follower, what `crumb watch` does per event) with fsync="never": the cheapest append, so a slowdown
   the Studio causes shows up as large as it can.

In 2 and 3 the daemon is timed under three conditions, alternating in a rotating order so drift in
other load on the machine cancels out:
     baseline  no Studio working (frozen with SIGSTOP: it costs nothing, as if absent)
     idle      Studio running, no tab open
     tabs      Studio + N tabs, each one detail fetch on open and then one SSE stream (events and panels),
               as session.js does; the tabs read in a process of their own at the lowest priority (a
               browser is a process of its own), so the bench's own reading does not hold its GIL
Reported as ratios to the baseline (paired per round, or of pooled percentiles), and the Studio's own
CPU time per unit of the daemon's work. The idle condition is the control: the idle Studio does almost
nothing, so how far its ratio strays from 1.0 is the noise floor of the machine.

Usage: .venv/bin/python bench/studio.py [--only latency|live|browser|burst] [--events 200] [--tabs 50] [--rounds 40]
       [--drops 40] [--appends 250]
Writes bench/out/studio.json (studio-PART.json with --only).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.daemon import cpu_seconds, start_watch
from crumb.qa import find_chromium
from crumb.qa.browser import LAUNCH_ARGS
from crumb.store.follow import Follower
from crumb.store.paths import session_inbox, transcript_path
from crumb.store.writer import TranscriptWriter
from tests.studio.conftest import VISIBILITY
from tests.studio.scripted import Scripted

OUT = Path(__file__).resolve().parent / "out"
CLI = [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')"]


SSE_ID = re.compile(rb"(?m)^id: (\d+)\n")


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
        self.sock: socket.socket | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        # This thread stands in for a browser tab on the person's side, reading as a browser's network stack
        # does (whole chunks, ids picked out in C), at the lowest priority: what the daemon loses shows the
        # Studio's cost (its fan-out to 50 streams), not this bench's own readers.
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        try:
            detail = http.client.HTTPConnection(self.host, self.port, timeout=60)
            detail.request("GET", f"/api/sessions/{self.session}")
            detail.getresponse().read()
            detail.close()
            sock = self.sock = socket.create_connection((self.host, self.port), timeout=60)
            sock.sendall(f"GET /api/sessions/{self.session}/stream?after=0 HTTP/1.1\r\n"
                         f"Host: {self.host}:{self.port}\r\n\r\n".encode())
            tail = b""
            while not self.stop.is_set():
                data = sock.recv(1 << 16)
                if not data:
                    return
                now = time.time()
                tail = tail[-32:] + data  # an id line may be split across two reads (seen twice: first time kept)
                for seq in SSE_ID.findall(tail):
                    self.arrivals.setdefault(int(seq), now)
        except Exception as err:
            if not self.stop.is_set():
                print(f"tab stream ended: {err!r}", file=sys.stderr)

    def close(self) -> None:
        self.stop.set()
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()


def tabs_process(port: int, session: str, n: int) -> None:
    """`n` tabs in a process of their own (a browser is one): their reading never holds the bench's GIL
    while it times the daemon. Answers "SEQ" on stdin with 1 once every tab has line SEQ (0 after 60 s)."""
    os.nice(19)
    tabs = [Tab("127.0.0.1", port, session) for _ in range(n)]
    for line in sys.stdin:
        seq, deadline = int(line), time.monotonic() + 60
        while time.monotonic() < deadline and not all(t.arrivals.get(seq) for t in tabs):
            time.sleep(0.01)
        print(int(all(t.arrivals.get(seq) for t in tabs)), flush=True)
    for t in tabs:
        t.close()


class TabsProcess:
    def __init__(self, port: int, session: str, n: int) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--tabs-process", str(port), session, str(n)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def have(self, seq: int) -> bool:
        """Wait until every tab has line `seq`; False if one still lacks it after 60 s."""
        self.proc.stdin.write(f"{seq}\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return self.proc.stdout.readline().strip() == "1"  # type: ignore[union-attr]

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class BrowserTabs:
    """`n` real Chromium tabs on the session in one browser, as a person has them: one shown, the others in
    the background. Headless pages are always visible, so each background one is told it is hidden
    before its script runs (as a tab opened in the background is) and, once it has painted, frozen
    through CDP: a browser runs no animation frames in a background tab, and without that the game
    preview of each of them would play at 60 frames a second."""

    def __init__(self, port: int, session: str, n: int) -> None:
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=str(find_chromium()), headless=True, args=LAUNCH_ARGS)
        ctx = self.browser.new_context()
        url = f"http://127.0.0.1:{port}/s/{session}"
        t0 = time.perf_counter()
        self.shown = ctx.new_page()
        self.shown.goto(url)
        self.shown.wait_for_function("() => window.__studio && window.__studio.connects >= 1")
        for _ in range(n - 1):
            page = ctx.new_page()
            page.add_init_script(f"({VISIBILITY})(false);")
            page.goto(url)
            page.wait_for_function("() => window.__studio && window.__studio.pauses >= 1")
            ctx.new_cdp_session(page).send("Page.setWebLifecycleState", {"state": "frozen"})
        self.open_s = time.perf_counter() - t0

    def have(self, seq: int) -> bool:
        try:
            self.shown.wait_for_function(f"() => window.__studio.lastSeq >= {seq}", timeout=60_000)
            return True
        except Exception:
            return False

    def close(self) -> None:
        self.browser.close()
        self.pw.stop()


# ---------------------------------------------------------------- 1. latency


def latency(root: Path, events: int, others: int = 0) -> dict[str, Any]:
    """With `others` more tabs open on the session (so many that lines wait for a pause in the writing)."""
    from playwright.sync_api import sync_playwright

    s = Scripted(root).to_partial()
    studio = StudioProcess(root)
    crowd = TabsProcess(studio.port, s.session, others) if others else None
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
        if crowd is not None:
            crowd.close()
        studio.stop()
    page_ms = [float(arrivals[str(q)]) - t * 1000 for q, t in appended.items()]
    sse_ms = [(raw.arrivals[q] - t) * 1000 for q, t in appended.items() if q in raw.arrivals]
    return {
        "events": events, "other_tabs": others,
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
    cur = Follower(Path(path))
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


class Conditions:
    """Two Studio processes: A with the tabs connected, B with none. A frozen process (SIGSTOP) costs
    nothing, so each condition is a choice of which one runs: baseline = both frozen, idle = B, tabs = A.
    That lets the conditions alternate quickly, in a rotating order, and be compared round by round.
    """

    NAMES = ("baseline", "idle", "tabs")

    def __init__(self, root: Path, session: str, tabs: int, browser: bool = False) -> None:
        self.path = transcript_path(root, session)
        self.a, self.b = StudioProcess(root), StudioProcess(root)
        self.tabs: TabsProcess | BrowserTabs = (BrowserTabs if browser else TabsProcess)(self.a.port, session, tabs)
        self.results: dict[str, list[dict[str, Any]]] = {n: [] for n in self.NAMES}
        self.studio_cpu: dict[str, list[float]] = {"idle": [], "tabs": []}
        self.caught_up: list[bool] = []

    def settle(self) -> None:
        """Both Studios running until every tab has every line: nothing spills into the next timing."""
        c = Follower(self.path)
        c.read_new()
        self.caught_up.append(self.tabs.have(c.seq))

    def run(self, rounds: int, measure: Callable[[], dict[str, Any]]) -> None:
        a, b = self.a, self.b
        try:
            self.settle()
            for r in range(rounds):
                for cond in self.NAMES[r % 3:] + self.NAMES[: r % 3]:
                    running = {"baseline": [], "idle": [b], "tabs": [a]}[cond]
                    for proc in (a, b):
                        os.kill(proc.proc.pid, signal.SIGCONT if proc in running else signal.SIGSTOP)
                    c0 = [p.cpu_s() for p in running]
                    self.results[cond].append(measure())
                    for proc in (a, b):
                        os.kill(proc.proc.pid, signal.SIGCONT)
                    self.settle()
                    if running:  # its CPU until every tab had every line (catch-up after a freeze is not counted
                        self.studio_cpu[cond].append(running[0].cpu_s() - c0[0])  # here: that is in another one)
        finally:
            for proc in (a, b):
                os.kill(proc.proc.pid, signal.SIGCONT)
            self.tabs.close()
            a.stop()
            b.stop()

    def median(self, name: str, key: str) -> float:
        return statistics.median(r[key] for r in self.results[name])

    def ratios(self, key: str) -> dict[str, float]:
        """Ratio to the baseline of the medians."""
        return {n: round(self.median(n, key) / self.median("baseline", key), 3) for n in ("idle", "tabs")}

    def paired(self, key: str) -> dict[str, float]:
        """Median of the per-round ratios to the baseline (conditions of one round ran back to back)."""
        base = self.results["baseline"]
        return {n: round(statistics.median(x[key] / y[key] for x, y in zip(self.results[n], base, strict=True)), 3)
                for n in ("idle", "tabs")}

    def studio_ms_per(self, count: int) -> dict[str, float]:
        """The Studio's CPU per unit of the daemon's work, over all rounds (the clock ticks in 10 ms)."""
        return {n: round(sum(v) / (len(v) * count) * 1000, 3) for n, v in self.studio_cpu.items()}


def daemon_cost(root: Path, tabs: int, rounds: int, appends: int) -> dict[str, Any]:
    """The daemon's append-and-tail loop timed in bursts, with no Studio, an idle one, and one serving tabs."""
    s = Scripted(root).to_partial()
    work = Worker(root, s.session)
    cond = Conditions(root, s.session, tabs)
    try:
        cond.run(rounds, lambda: work.run(appends))
    finally:
        work.close()
    return {
        "tabs": tabs, "rounds": rounds, "appends_per_round": appends,
        "daemon_us_per_append": {n: round(cond.median(n, "wall_s") / appends * 1e6, 1) for n in cond.NAMES},
        "daemon_wall_ratio_of_medians": cond.ratios("wall_s"),
        "daemon_wall_ratio_paired": cond.paired("wall_s"),
        "daemon_cpu_ratio_of_medians": cond.ratios("cpu_s"),
        "studio_cpu_ms_per_append": cond.studio_ms_per(appends),
        "every_tab_got_every_event": all(cond.caught_up),
    }


def daemon_live(root: Path, tabs: int, rounds: int, drops: int, browser: bool = False) -> dict[str, Any]:
    """A real `crumb watch` recording steering files dropped one after another into the session the tabs
    watch: each file's time from rename to event durable and file archived (what a person or a script
    steering sees), and the daemon's CPU per file, with no Studio, an idle one, and one serving tabs
    (stand-ins all streaming, or with `browser` real Chromium tabs, one shown)."""
    s = Scripted(root).to_partial()
    s.writer.append("user.pause", {}, from_="user")  # the daemon records each note and starts no work
    (root / "inbox").mkdir(exist_ok=True)
    watch = start_watch(root)
    inbox = session_inbox(root, s.session)
    inbox.mkdir(parents=True, exist_ok=True)
    count = [0]

    def measure() -> dict[str, Any]:
        c0, t0, lat = cpu_seconds(watch.pid), time.perf_counter(), []
        for _ in range(drops):
            count[0] += 1
            staged, target = inbox / f".n{count[0]}.tmp", inbox / f"n{count[0]}.txt"
            staged.write_text(f"/note drop {count[0]}\n")
            t = time.perf_counter()
            os.replace(staged, target)
            while target.exists():  # archived only after the event is durably appended
                time.sleep(0.0002)
            lat.append((time.perf_counter() - t) * 1000)
        return {"lat_ms": lat, "p50_ms": statistics.median(lat), "wall_s": time.perf_counter() - t0,
                "cpu_s": cpu_seconds(watch.pid) - c0}

    cond = Conditions(root, s.session, tabs, browser)
    opened = cond.tabs.open_s if isinstance(cond.tabs, BrowserTabs) else None
    try:
        cond.run(rounds, measure)
    finally:
        watch.terminate()
        watch.wait(30)
    pooled = {n: sorted(x for r in cond.results[n] for x in r["lat_ms"]) for n in cond.NAMES}
    cpu_ms = {n: sum(r["cpu_s"] for r in cond.results[n]) / (rounds * drops) * 1000 for n in cond.NAMES}
    return {
        "tabs": tabs, "rounds": rounds, "drops_per_round": drops,
        **({"real_chromium_tabs_one_shown": True, "seconds_to_open_them": round(opened, 1)} if browser else {}),
        "drop_to_durable_ms": {n: {"p50": round(pct(v, 50), 2), "p90": round(pct(v, 90), 2), "p99": round(pct(v, 99), 2)}
                               for n, v in pooled.items()},
        "p50_ratio_paired": cond.paired("p50_ms"),
        "p90_ratio": {n: round(pct(pooled[n], 90) / pct(pooled["baseline"], 90), 3) for n in ("idle", "tabs")},
        "daemon_cpu_ms_per_drop": {n: round(v, 3) for n, v in cpu_ms.items()},
        "daemon_cpu_ratio": {n: round(cpu_ms[n] / cpu_ms["baseline"], 3) for n in ("idle", "tabs")},
        "studio_cpu_ms_per_drop": cond.studio_ms_per(drops),
        "every_tab_got_every_event": all(cond.caught_up),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=200, help="events appended for the latency run")
    ap.add_argument("--tabs", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--appends", type=int, default=250, help="daemon appends timed per condition and round")
    ap.add_argument("--drops", type=int, default=40, help="steering files dropped per condition and round (live daemon)")
    ap.add_argument("--only", choices=("latency", "live", "browser", "burst"), help="run one part")
    ap.add_argument("--worker", nargs=2, metavar=("PATH", "SESSION"), help=argparse.SUPPRESS)
    ap.add_argument("--tabs-process", nargs=3, metavar=("PORT", "SESSION", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1])
        return
    if args.tabs_process:
        port, session, n = args.tabs_process
        tabs_process(int(port), session, int(n))
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        parts = {"latency": lambda: [latency(root, args.events), latency(root, args.events, args.tabs - 1)],
                 "live": lambda: daemon_live(root, args.tabs, args.rounds, args.drops),
                 "browser": lambda: daemon_live(root, args.tabs, args.rounds, args.drops, browser=True),
                 "burst": lambda: daemon_cost(root, args.tabs, args.rounds, args.appends)}
        result: dict[str, Any] = {name: run() for name, run in parts.items() if args.only in (None, name)}
        result["machine"] = {"cpus": os.cpu_count(), "load_avg": os.getloadavg()}
    OUT.mkdir(exist_ok=True)
    (OUT / f"studio{'-' + args.only if args.only else ''}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
