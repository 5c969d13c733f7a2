"""The hash chain's cost: replay of a transcript without `prev` (as before the chain) and of the same
events sealed (each line 75 bytes longer), alternating in one run, and the chain check on its own.
Timed in CPU seconds of this process (medians), since the machines it runs on are shared.

Target (issue 22): replay of a sealed transcript within 10 % of replay before the chain. A report: it
exits 0 whatever the figures. Usage: .venv/bin/python bench/chain.py [--events N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.replay import OUT, generate
from crumb.reducer.replay import replay_file
from crumb.store.chain import line_hash
from crumb.store.seal import check_chain

TARGET = 0.10


def seal_copy(src: Path, dst: Path) -> None:
    """The same events, each line carrying `prev` as the writer stamps it."""
    prev: str | None = None
    with open(src, "rb") as f, open(dst, "wb") as out:
        for raw in f:
            ev = orjson.loads(raw)
            stamped = {**{k: ev[k] for k in ("v", "seq", "id", "ts", "session")},
                       "prev": prev if prev is not None else ev["session"],
                       **{k: v for k, v in ev.items() if k not in ("v", "seq", "id", "ts", "session")}}
            line = orjson.dumps(stamped)
            out.write(line + b"\n")
            prev = line_hash(line)


def timed(fn, n: int) -> float:
    """Events per CPU second of this process: on a shared, loaded machine wall time measures the others."""
    gc.collect()
    t = time.process_time()
    fn()
    return n / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    plain = OUT / f"replay-{args.events}.jsonl"
    if not plain.exists() or sum(1 for _ in open(plain, "rb")) != args.events:
        generate(plain, args.events)
    sealed = OUT / f"replay-{args.events}-sealed.jsonl"
    seal_copy(plain, sealed)
    assert check_chain(sealed).status == "sealed"
    before, after, checked = [], [], []
    for _ in range(args.rounds):  # alternating, so load on the machine falls on both alike
        before.append(timed(lambda: replay_file(plain), args.events))
        after.append(timed(lambda: replay_file(sealed), args.events))
        checked.append(timed(lambda: check_chain(sealed), args.events))
    b, a, c = statistics.median(before), statistics.median(after), statistics.median(checked)
    both = 1 / (1 / a + 1 / c)
    print(f"replay, no prev (before)        {b:>12,.0f} events/s   (median of {args.rounds})")
    print(f"replay, sealed (after)          {a:>12,.0f} events/s   {a / b - 1:+.1%} "
          f"(target within {TARGET:.0%}: {'ok' if a / b >= 1 - TARGET else 'MISSED'})")
    print(f"chain check alone (crumb verify) {c:>11,.0f} events/s")
    print(f"replay + chain check            {both:>12,.0f} events/s   {both / b - 1:+.1%} (what checking on every replay would cost)")
    sealed.unlink()


if __name__ == "__main__":
    main()
