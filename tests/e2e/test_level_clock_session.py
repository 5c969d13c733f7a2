"""Issue 16's pitch end to end, as a user runs it: "seven fast levels" is a game of seven levels, and
"13 seconds to get through each one" is each level's clock, not a 13-second game. Real `crumb run`
processes, real QA in Chromium; the probes in qa.result are what prove it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
