"""Ray overhead: the same batch cells through a local Ray cluster and locally, on the embedded studio.

Locally: every cell pitched (crumb/batch/cell.py, as `crumb run` pitches it) into one root and run by one
in-process daemon sharing one warm browser, until every session settled. On Ray: the same cells through
crumb/batch/ray_executor.py on a cluster started here (the machine's CPUs, one browser slot per CPU), each
cell a task on a worker that returns its session folder whole. Figures: cells per minute both ways, the
overhead ratio (Ray's wall time over local's; target issue 19: <= 1.25), the cluster's start apart, the
head's cost per returned session folder (bytes fetched, fetch and verify+unpack+replay time, head CPU),
and whether every cell got the same verdict and rounds both ways.
Usage: .venv/bin/python bench/ray_overhead.py [-n 40] [--setup local --setup local,fault=wrongtimer] [--address local]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crumb.batch.cell import outcome_of, pitch_cell  # noqa: E402
from crumb.batch.plan import BatchPlan, Cell, parse_setup  # noqa: E402
from crumb.batch.runs import CellOutcome  # noqa: E402
from crumb.cli.verdict import settled  # noqa: E402
from crumb.reducer.replay import replay_file  # noqa: E402
from crumb.store import paths  # noqa: E402

TARGET_RATIO = 1.25


def plan_of(n: int, setups: list[str]) -> BatchPlan:
    pitches = [json.loads(line)["pitch"] for line in (ROOT / "bench" / "pitches.jsonl").read_text().splitlines()[:n]]
    return BatchPlan(name="bench-ray", pitches=pitches, setups=[parse_setup(s) for s in setups], seeds=[1],
                     timeout_s=600)


def run_local(root: Path, plan: BatchPlan, cells: list[Cell]) -> tuple[float, dict[Cell, CellOutcome]]:
    from crumb.daemon.daemon import Daemon

    root.mkdir(parents=True)
    started = time.monotonic()
    sessions = {cell: pitch_cell(root, plan, cell) for cell in cells}
    want = set(sessions.values())
    daemon = Daemon(root, echo=False,
                    stop_when=lambda live: all(s in live and settled(live[s].state) for s in want))
    worker = threading.Thread(target=daemon.run, daemon=True)
    worker.start()
    worker.join(timeout=3600)
    wall = time.monotonic() - started
    return wall, {cell: outcome_of(replay_file(paths.transcript_path(root, s))) for cell, s in sessions.items()}


def run_ray(root: Path, plan: BatchPlan, cells: list[Cell], address: str) -> tuple[float, float, dict[Cell, CellOutcome | str], list, float]:
    import ray

    from crumb.batch import ray_executor as rx

    t0 = time.monotonic()
    rx.connect(address)
    start_s = time.monotonic() - t0
    costs: list[rx.HeadCost] = []
    got: dict[Cell, CellOutcome | str] = {}
    cpu0 = time.process_time()
    t1 = time.monotonic()
    for cell, _session, result in rx.run_cells(root, plan, cells, address, costs=costs):
        got[cell] = result
    wall = time.monotonic() - t1
    head_cpu = time.process_time() - cpu0
    ray.shutdown()
    return start_s, wall, got, costs, head_cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=40, help="pitches (the first N of bench/pitches.jsonl)")
    ap.add_argument("--setup", action="append", help="a set-up (repeatable); default local and local,fault=wrongtimer")
    ap.add_argument("--address", default="local", help="local (a new cluster here), auto, or a cluster address")
    args = ap.parse_args()
    plan = plan_of(args.n, args.setup or ["local", "local,fault=wrongtimer"])
    cells = plan.cells()
    work = Path(tempfile.mkdtemp(prefix="crumb-bench-ray-"))
    print(f"{len(cells)} cells ({args.n} pitches x {len(plan.setups)} set-ups) on {os.cpu_count()} CPUs, in {work}")

    local_s, local = run_local(work / "local", plan, cells)
    print(f"local: {len(cells)} cells in {local_s:.1f} s = {len(cells) / local_s * 60:.1f} cells/min (one daemon, one browser)")
    start_s, ray_s, remote, costs, head_cpu = run_ray(work / "ray", plan, cells, args.address)
    errors = {c: r for c, r in remote.items() if isinstance(r, str)}
    print(f"ray:   {len(cells)} cells in {ray_s:.1f} s = {len(cells) / ray_s * 60:.1f} cells/min "
          f"(+ {start_s:.1f} s to start/connect the cluster); {len(errors)} error(s)")
    for cell, err in list(errors.items())[:5]:
        print(f"  {cell.id}: {err}")
    ratio, ratio_start = ray_s / local_s, (ray_s + start_s) / local_s
    print(f"overhead: Ray time / local time = {ratio:.2f} (with the cluster start {ratio_start:.2f}); "
          f"target <= {TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'MISSED'}")
    differ = [c for c in cells if not isinstance(remote.get(c), CellOutcome) or
              (remote[c].verdict, remote[c].rounds) != (local[c].verdict, local[c].rounds)]  # type: ignore[union-attr]
    print(f"same verdict and rounds both ways: {len(cells) - len(differ)}/{len(cells)}")
    unexplained = 0
    for cell in differ:
        why = perf_only(work, plan, cell)
        unexplained += why is None
        print(f"  {cell.id}: local {local[cell].verdict}/{local[cell].rounds}, Ray {getattr(remote[cell], 'verdict', remote[cell])}"
              f"/{getattr(remote[cell], 'rounds', '-')}: " + (why or "NOT explained by QA's frame rate: look at both sessions"))
    if costs:
        kb = [c.bytes / 1024 for c in costs]
        fetch = [c.fetch_s * 1000 for c in costs]
        unpack = [c.unpack_s * 1000 for c in costs]
        print(f"head per returned session folder ({len(costs)}): {statistics.median(kb):.0f} kB median "
              f"(max {max(kb):.0f}), {statistics.median([c.files for c in costs]):.0f} files; fetch "
              f"{statistics.median(fetch):.1f} ms median (max {max(fetch):.1f}); verify+unpack+replay "
              f"{statistics.median(unpack):.1f} ms median (max {max(unpack):.1f}); head CPU "
              f"{head_cpu / len(costs) * 1000:.1f} ms per cell over the whole run")
    return 0 if not errors and not unexplained else 1


def perf_only(work: Path, plan: BatchPlan, cell: Cell) -> str | None:
    """Why a cell's verdict differs between the two runs, when it is only QA's measured frame rate (it
    depends on the machine's load at that moment, not on where the session ran); else None."""
    found = []
    for side in ("local", "ray"):
        for t in (work / side / "sessions").glob("*/transcript.jsonl"):
            events = [json.loads(line) for line in t.read_text().splitlines()]
            goal = next(e for e in events if e["kind"] == "goal")["data"]["pitch"]
            if goal == plan.pitches[cell.pitch - 1].strip() and events[0]["data"].get("fault") == plan.setup(cell.setup).fault:
                found.append([({k: v["score"] for k, v in e["data"]["scores"].items()}) for e in events
                              if e["kind"] == "judge.score"])
    if len(found) != 2 or len(found[0]) != len(found[1]):
        return None
    for a, b in zip(*found, strict=True):
        if {k: v for k, v in a.items() if k != "performance"} != {k: v for k, v in b.items() if k != "performance"}:
            return None
    perf = [[s.get("performance") for s in side] for side in found]
    return f"only QA's frame rate differs (performance scores local {perf[0]}, Ray {perf[1]})"


if __name__ == "__main__":
    sys.exit(main())
