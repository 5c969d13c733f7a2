"""A cell pitched with a session id its executor chose beforehand (so a retry resumes that session)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from ulid import ULID

from crumb.batch.cell import pitch_cell
from crumb.batch.plan import BatchPlan, Cell, parse_setup
from crumb.daemon import grammar

PLAN = BatchPlan(pitches=["60-second snake"], setups=[parse_setup("local,fault=wrongtimer")], seeds=[7])


def test_the_pitch_names_the_session_the_executor_chose(tmp_path: Path) -> None:
    chosen = str(ULID())
    assert pitch_cell(tmp_path, PLAN, Cell(1, "local,fault=wrongtimer", 7), session=chosen) == chosen
    [dropped] = list((tmp_path / "inbox").iterdir())
    req = grammar.parse_pitch(dropped.read_text(encoding="utf-8"))
    assert (req.session, req.pitch, req.seed, req.fault) == (chosen, "60-second snake", 7, "wrongtimer")


def test_a_session_id_that_is_not_a_ulid_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(click.BadParameter, match="not a ULID"):
        pitch_cell(tmp_path, PLAN, Cell(1, "local,fault=wrongtimer", 7), session="../../etc")
    assert not (tmp_path / "inbox").exists() or not any((tmp_path / "inbox").iterdir())
