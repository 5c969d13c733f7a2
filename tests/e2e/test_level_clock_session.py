"""Issue 16's pitch end to end, as a user runs it: "seven fast levels" is a game of seven levels, and
"13 seconds to get through each one" is each level's clock, not a 13-second game. Real `crumb run`
processes, real QA in Chromium; the probes in qa.result are what prove it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crumb.actors.embedded.builder import build_game
from crumb.actors.embedded.planner import plan
from crumb.protocol.game import Spec
from tests.daemon.conftest import crumb, events

pytestmark = pytest.mark.timeout(900)

PITCH = "a platformer with seven fast levels and 13 seconds to get through each one"


def run(root: Path, *args: str) -> tuple[int, dict]:
    out = crumb(root, "run", "--json", *args, timeout=600)
    assert out.stdout.strip(), out.stderr
    return out.returncode, json.loads(out.stdout)


def test_seven_levels_of_thirteen_seconds_each_pass_their_probes_in_the_game(root: Path) -> None:
    code, got = run(root, PITCH)
    assert code == 0 and got["verdict"] == "PASS" and got["round"] == 1, got
    spec = events(root, got["session"], "spec")[-1]["data"]
    assert spec["genre"] == "platformer"
    assert spec["numbers"]["levels"] == 7 and spec["numbers"]["level_time_s"] == 13
    assert spec["numbers"].get("time_limit_s") is None, "13 seconds per level must not become a 13-second game"
    stated = {n["field"]: n for n in spec["reading"]["numbers"]}
    assert stated["levels"]["criterion"] == "levels" and stated["level_time_s"]["criterion"] == "levelclock"
    qa = events(root, got["session"], "qa.result")[-1]["data"]
    probes = {p["id"]: p for p in qa["probes"]}
    assert {"start", "levels", "levelclock"} <= set(probes) and all(p["ok"] for p in probes.values()), qa["probes"]
    config = (root / "sessions" / got["session"] / "artifacts").rglob("config.js")
    assert any('"levelTime": 13' in c.read_text() and '"levels": 7' in c.read_text() for c in config)


def test_a_game_whose_level_clock_never_runs_fails_its_probes_and_is_fixed(root: Path) -> None:
    code, got = run(root, PITCH, "--fault", "wrongtimer")
    assert code == 0 and got["done"] == "pass" and got["round"] == 2, got
    runs = events(root, got["session"], "qa.result")
    first, last = runs[0]["data"], runs[-1]["data"]
    failed = {p["id"] for p in first["probes"] if not p["ok"]}
    assert {"start", "levelclock"} <= failed, first["probes"]
    assert all(p["ok"] for p in last["probes"]), last["probes"]


LEVEL_CLOCK_PITCHES = [
    ("stacker tower game, 20 seconds", {"time_limit_s": 20}),  # idle-safe genres: the timer probe reads timeLeft
    ("simon says, 20 seconds", {"time_limit_s": 20}),
    ("a platformer with 3 levels and a 20 second timer", {"time_limit_s": 20, "levels": 3}),
    ("breakout with 20 seconds per level and 3 lives", {"level_time_s": 20, "lives": 3}),
    ("memory cards, 60 seconds, 12 seconds per level", {"time_limit_s": 60, "level_time_s": 12}),
    ("snake, quince segundos por nivel", {"level_time_s": 15}),
    ("stacker tower game, 10 секунд на уровень", {"level_time_s": 10}),
    ("simon says with three lives and ten seconds per level", {"lives": 3, "level_time_s": 10}),
    ("snake at 2x speed", {"speed": 2}),  # a stated factor is a number the game is checked for too
]


@pytest.mark.browser
@pytest.mark.parametrize(("pitch", "numbers"), LEVEL_CLOCK_PITCHES, ids=[p[0][:40] for p in LEVEL_CLOCK_PITCHES])
def test_a_level_clock_pitch_becomes_a_game_that_passes_its_probes(pitch: str, numbers: dict, tmp_path: Path,
                                                                   qa_runner) -> None:
    spec = plan(pitch)
    assert isinstance(spec, Spec)
    assert {k: v for k, v in spec.numbers.model_dump().items() if v is not None} == numbers, spec.rationale
    assert spec.reading is not None and all(n.honoured and n.criterion for n in spec.reading.numbers), spec.reading
    build_game(spec, tmp_path / "game")
    result = qa_runner.check(tmp_path / "game", criteria=spec.criteria, out_dir=tmp_path / "qa")
    assert result.ok and all(p.ok for p in result.probes), [p for p in result.probes if not p.ok]
    assert {p.id for p in result.probes} == {c.id for c in spec.criteria}
