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

    # Two halves in the order local, Ray, Ray, local (ABBA): a load that drifts during the run weighs on
    # both sides alike. Each local half starts its own daemon and browser; the Ray workers stay warm
    # between halves, which favours Ray by one browser start (about a second): said below.
    halves = [cells[: len(cells) // 2], cells[len(cells) // 2:]]
    local: dict[Cell, CellOutcome] = {}
    remote: dict[Cell, CellOutcome | str] = {}
    costs: list = []
    local_s = ray_s = start_s = head_cpu = 0.0
    for i, (side, half) in enumerate([("local", halves[0]), ("ray", halves[0]), ("ray", halves[1]), ("local", halves[1])]):
        if side == "local":
            wall, got = run_local(work / f"local-{i}", plan, half)
            local.update(got)
            local_s += wall
        else:
            started, wall, got_r, half_costs, cpu = run_ray(work / f"ray-{i}", plan, half, args.address)
            start_s = start_s or started  # the cluster starts once; later halves only connect
            remote.update(got_r)
            costs += half_costs
            ray_s += wall
            head_cpu += cpu
        print(f"  half {i + 1} of 4 ({side}): {len(half)} cells in {wall:.1f} s")
    print(f"local: {len(cells)} cells in {local_s:.1f} s = {len(cells) / local_s * 60:.1f} cells/min (one daemon, one browser)")
    errors = {c: r for c, r in remote.items() if isinstance(r, str)}
    print(f"ray:   {len(cells)} cells in {ray_s:.1f} s = {len(cells) / ray_s * 60:.1f} cells/min "
          f"(+ {start_s:.1f} s to start the cluster); {len(errors)} error(s)")
    for cell, err in list(errors.items())[:5]:
        print(f"  {cell.id}: {err}")
    ratio, ratio_start = ray_s / local_s, (ray_s + start_s) / local_s
    print(f"overhead: Ray time / local time = {ratio:.2f} (with the cluster start {ratio_start:.2f}); "
          f"target <= {TARGET_RATIO}: {'met' if ratio <= TARGET_RATIO else 'MISSED'}")
    differ = [c for c in cells if not isinstance(remote.get(c), CellOutcome) or
              (remote[c].verdict, remote[c].rounds) != (local[c].verdict, local[c].rounds)]  # type: ignore[union-attr]
    print(f"same verdict and rounds both ways: {len(cells) - len(differ)}/{len(cells)}")
    for cell in differ:  # QA measures in CPU time: nothing about where a cell ran may change its verdict
        print(f"  {cell.id}: local {local[cell].verdict}/{local[cell].rounds}, Ray "
              f"{getattr(remote[cell], 'verdict', remote[cell])}/{getattr(remote[cell], 'rounds', '-')}")
    if costs:
        kb = [c.bytes / 1024 for c in costs]
        fetch = [c.fetch_s * 1000 for c in costs]
        unpack = [c.unpack_s * 1000 for c in costs]
        print(f"head per returned session folder ({len(costs)}): {statistics.median(kb):.0f} kB median "
              f"(max {max(kb):.0f}), {statistics.median([c.files for c in costs]):.0f} files; fetch "
              f"{statistics.median(fetch):.1f} ms median (max {max(fetch):.1f}); verify+unpack+replay "
              f"{statistics.median(unpack):.1f} ms median (max {max(unpack):.1f}); head CPU "
              f"{head_cpu / len(costs) * 1000:.1f} ms per cell over the whole run")
    return 0 if not errors and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
