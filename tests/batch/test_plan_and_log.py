"""batch.toml and runs.jsonl as a person and a crash leave them."""

from __future__ import annotations

from pathlib import Path

import pytest

from crumb.batch import runs
from crumb.batch.plan import BatchPlan, Cell, PlanError, load_plan, parse_setup


def plan() -> BatchPlan:
    return BatchPlan(name="t", pitches=["60-second snake", "pong to 5 \"au ralenti\" \\ with\ttabs, 乒乓"],
                     setups=[parse_setup("local"), parse_setup("builder=claude:sonnet,verifier=codex"),
                             parse_setup("local,fault=wrongtimer,fallback=allow")], seeds=[1, 2])


def test_a_written_plan_reads_back_the_same_and_lists_every_cell_once(tmp_path: Path) -> None:
    p = plan()
    (tmp_path / "batch.toml").write_text(p.to_toml())
    again = load_plan(tmp_path / "batch.toml")
    assert again == p
    ids = [c.id for c in again.cells()]
    assert len(ids) == len(set(ids)) == 2 * 3 * 2
    assert again.setup("local,fault=wrongtimer,fallback=allow").fault == "wrongtimer"
    assert again.setup("builder=claude:sonnet,verifier=codex").role_flags() == ("builder=claude:sonnet", "verifier=codex")


@pytest.mark.parametrize(("text", "says"), [
    ("local,cross", "two presets"),
    ("local,,x", "empty item"),
    ("painter=claude", "unknown role 'painter'"),
    ("local,fallback=maybe", "fallback=allow or fallback=deny"),
])
def test_a_bad_setup_is_refused_naming_the_fix(text: str, says: str) -> None:
    with pytest.raises(PlanError, match=says):
        parse_setup(text)


@pytest.mark.parametrize(("toml", "says"), [
    ('pitches = ["snake"]\nsetups = [{name = "a"}, {name = "a"}]\n', "listed twice"),
    ('pitches = ["snake", " "]\nsetups = [{name = "a"}]\n', "pitch 2 is empty"),
    ('pitches = ["snake"]\nsetups = [{name = "a"}]\ncolour = 1\n', "colour"),
    ('pitches = ["snake"\n', "not valid TOML"),
    ('pitches = ["snake"]\nsetups = [{name = "A b"}, {name = "a-b"}]\n', "would share cell ids"),
])
def test_a_bad_batch_toml_is_refused_in_one_line_naming_what(tmp_path: Path, toml: str, says: str) -> None:
    (tmp_path / "batch.toml").write_text(toml)
    with pytest.raises(PlanError, match=says) as err:
        load_plan(tmp_path / "batch.toml")
    assert "\n" not in str(err.value)


def test_a_line_torn_by_a_crash_is_skipped_and_the_next_append_is_whole(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    cell = Cell(pitch=1, setup="local", seed=1)
    runs.append(log, runs.RunLine.of(cell, "started", session="01JBENCHSESSION00000000000"))
    with open(log, "ab") as f:
        f.write(b'{"v": 1, "at": "2026-')  # the process died mid-write
    assert [x.state for x in runs.read(log)] == ["started"]
    runs.append(log, runs.RunLine.of(cell, "failed", error="timed out"))
    lines = runs.read(log)
    assert [x.state for x in lines] == ["started", "failed"]
    assert runs.latest(lines)[cell.id].error == "timed out"
