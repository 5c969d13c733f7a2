"""`crumb qa PATH`: readable report, --json, exit 0 pass / 1 fail / 2 usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from crumb.cli import main
from tests.qa.conftest import GAMES, TIMER_10, chromium_or_skip


def run(*args: str):
    return CliRunner().invoke(main, ["qa", *args])


def test_missing_path_is_a_usage_error() -> None:
    result = run("no/such/game")
    assert result.exit_code == 2
    assert result.output.strip() == "crumb qa: no/such/game does not exist: pass a game folder (with index.html) or an .html file"


def test_non_html_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    result = run(str(tmp_path / "notes.txt"))
    assert result.exit_code == 2 and "not an .html file" in result.output


def test_bad_criteria_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text('[{"id": "BAD ID", "text": "x"}]')
    result = run(str(GAMES / "mini"), "--criteria", str(tmp_path / "c.json"))
    assert result.exit_code == 2 and "is not valid" in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.browser
def test_pass_prints_a_report_and_exits_0(tmp_path: Path) -> None:
    chromium_or_skip()
    (tmp_path / "c.json").write_text(json.dumps({"criteria": [TIMER_10]}))
    result = run(str(GAMES / "mini" / "index.html"), "--criteria", str(tmp_path / "c.json"), "--out", str(tmp_path / "qa"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("PASS")
    assert "1/1 passed" in result.output and (tmp_path / "qa" / "end.png").is_file()
    # the filmstrip beside the screenshots: its frames, the contact sheet, and the report line naming it
    film = sorted(p.name for p in (tmp_path / "qa" / "film").iterdir())
    assert "sheet.png" in film and len([n for n in film if n.startswith("frame-")]) >= 3
    assert "/qa/film/sheet.png" in result.output.split("  film ")[1]


@pytest.mark.browser
def test_fail_as_json_exits_1() -> None:
    chromium_or_skip()
    result = run(str(GAMES / "remote_script"), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False and "https://cdn.example.com/engine.min.js" in data["blocked"]
    assert "remote_url" in {f["code"] for f in data["findings"]}


@pytest.mark.browser
def test_the_qa_settings_of_crumb_toml_in_root_apply(tmp_path: Path) -> None:
    chromium_or_skip()
    project, plain = tmp_path / "project", tmp_path / "plain"
    project.mkdir()
    plain.mkdir()
    (project / "crumb.toml").write_text("[settings.qa]\nmax_files = 1\n")
    game = str(GAMES / "stores_late")  # two files
    strict = CliRunner().invoke(main, ["--root", str(project), "qa", game, "--json"])
    assert strict.exit_code == 1, strict.output
    assert [f["code"] for f in json.loads(strict.output)["findings"]] == ["too_many_files"]
    default = CliRunner().invoke(main, ["--root", str(plain), "qa", game, "--json"])
    assert default.exit_code == 0, default.output


def test_a_broken_qa_setting_in_crumb_toml_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "crumb.toml").write_text("[settings.qa]\nmax_files = 0\n")
    result = CliRunner().invoke(main, ["--root", str(tmp_path), "qa", str(GAMES / "mini")])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "qa.max_files" in result.output and "crumb.toml" in result.output, result.output


def test_crumb_qa_on_a_folder_holding_a_fifo_exits(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    chromium_or_skip()
    game = tmp_path / "game"
    game.mkdir()
    (game / "index.html").write_text((GAMES / "mini" / "index.html").read_text())
    os.mkfifo(game / "music.js")
    done = subprocess.run([sys.executable, "-m", "crumb", "qa", str(game), "--json"], capture_output=True, text=True,
                          timeout=180)  # before: never exited
    report = json.loads(done.stdout)
    assert done.returncode == 1 and any(f["code"] == "not_a_file" for f in report["findings"]), done.stdout[-2000:]
