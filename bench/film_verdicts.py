"""Does the embedded Verifier's reading of the filmstrip change a verdict on the real genre games?

For every genre's game, as the embedded studio plans and builds it from the genre's first example pitch:
one QA check that keeps its filmstrip, then the embedded Verifier's judgement without the frames and
with them (read as crumb/actors/embedded/filmstrip.py reads them). Prints per genre the two verdicts and
totals and what the frames showed; exits 1 if any verdict differs. Run: .venv/bin/python bench/film_verdicts.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from qa import real_games  # noqa: E402

from crumb.actors.embedded.filmstrip import read_film  # noqa: E402
from crumb.actors.embedded.research import plan_researched  # noqa: E402
from crumb.actors.embedded.verifier import judge  # noqa: E402
from crumb.genres import genres  # noqa: E402
from crumb.qa import QARunner  # noqa: E402


def main() -> int:
    only = [g for g in (sys.argv[1] if len(sys.argv) > 1 else "").split(",") if g]
    flipped = 0
    with tempfile.TemporaryDirectory() as tmp, QARunner() as qa:
        sdir = Path(tmp) / "session"
        for gid, game, criteria, controls in real_games(Path(tmp), only):
            result = qa.check(game, criteria=criteria, controls=controls, out_dir=sdir / "artifacts" / "qa", film=gid)
            spec, _ = plan_researched(next(g for g in genres() if g.id == gid).pitches[0])  # as real_games plans it
            projected = {"goal": {"id": "G", "pitch": spec.pitch}, "spec": {"id": "S", **spec.model_dump(mode="json")},
                         "build": {"id": "B", "manifest": {}}, "qa": {"id": "Q", **result.model_dump(mode="json")}}
            frames = [(sdir / f.path).read_bytes() for f in (result.filmstrip.frames if result.filmstrip else [])]
            film = read_film(frames)
            plain, seen = judge(projected), judge(projected, film=film)
            flipped += plain.verdict != seen.verdict
            print(f"  {gid:<14} without frames {plain.verdict:<7} {plain.total:4.2f}  with {seen.verdict:<7} {seen.total:4.2f}  "
                  f"{film.note() if film else 'no frames'}", flush=True)
    print(f"verdicts changed by the frames: {flipped}")
    return 1 if flipped else 0


if __name__ == "__main__":
    sys.exit(main())
