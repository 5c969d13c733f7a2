"""`crumb batch` for real: subprocesses, real files, real sessions on the embedded studio (2 pitches ×
`local` and `cross-local`, ~3 s a session), a SIGKILL mid-way, a batch.toml dropped into a daemon's inbox.
Every wait is a condition with a deadline (tests/wait.py), generous for a loaded 2-core machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from crumb.batch import runs
from crumb.batch.plan import PLAN_TOML, RUNS_JSONL, load_plan
from crumb.store import paths
from crumb.store.reader import read_events
from tests.daemon.conftest import crumb, kill9, start_watch, stop_watch
from tests.wait import wait_until

pytestmark = pytest.mark.browser

PITCHES = "# two pitches, blank lines and comments skipped\n\n60-second snake\npong to 5 points\n"
SETUPS = ("--setup", "local", "--setup", "cross-local")


def batch_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "batches").iterdir() if (p / PLAN_TOML).is_file()) if (root / "batches").is_dir() else []


def lines_of(folder: Path) -> list[runs.RunLine]:
    return runs.read(folder / RUNS_JSONL)


def goals(root: Path, session: str) -> int:
    return sum(1 for e in read_events(paths.transcript_path(root, session)) if e["kind"] == "goal")


def assert_complete(root: Path, folder: Path) -> None:
    """Every cell settled exactly once, on one session each, linked, each session pitched once."""
    plan = load_plan(folder / PLAN_TOML)
    lines = lines_of(folder)
    settled = Counter(x.cell for x in lines if x.state == "settled")
    assert settled == Counter(c.id for c in plan.cells())  # every cell once, none twice
    latest = runs.latest(lines)
    sessions = {latest[c.id].session for c in plan.cells()}
    assert len(sessions) == len(plan.cells()) and None not in sessions
    assert sorted(paths.list_sessions(root)) == sorted(s for s in sessions if s)  # no session pitched twice
    for cell in plan.cells():
        line = latest[cell.id]
        assert line.session is not None and line.outcome is not None
        assert line.outcome.fallback is False and line.outcome.verdict is not None
        assert goals(root, line.session) == 1
        started = [x for x in lines if x.cell == cell.id and x.state == "started"]
        assert [x.session for x in started] == [line.session]  # one started line, on the session that settled
        link = folder / "sessions" / cell.id
        assert not os.readlink(link).startswith("/")  # relative: the folder can move with its sessions
        assert link.resolve() == paths.session_dir(root, line.session).resolve()
        assert (link / "transcript.jsonl").is_file()


def test_a_batch_runs_every_cell_once_and_records_it(root: Path) -> None:
    (root / "pitches.txt").write_text(PITCHES)
    done = crumb(root, "batch", str(root / "pitches.txt"), *SETUPS, "--name", "smoke", "--json", timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["cells"], out["settled"], out["failed"], out["missing"]) == (4, 4, 0, 0)
    assert out["fallbacks"] == 0 and sum(out["verdicts"].values()) == 4
    [folder] = batch_dirs(root)
    assert out["batch"] == folder.name and out["path"] == f"batches/{folder.name}"
    plan = load_plan(folder / PLAN_TOML)
    assert plan.name == "smoke" and plan.pitches == ["60-second snake", "pong to 5 points"] and plan.crumb
    assert_complete(root, folder)
    # fair by construction: both set-ups got the same pitch text and seed; cross-local broke its first build
    by_setup = {(x.setup, x.pitch): x for x in lines_of(folder) if x.state == "settled"}
    for pitch in (1, 2):
        starts = [next(iter(read_events(paths.transcript_path(root, by_setup[(s, pitch)].session or ""))))["data"]
                  for s in ("local", "cross-local")]
        assert [s["seed"] for s in starts] == [1, 1] and [s.get("fault") for s in starts] == [None, "noinput"]
        assert by_setup[("cross-local", pitch)].outcome.rounds >= 2  # type: ignore[union-attr]  # the fix loop ran
    listed = crumb(root, "batch", "ls")
    assert listed.returncode == 0 and f"{folder.name}    4/4" in listed.stdout and "smoke" in listed.stdout
    again = crumb(root, "batch", "resume", folder.name[:12], "--json", timeout=120)  # nothing left: runs nothing
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["settled"] == 4 and len(paths.list_sessions(root)) == 4


def test_a_batch_killed_midway_resumes_without_running_a_cell_twice(root: Path) -> None:
    (root / "pitches.txt").write_text(PITCHES)
    proc = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "batch", str(root / "pitches.txt"),
                             *SETUPS, "--parallel", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        def midway() -> bool:
            dirs = batch_dirs(root)
            if not dirs:
                return False
            latest = runs.latest(lines_of(dirs[0]))
            states = [x.state for x in latest.values()]
            return "settled" in states and "started" in states
        wait_until(lambda: midway() or proc.poll() is not None, 300, "one cell settled and one started")
        assert proc.poll() is None, f"the batch ended before it could be killed: {proc.stderr.read() if proc.stderr else ''}"
    finally:
        kill9(proc)  # SIGKILL to its process group: the batch, its in-process daemon, QA's browser
    [folder] = batch_dirs(root)
    before = runs.latest(lines_of(folder))
    assert any(x.state == "started" for x in before.values())
    resumed = crumb(root, "batch", "resume", str(folder), timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "4/4 cells settled" in resumed.stdout and "\n" not in resumed.stdout.strip()  # piped: one summary line
    assert_complete(root, folder)
    after = runs.latest(lines_of(folder))
    for cell, line in before.items():  # a cell started before the kill went on in the session it had
        if line.state in ("started", "settled"):
            assert after[cell].session == line.session


@pytest.mark.parametrize(("args", "pitches", "says"), [
    (("--setup", "local,cross"), PITCHES, "two presets"),
    (("--setup", "painter=claude"), PITCHES, "unknown role 'painter'"),
    (("--setup", "nopreset"), PITCHES, "no preset 'nopreset'"),
    (("--setup", "local,fault=sideways"), PITCHES, "unknown fault 'sideways'"),
    (("--setup", "local", "--setup", "local"), PITCHES, "listed twice"),
    (("--setup", "local"), "# only a comment\n\n", "no pitch in it"),
])
def test_a_bad_setup_or_pitches_file_is_one_line_and_exit_2(root: Path, args: tuple[str, ...], pitches: str,
                                                              says: str) -> None:
    (root / "pitches.txt").write_text(pitches)
    got = crumb(root, "batch", str(root / "pitches.txt"), *args)
    assert got.returncode == 2, got.stderr
    assert got.stderr.startswith("Error: ") and says in got.stderr and got.stderr.count("\n") == 1
    assert batch_dirs(root) == [] and paths.list_sessions(root) == []


@pytest.mark.parametrize(("name", "text", "says"), [
    ("p.jsonl", '{"pitch": "snake"}\n{"title": "pong"}\n', ":2: no \"pitch\""),
    ("p.jsonl", '{"pitch": "snake"}\nnot json\n', ":2: not a JSON object"),
    ("missing.txt", None, "cannot read it"),
])
def test_a_bad_pitches_file_names_the_line(root: Path, name: str, text: str | None, says: str) -> None:
    if text is not None:
        (root / name).write_text(text)
    got = crumb(root, "batch", str(root / name), "--setup", "local")
    assert got.returncode == 2 and says in got.stderr and got.stderr.count("\n") == 1, got.stderr
    nope = crumb(root, "batch", "resume", "01ZZZ")
    assert nope.returncode == 2 and "no batch '01ZZZ'" in nope.stderr and nope.stderr.count("\n") == 1


def test_a_batch_toml_dropped_into_a_watched_inbox_runs_and_a_bad_one_is_rejected(root: Path) -> None:
    watch = start_watch(root)
    try:
        (root / "inbox" / ".x.tmp").write_text(
            'name = "dropped"\npitches = ["60-second snake"]\nparallel = 2\n'
            'setups = [{name = "local", preset = "local"}, {name = "broken", preset = "local", fault = "wrongtimer"}]\n')
        os.replace(root / "inbox" / ".x.tmp", root / "inbox" / "batch.toml")
        (root / "inbox" / ".y.tmp").write_text('pitches = ["snake"]\nsetups = [{name = "a", preset = "local"}]\ncolour = 3\n')
        os.replace(root / "inbox" / ".y.tmp", root / "inbox" / "bad.toml")
        why = root / "inbox" / "rejected" / "bad.toml.why.txt"
        wait_until(why.exists, 60, "the bad batch.toml rejected")
        assert "batch plan not started" in why.read_text() and "colour" in why.read_text()

        def finished() -> Path | None:
            for folder in batch_dirs(root):
                latest = runs.latest(lines_of(folder))
                if len(latest) == 2 and all(x.state == "settled" for x in latest.values()):
                    return folder
            return None
        folder = wait_until(finished, 300, "the dropped batch's two cells settled")
        assert load_plan(folder / PLAN_TOML).name == "dropped"
        assert (folder / ".inbox" / "batch.toml").is_file() and not (root / "inbox" / "batch.toml").exists()
        assert_complete(root, folder)
        assert watch.poll() is None  # a bad file never stops the daemon
    finally:
        stop_watch(watch)


def test_a_dropped_batch_is_taken_up_again_when_its_daemon_restarts(root: Path) -> None:
    """The daemon SIGKILLed while it drives a dropped batch: the next `crumb watch` finishes it, each cell once."""
    watch = start_watch(root)
    try:
        (root / "inbox" / ".x.tmp").write_text('pitches = ["60-second snake", "pong to 5 points"]\nparallel = 1\n'
                                               'setups = [{name = "local", preset = "local"}]\n')
        os.replace(root / "inbox" / ".x.tmp", root / "inbox" / "batch.toml")
        wait_until(lambda: batch_dirs(root) and any(x.state == "started" for x in lines_of(batch_dirs(root)[0])),
                   120, "a cell of the dropped batch started")
    finally:
        kill9(watch)
    [folder] = batch_dirs(root)
    watch = start_watch(root)
    try:
        wait_until(lambda: Counter(x.state for x in runs.latest(lines_of(folder)).values())["settled"] == 2, 300,
                   "both cells settled after the restart")
    finally:
        stop_watch(watch)
    assert_complete(root, folder)


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(root: Path) -> None:
    """Ctrl-C as the first cell starts: with four cells to go, the batch cannot be over before it arrives."""
    pitches = ["60-second snake", "pong to 5 points", "breakout with 3 lives", "whack-a-mole for 30 seconds"]
    (root / "pitches.txt").write_text("".join(f"{p}\n" for p in pitches))
    # a person's Ctrl-C reaches a foreground process, whose SIGINT is not ignored; but a test run started as
    # a background job (`make test &`) ignores SIGINT, and a child inherits that (only a handler is reset at
    # exec): the batch then never saw the signal and the test skipped itself. A handler of this process's
    # own, for the moment of the start, gives the child the default again.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "batch", str(root / "pitches.txt"),
                                 "--setup", "local"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        wait_until(lambda: batch_dirs(root) and lines_of(batch_dirs(root)[0]) or proc.poll() is not None, 120,
                   "the cell started")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            kill9(proc)
    [folder] = batch_dirs(root)
    cells = runs.latest(lines_of(folder))
    if len(cells) == len(pitches) and all(c.state == "settled" for c in cells.values()):
        pytest.skip("every cell settled before Ctrl-C arrived (a very fast machine)")
    assert proc.returncode == 130, err
    assert f"crumb batch resume {folder.name}" in err
