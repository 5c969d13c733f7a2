"""The bad-input corpus: every case file under cases/ is driven through its real entry point, and
each must give its clear one-line error and lose nothing."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.badinput.agents import run_agent
from tests.badinput.commands import run_cli, run_config
from tests.badinput.corpus import Case, load_cases
from tests.badinput.games import run_game
from tests.badinput.inbox import run_pitch, run_steer
from tests.badinput.studio import run_studio

CASES = load_cases()


def by(entry: str) -> list[Any]:
    return [pytest.param(c, id=c.id) for c in CASES if c.entry == entry]


def test_the_corpus_covers_every_entry_point() -> None:
    counts = Counter(c.entry for c in CASES)
    assert len(CASES) >= 45, f"only {len(CASES)} cases"
    assert set(counts) == {"pitch_inbox", "steer_inbox", "cli", "config", "agent", "game", "studio"}, counts


@pytest.mark.parametrize("case", by("pitch_inbox"))
def test_pitch_inbox(inbox_world: Any, case: Case) -> None:
    run_pitch(inbox_world, case)


@pytest.mark.parametrize("case", by("steer_inbox"))
def test_steer_inbox(inbox_world: Any, case: Case) -> None:
    run_steer(inbox_world, case)


@pytest.mark.parametrize("case", by("cli"))
def test_cli(cli_world: Path, case: Case) -> None:
    run_cli(cli_world, case)


@pytest.mark.parametrize("case", by("config"))
def test_config(tmp_path: Path, case: Case) -> None:
    run_config(tmp_path / "root", case)


@pytest.mark.parametrize("case", by("agent"))
def test_agent_output(tmp_path: Path, case: Case) -> None:
    run_agent(tmp_path, case)


@pytest.mark.parametrize("case", by("game"))
def test_game(qa_runner: Any, tmp_path: Path, case: Case) -> None:
    run_game(qa_runner, tmp_path, case)


@pytest.mark.parametrize("case", by("studio"))
def test_studio_request(studio_world: Any, case: Case) -> None:
    run_studio(*studio_world, case)
