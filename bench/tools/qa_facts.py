"""QA's facts for every genre's real game and every corpus game, as JSON, to compare two versions of QA.

A speed-up of QA must not change what QA says: run this before and after a change and diff the files.
Run: .venv/bin/python bench/tools/qa_facts.py OUT.json [--only match3,snake] [--no-corpus] [--repeat 2]
     .venv/bin/python bench/tools/qa_facts.py --compare BEFORE.json AFTER.json

The facts are the QAResult without what a run cannot repeat (its duration) and with the screenshots'
and filmstrip frames' sha256 (the pictures themselves, not their paths). `fps` is measured in the main
thread's CPU time and capped at 60: it is kept, and differs only for a game that cannot keep up.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from crumb.protocol.game import QAResult  # noqa: E402
from crumb.qa import QARunner  # noqa: E402


def facts(result: QAResult, out: Path) -> dict:
    data = result.model_dump(mode="json")
    data.pop("duration_ms", None)
    data.pop("rechecked", None)
    base = out.parent.parent
    data["screenshots"] = {Path(p).name: hashlib.sha256((base / p).read_bytes()).hexdigest()[:16]
                           for p in result.screenshots}
    data.pop("files", None)
    if result.filmstrip is not None:
        data["filmstrip"] = [(f.t_ms, f.after, f.sha256[:16]) for f in result.filmstrip.frames]
    return data


def corpus() -> list[tuple[str, Path, list, list[str]]]:
    from tests.qa.conftest import GAMES, GOOD_CRITERIA, SCORE_UP, TIMER_10, criteria

    out = [("corpus:good", GAMES / "good", criteria(*GOOD_CRITERIA), ["ArrowLeft", "ArrowRight"]),
           ("corpus:mini", GAMES / "mini", criteria(TIMER_10, SCORE_UP), [])]
    for game in sorted(p for p in GAMES.iterdir() if p.is_dir() and p.name not in ("good", "mini")):
        out.append((f"corpus:{game.name}", game, [], []))
    return out


VERDICT = ("ok", "exec_ok", "static_ok", "loaded", "hook", "canvas_nonblank", "canvas_animates", "input_responds",
           "fps", "blocked", "error")


def compare(before: dict, after: dict) -> int:
    """The verdict facts of two runs, game by game: the booleans, fps, blocked, each probe's ok and each
    finding's code and severity must be the same; probes' details and pictures are listed when they differ
    (they vary between two checks of one version too: see --repeat)."""
    bad = 0
    for gid in sorted(set(before) | set(after)):
        if gid not in before or gid not in after:
            print(f"  {gid}: only in one run")
            bad += 1
            continue
        a, b = before[gid], after[gid]
        diffs = [k for k in VERDICT if a.get(k) != b.get(k)]
        if [(p["id"], p["ok"]) for p in a["probes"]] != [(p["id"], p["ok"]) for p in b["probes"]]:
            diffs.append("probes")
        codes = [sorted((f["code"], f["severity"]) for f in x["findings"]) for x in (a, b)]
        if codes[0] != codes[1]:
            diffs.append(f"findings {codes[0]} -> {codes[1]}")
        if diffs:
            bad += 1
            print(f"  {gid}: DIFFERENT {diffs}")
            continue
        details = [f"{p['id']} ({p['detail']} -> {q['detail']})" for p, q in zip(a["probes"], b["probes"], strict=True) if p != q]
        if details:
            print(f"  {gid}: same verdict facts; probe details differ: {'; '.join(details)}")
    print(f"{len(before)} games; verdict facts different in {bad}")
    return 1 if bad else 0


def main() -> int:
    if sys.argv[1:2] == ["--compare"] and len(sys.argv) == 4:
        return compare(*(json.loads(Path(p).read_text()) for p in sys.argv[2:4]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", default="")
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="checks per game (each must give the same facts)")
    args = parser.parse_args()
    from bench.qa import real_games
    from tests.qa.conftest import FAST

    only = [g for g in args.only.split(",") if g]
    found: dict[str, dict] = {}
    unstable: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        games = [(g, d, c, k) for g, d, c, k in real_games(Path(tmp), only)]
        if not args.no_corpus:
            games += [g for g in corpus() if not only or g[0] in only]
        out = Path(tmp) / "session" / "artifacts" / "qa"
        with QARunner(FAST) as qa:
            for gid, game, criteria, controls in games:
                seen = []
                for k in range(args.repeat):
                    r = qa.check(game, criteria=criteria, controls=controls, out_dir=out, film=f"round-{k}")
                    seen.append(facts(r, out))
                found[gid] = seen[0]
                keys = sorted({k for s in seen[1:] for k in s if s[k] != seen[0].get(k)})
                if keys:
                    unstable.append(f"{gid} ({', '.join(keys)})")
                print(f"  {gid:<28} ok={seen[0]['ok']} findings={[f['code'] for f in seen[0]['findings']]}"
                      f"{'  UNSTABLE ' + unstable[-1] if unstable and unstable[-1].startswith(gid + ' ') else ''}", flush=True)
    Path(args.out).write_text(json.dumps(found, indent=1, sort_keys=True))
    print(f"{len(found)} games; unstable across repeats: {unstable or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
