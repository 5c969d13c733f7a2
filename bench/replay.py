"""Replay speed: check + reduce a 1,000,000-event transcript, beside bare orjson decoding of it.

Target (issue 18): replay ≥ 1.0 × orjson's bare decode of the same file, measured in the same run, with
memory flat in transcript length. Both are measured in CPU seconds (time.process_time: a shared, loaded
machine steals wall time from both unevenly), in alternating rounds in this one process; the medians
are compared. Replay's state is checked equal to folding read_events' dicts one by one (the path every
other reader takes). A report: it exits 0 whatever the figures.
Usage: .venv/bin/python bench/replay.py [--events N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
from ulid import ULID

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crumb.reducer.effects import Record
from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.replay import replay_events, replay_file
from crumb.settings import Settings
from crumb.store.reader import read_events
from tests.core.sim import judge_data, manifest, qa_data, spec_data

TARGET_RATIO = 1.0

OUT = Path(__file__).resolve().parent / "out"
SESSION = "01JBENCHSESSION00000000000"


def generate(path: Path, n: int) -> None:
    """A long but realistic session: many fix rounds, each with progress, build, QA, verdict, audit."""
    settings = Settings().merged({"budgets": {"fixes": 10**9, "verifies": 10**9, "wall_s": 10**9,
                                              "tokens": 10**12, "cost_usd": 10**9}}).to_data()
    state = initial_state(SESSION)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    seq = 0
    with open(path, "wb") as f:
        def emit(kind: str, data: dict, *, effect: str | None = None, frm: str = "dispatcher", body: str = "",
                 meta: dict | None = None) -> list[dict]:
            nonlocal seq, now
            if seq >= n:  # exactly n lines, so the next run finds the file and reuses it
                return []
            seq += 1
            now += timedelta(milliseconds=7)
            ev = {"v": 1, "seq": seq, "id": str(ULID.from_datetime(now)), "ts": now.isoformat().replace("+00:00", "Z"),
                  "session": SESSION, "kind": kind, "from": frm, "effect": effect, "body": body, "data": data,
                  "meta": meta or {}}
            f.write(orjson.dumps(ev) + b"\n")
            return apply(state, ev)

        emit("session.start", {"settings": settings, "bindings": {}, "preset": "local", "seed": 1}, frm="daemon")
        emit("goal", {"pitch": "60-second match-3 with combo bonus"}, frm="user")
        rnd = 0
        while seq < n:
            for effect in list(state.pending.values()):
                if seq >= n:
                    break
                eid = effect.id
                if isinstance(effect, Record):
                    emit(effect.event.kind, effect.event.data, effect=eid)
                    continue
                actor = effect.actor
                if actor == "qa":
                    emit("qa.result", qa_data(rnd % 3 != 0), effect=eid, frm="qa", body="QA result")
                    continue
                emit("effect.started", {"effect_id": eid, "kind": "run_actor", "actor": actor}, effect=eid,
                     body=f"{actor} started")
                for i in range(12):
                    emit("progress", {"effect_id": eid, "actor": actor, "message": f"edited game.js (step {i})",
                                      "tool": "Edit", "files": ["game.js"]}, effect=eid, frm=actor)
                usage = {"harness": "claude", "model": "sonnet", "tokens_in": 1800, "tokens_out": 600, "cost_usd": 0.01}
                if actor == "planner":
                    emit("spec", spec_data("match3", 5), effect=eid, frm="planner", body="spec", meta=usage)
                elif actor == "builder":
                    rnd += 1
                    emit("build", {"manifest": manifest(5), "notes": ["round"]}, effect=eid, frm="builder", body="build",
                         meta=usage)
                elif actor == "verifier":
                    emit("judge.score", judge_data("FAIL", "Minor", 2.5), effect=eid, frm="verifier", body="FAIL 2.5",
                         meta=usage)
                if rnd % 5 == 0 and seq < n:
                    emit("user.note", {"text": "looking good, keep going"}, frm="user", body="note")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    path = OUT / f"replay-{args.events}.jsonl"
    if not path.exists() or sum(1 for _ in open(path, "rb")) != args.events:
        t = time.perf_counter()
        generate(path, args.events)
        print(f"generated {args.events:,} events ({path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t:.1f}s")

    def decode_only() -> None:
        with open(path, "rb") as f:
            for line in f:
                orjson.loads(line)

    def replay() -> None:
        replay_file(path)

    load = os.getloadavg()
    cpu: dict[str, list[float]] = {"decode": [], "replay": []}
    rss_before = rss_mb()
    for _ in range(args.rounds):  # alternating, so a load that drifts weighs on both sides
        for name, run in (("decode", decode_only), ("replay", replay)):
            gc.collect()
            t = time.process_time()
            run()
            cpu[name].append(time.process_time() - t)
    rss_after = rss_mb()
    decode = args.events / statistics.median(cpu["decode"])
    replay_rate = args.events / statistics.median(cpu["replay"])
    state = replay_file(path)
    same = state.state_hash() == replay_events(read_events(path)).state_hash()

    half = OUT / "replay-half.jsonl"
    with open(path, "rb") as src, open(half, "wb") as dst:
        for i, line in enumerate(src):
            if i >= args.events // 2:
                break
            dst.write(line)
    half_state_bytes = len(orjson.dumps(replay_file(half).to_dict()))
    full_state_bytes = len(orjson.dumps(state.to_dict()))
    half.unlink()

    print(f"load average at the start: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {args.rounds} alternating rounds, "
          "CPU seconds, medians")
    print(f"decode only (orjson)      {decode:>12,.0f} events/s   (baseline)")
    print(f"replay (check + reduce)   {replay_rate:>12,.0f} events/s")
    ratio = replay_rate / decode
    print(f"ratio replay/decode       {ratio:>12.2f}   (target >= {TARGET_RATIO:g} x baseline: "
          f"{'ok' if ratio >= TARGET_RATIO else 'MISSED'})")
    print(f"state size at {args.events // 2:,} / {args.events:,} events: {half_state_bytes:,} / {full_state_bytes:,} bytes")
    print(f"peak RSS growth during replay: {rss_after - rss_before:.1f} MB (memory flat in transcript length)")
    print(f"final state: phase {state.phase}, round {state.round}, {state.events:,} events; "
          f"same state as folding read_events' dicts: {'yes' if same else 'NO'} ({state.state_hash()[:16]})")


if __name__ == "__main__":
    main()
