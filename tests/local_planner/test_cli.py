"""`crumb plan` previews the offline Planner's spec."""

from __future__ import annotations

import json

from click.testing import CliRunner

from crumb.cli import main


def test_plan_prints_the_spec_page() -> None:
    result = CliRunner().invoke(main, ["plan", "een slangenspel met drie levens", "--steer", "30 seconden"])
    assert result.exit_code == 0, result.output
    assert "- genre: snake" in result.output and "- lives: 3" in result.output and "- time limit (s): 30" in result.output


def test_plan_researches_when_the_pitch_names_no_genre() -> None:
    result = CliRunner().invoke(main, ["plan", "宇宙のゲーム", "--json", "--seed", "4"])
    assert result.exit_code == 0, result.output
    spec = json.loads(result.stdout)
    assert spec["genre"] == "shooter" and spec["seed"] == 4
    assert "catalogue:shooter" in result.stderr
