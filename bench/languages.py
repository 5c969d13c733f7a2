"""Language detection: accuracy per language on the table of real-looking pitches
(tests/local_planner/language_pitches.py), on 1,008 short English pitches as people type them, and what it costs.

Prints, per language, how many pitches were named right (a read language must be read as itself, a
foreign one named and not read), the misses, how many of the short English pitches are read as English with
and without the full models' second opinion, the cost of the first call (the quick models load then) and of
the first that needs the full models, and the median cost of a later call.

Usage: .venv/bin/python bench/languages.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crumb.actors.embedded import language
from crumb.actors.embedded.language import detect
from crumb.actors.embedded.text import normalize
from tests.local_planner.language_pitches import FOREIGN, READ, short_english

SHORT_WORDS = 6
SHORT_CJK = 12  # characters, for a pitch written without spaces


def main() -> int:
    t0 = time.perf_counter()
    detect(normalize("pong against the computer"))
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    detect(normalize("un jeu de serpent avec trois vies"))  # the quick models say French: the full ones of French and English load
    first_full = time.perf_counter() - t0
    total = right = 0
    misses: list[str] = []
    print("language  right  short (< 6 words)  long")
    for lang, pitches in {**READ, **FOREIGN}.items():
        tally = {True: [0, 0], False: [0, 0]}  # short?: [right, all]
        for pitch in pitches:
            got = detect(normalize(pitch))
            good = got.language == lang and got.recognised == (lang in READ)
            short = len(pitch.split()) < SHORT_WORDS if " " in pitch.strip() else len(pitch) < SHORT_CJK
            tally[short][0] += good
            tally[short][1] += 1
            if not good:
                misses.append(f"  {lang}: {pitch!r} -> {got.language} ({got.how})")
        ok = tally[True][0] + tally[False][0]
        total += len(pitches)
        right += ok
        print(f"{lang:8} {ok:3}/{len(pitches):<3}  {tally[True][0]:3}/{tally[True][1]:<3}          "
              f"{tally[False][0]:3}/{tally[False][1]:<3}")
    print(f"all      {right}/{total} ({100 * right / total:.1f}%)")
    if misses:
        print("misses:\n" + "\n".join(misses))
    english = [normalize(p) for p in short_english()]
    read = sum(detect(t).language == "en" for t in english)
    confirm, language.CONFIRM_WORDS = language.CONFIRM_WORDS, 0  # the quick models alone, as before the full ones
    quick = sum(detect(t).language == "en" for t in english)
    language.CONFIRM_WORDS = confirm
    print(f"short English pitches read as English: {read}/{len(english)} ({100 * read / len(english):.1f}%); "
          f"the quick models alone: {quick}/{len(english)} ({100 * quick / len(english):.1f}%)")
    texts = [normalize(p) for ps in READ.values() for p in ps]
    costs = []
    for _ in range(5):
        for t in texts:
            s = time.perf_counter()
            detect(t)
            costs.append(time.perf_counter() - s)
    print(f"first call (loads the quick models): {first * 1000:.0f} ms; first that needs the full models (French and "
          f"English): {first_full * 1000:.0f} ms; later calls: median "
          f"{statistics.median(costs) * 1e6:.0f} µs, p99 {sorted(costs)[int(len(costs) * 0.99)] * 1e6:.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
