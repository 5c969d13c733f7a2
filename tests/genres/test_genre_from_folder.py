"""A genre added from a folder outside CRUMB, named in crumb.toml, goes through a real session: the
worked example of docs/add-a-genre.md, read from the page, pitched with `crumb run` (plan, build, QA
in headless Chromium, verdict), with no other file touched."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crumb.genres import ids
from tests.daemon.conftest import crumb, events, state
from tests.genres.docexample import example_files, example_pitch, write_example

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_worked_example_from_a_folder_passes_a_real_session_named_after_it(tmp_path: Path) -> None:
    files = example_files()
    assert set(files) == {"balloon/genre.py", "balloon/game.js"}, "the doc's worked example is one folder of two files"
    root = tmp_path / "root"
    write_example(root / "my-genres")
    (root / "crumb.toml").write_text('[genres]\npaths = ["my-genres"]\n')
    assert "balloon" not in ids(), "the example is not a built-in: only the setting brings it in"

    out = crumb(root, "run", "--json", example_pitch(), timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "warning" not in out.stderr, out.stderr
    got = json.loads(out.stdout.splitlines()[0])
    assert (got["done"], got["verdict"]) == ("pass", "PASS"), got
    sid = got["session"]

    spec = events(root, sid, "spec")[-1]["data"]
    assert spec["genre"] == "balloon" and spec["title"].endswith("Balloon Pop")
    assert spec["numbers"]["time_limit_s"] == 20 and spec["numbers"]["lives"] == 3
    assert spec["reading"]["genre"]["fits"] is True and spec["reading"]["genre"]["note"].startswith("Balloon Pop:")
    game = Path(got["game"]).parent
    assert (game / "balloon.js").read_text() == files["balloon/game.js"], "the folder's game is what was built"

    qa = events(root, sid, "qa.result")[-1]["data"]
    probes = {p["id"]: p for p in qa["probes"]}
    assert probes["genre"]["ok"] and probes["genre"]["observed"] == {"genre": "balloon"}
    assert all(p["ok"] for p in qa["probes"]) and {"timer", "lives", "score"} <= set(probes)
    assert state(root, sid).done["reason"] == "pass"

    status = crumb(root, "status", sid)
    assert "Balloon Pop (balloon)" in status.stdout, status.stdout


def test_without_the_setting_the_pitch_gets_a_builtin_game(tmp_path: Path) -> None:
    """The same pitch in a root that does not name the folder: no balloon game appears from anywhere."""
    out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "plan", "--json", example_pitch()],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '"genre": "balloon"' not in out.stdout
