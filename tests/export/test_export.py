"""`crumb export` on a real session: the zip, the one HTML file and the itch.io zip each pass the real
`crumb qa` with the spec's own criteria; the report opens in Chromium with every section, its
screenshots and its game; nothing is overwritten without --force; a session without a game says why."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from crumb.export.report import SECTIONS
from crumb.store import paths
from crumb.store.reader import read_events
from tests.export.conftest import Made, crumb
from tests.wait import wait_until


def spec_and_build(made: Made) -> tuple[dict[str, Any], dict[str, Any]]:
    events = list(read_events(paths.transcript_path(made.root, made.session)))
    spec = [e for e in events if e["kind"] == "spec"][-1]["data"]
    build = [e for e in events if e["kind"] == "build"][-1]["data"]["manifest"]
    return spec, build


def qa_passes(made: Made, target: Path, tmp_path: Path) -> dict[str, Any]:
    """The real `crumb qa` on an exported game, with the acceptance criteria of the session's spec."""
    spec, _ = spec_and_build(made)
    criteria = tmp_path / "spec.json"
    criteria.write_text(json.dumps(spec))
    run = crumb("qa", str(target), "--criteria", str(criteria), "--json", timeout=240)
    result = json.loads(run.stdout)
    assert run.returncode == 0 and result["ok"], run.stdout[-2000:] + run.stderr
    assert result["probes"] and all(p["ok"] for p in result["probes"])
    return result


@pytest.mark.browser
def test_zip_holds_the_game_spec_and_verdict_and_its_game_passes_qa(made: Made, tmp_path: Path) -> None:
    out = tmp_path / "snake.zip"
    run = crumb("--root", str(made.root), "export", made.session[-5:], "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(out)
    _, build = spec_and_build(made)
    with zipfile.ZipFile(out) as zf:
        names = zf.namelist()
        top = names[0].split("/")[0]
        game = {n.removeprefix(f"{top}/game/"): zf.read(n) for n in names if n.startswith(f"{top}/game/")}
        verdict = json.loads(zf.read(f"{top}/verdict.json"))
        assert "Acceptance criteria" in zf.read(f"{top}/spec.md").decode()
        assert "PASS" in zf.read(f"{top}/README.md").decode()
        zf.extractall(tmp_path / "unzipped")
    assert {f["path"]: f["sha256"] for f in build["files"]} == {p: hashlib.sha256(d).hexdigest() for p, d in game.items()}
    assert len(game) > 1  # a multi-file game, whole
    assert verdict["verdict"] == "PASS" and verdict["session"] == made.session
    assert verdict["rounds"][0]["scorecard"] and {s["source"] for s in verdict["rounds"][0]["scorecard"]} == {"QA", "model"}
    qa_passes(made, tmp_path / "unzipped" / top / "game", tmp_path)

    again = crumb("--root", str(made.root), "export", made.session, "-o", str(out))
    assert again.returncode == 1 and "exists: pass --force" in again.stderr
    assert crumb("--root", str(made.root), "export", made.session, "-o", str(out), "--force").returncode == 0


@pytest.mark.browser
def test_one_html_file_inlines_everything_and_passes_qa(made: Made, tmp_path: Path) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    run = crumb("--root", str(made.root), "export", made.session, "--html", cwd=alone)
    assert run.returncode == 0, run.stderr
    files = list(alone.iterdir())
    assert len(files) == 1 and files[0].name.endswith(f"-{made.session[-6:]}.html")  # default: cwd, named after the game
    page = files[0].read_text()
    assert "<script src=" not in page and 'rel="stylesheet"' not in page
    qa_passes(made, files[0], tmp_path)


@pytest.mark.browser
def test_itch_zip_has_index_html_at_its_root_and_passes_qa(made: Made, tmp_path: Path) -> None:
    out = tmp_path / "itch.zip"
    run = crumb("--root", str(made.root), "export", made.session, "--itch", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "viewport" in run.stderr
    with zipfile.ZipFile(out) as zf:
        names = zf.namelist()
        zf.extractall(tmp_path / "itch")
    assert "index.html" in names and all("/" not in n for n in names)
    qa_passes(made, tmp_path / "itch", tmp_path)


def test_a_session_without_a_game_says_why_and_what_to_do(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    transcript = paths.transcript_path(root, made.session)
    lines = transcript.read_text().splitlines(keepends=True)
    transcript.write_text("".join(lines[:2]))  # session.start and goal: the planner never answered
    for form in ("--zip", "--html", "--itch"):
        run = crumb("--root", str(root), "export", made.session, form, "-o", str(tmp_path / "x"))
        assert run.returncode == 1
        assert run.stderr.count("\n") == 1 and "has no game (no build yet" in run.stderr and "crumb wait" in run.stderr
    assert not (tmp_path / "x").exists()
    report = crumb("--root", str(root), "export", made.session, "--report", "-o", str(tmp_path / "r.html"))
    assert report.returncode == 0 and "no game was built" in (tmp_path / "r.html").read_text()


@pytest.mark.browser
def test_the_report_opens_in_chromium_with_every_section_its_screenshots_and_the_game(made: Made, tmp_path: Path,
                                                                                        browser: Any) -> None:
    out = tmp_path / "report.html"
    run = crumb("--root", str(made.root), "export", made.session, "--report", "-o", str(out))
    assert run.returncode == 0, run.stderr
    page = browser.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    try:
        page.goto(out.as_uri())
        for section in SECTIONS:
            assert page.locator(f"section#{section} h2").is_visible(), section
        text = page.locator("main").inner_text()
        assert "60-second snake" in text and "PASS" in text and "Round 1" in text
        assert "goal_fit" in text and "crumb-local-1" in text  # scorecard and who played
        assert "Acceptance criteria" in text and "CRUMB spec" not in text  # rendered, the editing note dropped
        assert page.locator("#timeline tr").count() == len(list(read_events(paths.transcript_path(made.root, made.session)))) + 1
        shots = page.locator("#qa img")
        assert shots.count() == 3
        page.wait_for_function("[...document.querySelectorAll('#qa img')].every(i => i.complete && i.naturalWidth > 0)")
        frame = page.frame_locator("#game iframe")
        assert frame.locator("canvas").count() == 1
        game = next(f for f in page.frames if f != page.main_frame)
        state = wait_until(lambda: game.evaluate("window.__crumb && window.__crumb.state()"), 30, "the game's hook")
        assert state["genre"] == "snake"
        assert all(u.startswith(("file:", "data:", "about:")) for u in requested), requested  # nothing external
    finally:
        page.close()
