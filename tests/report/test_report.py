"""`crumb report` on a real batch (real sessions, real files): the table, --json and --csv agree; a fallback
is never a PASS; missing and unfinished cells are shown as such."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from crumb.batch import runs
from crumb.batch.driver import resolve
from crumb.batch.plan import RUNS_JSONL, Cell
from crumb.report.cells import CellRow, read_batch
from crumb.report.summary import bucket, summarise
from tests.report.batchmaker import BATCH_ID, REPO, Made

FALLBACK_CELL = "p001-builder-command-bin-false-s1"
MISSING_CELL = "p002-builder-command-bin-false-s1"


def crumb(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_the_table_json_and_csv_say_the_same(made: Made) -> None:
    table = crumb(made.root, "report", BATCH_ID[:8])
    assert table.returncode == 0, table.stderr
    data = json.loads(crumb(made.root, "report", BATCH_ID, "--json").stdout)
    rows = list(csv.DictReader(io.StringIO(crumb(made.root, "report", str(made.folder), "--csv").stdout)))
    assert data["setups"] == ["local", "local,fault=wrongtimer", "builder=command:/bin/false"]
    by_setup = {r["setup"]: r for r in data["by_setup"]}
    csv_setup = {r["setup"]: r for r in rows if r["by"] == "setup"}
    assert set(csv_setup) == set(by_setup)
    lines = table.stdout.splitlines()
    for name, row in by_setup.items():
        c = csv_setup[name]
        assert int(c["pass"]) == row["pass_rate"]["k"] and int(c["judged"]) == row["judged"]
        assert int(c["fallback"]) == row["fallback"] and int(c["missing"]) == row["missing"]
        if row["pass_rate"]["rate"] is not None:
            assert float(c["pass_low"]) == row["pass_rate"]["low"]
            text = f"{row['pass_rate']['rate'] * 100:.0f}% [{row['pass_rate']['low'] * 100:.0f}–" \
                   f"{row['pass_rate']['high'] * 100:.0f}]"
        else:
            assert c["pass_rate"] == ""
            text = "-"
        line = next(x for x in lines if x.startswith(name + " "))
        assert line.split()[1:3] == [f"{row['judged']}/{row['cells']}", text.split()[0]], line
    # what the sessions were: PASS at round 1, PASS at round 2 after a broken timer, PARTIAL (no pinball game)
    local, broken = by_setup["local"], by_setup["local,fault=wrongtimer"]
    assert (local["pass_rate"]["k"], local["partial_rate"]["k"], local["judged"]) == (1, 1, 2)
    assert broken["rounds_to_pass"]["median"] == 2.0
    assert any(f["key"] == "probe:start" for f in broken["findings"])
    assert {r["key"] for r in rows if r["by"] == "language"} == {"fr", "en"}
    assert {r["key"] for r in rows if r["by"] == "genre"} == {"snake", "pinball"}
    assert set(local["role_s"]) >= {"planner", "builder", "qa", "verifier"}


def test_a_fallback_that_passed_is_never_the_setups_pass(made: Made) -> None:
    report = summarise(read_batch(made.folder))
    cell = next(c for c in report.cells if c.cell == FALLBACK_CELL)
    assert (cell.verdict, cell.fallback, cell.bucket) == ("PASS", True, "fallback")
    row = next(r for r in report.by_setup if r.setup == "builder=command:/bin/false")
    assert (row.pass_rate.k, row.judged, row.fallback, row.fallback_pass) == (0, 0, 1, 1)
    assert report.counts["PASS"] == 2  # local and wrongtimer on the snake pitch, not the fallback
    # the rule itself, whatever the verdict and done reason say
    for verdict in ("PASS", "PARTIAL", "FAIL"):
        row_in = CellRow(cell="x", pitch=1, pitch_text="p", setup="s", seed=1, state="settled",
                         outcome=runs.CellOutcome(done="pass", verdict=verdict, rounds=1, fallback=True, wall_s=1,
                                                  exit=4))
        assert bucket(row_in) == "fallback"


def test_missing_and_unfinished_cells_are_reported_as_such(made: Made, tmp_path: Path) -> None:
    report = summarise(read_batch(made.folder))
    missing = next(c for c in report.cells if c.cell == MISSING_CELL)
    assert (missing.state, missing.bucket, missing.session) == ("missing", "missing", None)
    assert missing.genre == "pinball"  # read from its pitch's other cells
    # the same batch where a cell started and never settled (a crash, or still running)
    copy = tmp_path / "batches" / "copy"
    shutil.copytree(made.folder, copy, symlinks=True)
    (tmp_path / "sessions").symlink_to(made.root / "sessions")
    runs.append(copy / RUNS_JSONL, runs.RunLine.of(Cell(pitch=2, setup="builder=command:/bin/false", seed=1),
                                                   "started", session="01M8YCZ00000000000000000ZZ"))
    out = crumb(tmp_path, "report", "copy")
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("p002-builder-command-bin-false-s1"))
    assert line.split()[1] == "unfinished"
    assert "1 unfinished" in out.stdout and "0 missing" in out.stdout
    first = crumb(made.root, "report", BATCH_ID).stdout.splitlines()
    assert next(x for x in first if x.startswith(MISSING_CELL)).split()[1] == "missing"


def test_an_unknown_batch_is_one_error_line(made: Made) -> None:
    out = crumb(made.root, "report", "nope")
    assert out.returncode == 1 and out.stderr.startswith("Error: no batch 'nope'")
    assert resolve(made.root, str(made.folder)) == made.folder.resolve()


def test_compare_two_sessions_shows_both_verdicts(made: Made) -> None:
    a, b = made.sessions["p001-local-s1"], made.sessions["p002-local-s1"]
    out = crumb(made.root, "compare", a[-6:], b, "--width", "160")
    assert out.returncode == 0, out.stderr
    verdict = next(x for x in out.stdout.splitlines() if x.startswith("verdict"))
    assert "PASS (done: pass)" in verdict and "PARTIAL (waiting for a person)" in verdict
    assert f"A screenshot   {made.root / 'sessions' / a / 'artifacts/qa/end.png'}" in out.stdout
    data = json.loads(crumb(made.root, "compare", a, b, "--json").stdout)
    assert (data["a"]["verdict"], data["b"]["verdict"]) == ("PASS", "PARTIAL")
    assert data["a"]["scores"]["goal_fit"]["evidence"]  # every score says what it rests on
    assert data["b"]["genre"] == "pinball" and data["b"]["built"] == "breakout"


def test_compare_two_setups_of_a_batch_pairs_their_cells(made: Made) -> None:
    data = json.loads(crumb(made.root, "compare", BATCH_ID, "local", "3", "--json").stdout)
    assert (data["a"]["setup"], data["b"]["setup"]) == ("local", "builder=command:/bin/false")
    assert [(p["a"]["bucket"], p["b"]["bucket"]) for p in data["pairs"]] == [("PASS", "fallback"), ("PARTIAL", "missing")]
    bad = crumb(made.root, "compare", BATCH_ID, "local", "nope")
    assert bad.returncode == 2 and "no set-up 'nope'" in bad.stderr
