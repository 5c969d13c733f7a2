"""The HTML report in real Chromium, opened from the batch folder as a file (offline): every plot is there
and visible with a mark for each set-up, every gallery image loads and links to a game that exists."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from tests.report.batchmaker import BATCH_ID, REPO, Made

pytestmark = pytest.mark.browser


def test_the_html_report_shows_its_plots_and_gallery(made: Made, browser: Any) -> None:
    out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(made.root), "report", BATCH_ID, "--html"],
                         cwd=REPO, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    html = made.folder / "report.html"
    assert f"report: {html}" in out.stderr
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(html.as_uri())
        for name in ("pass_rate", "cost_quality", "rounds", "role_time"):
            svg = page.locator(f"#plot-{name} svg")
            svg.scroll_into_view_if_needed()
            box = svg.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150, name
        slugs = ["local", "local-fault-wrongtimer", "builder-command-bin-false"]
        for s in slugs:
            assert page.locator(f"#plot-pass_rate [id='pass-{s}']").count() == 1
            assert page.locator(f"#plot-cost_quality [id='cost-{s}']").count() == 1
            assert page.locator(f"#plot-role_time [id^='role-{s}-']").count() >= 3
        # the judged set-ups' bars and interval bars are drawn (the fallback-only set-up has no judged cell)
        for s in slugs[:2]:
            bar = page.locator(f"#plot-pass_rate [id='pass-{s}'] path").bounding_box()
            ci = page.locator(f"#plot-pass_rate [id='ci-{s}']").bounding_box()
            assert bar is not None and bar["height"] > 10 and ci is not None and ci["height"] > 10
        assert "no judged cell" in page.inner_text("#plot-pass_rate")
        figures = page.locator("figure.cell")
        assert figures.count() == 6
        assert page.locator("figure.cell[data-bucket='missing'] img").count() == 0
        assert "missing" in page.inner_text("figure.cell[data-bucket='missing']")
        images = page.locator("figure.cell a.game img")
        assert images.count() == 5
        for i in range(5):
            img = images.nth(i)
            img.scroll_into_view_if_needed()
            page.wait_for_function("img => img.complete", arg=img.element_handle())
            assert img.evaluate("img => img.naturalWidth") > 0
        hrefs = page.eval_on_selector_all("figure.cell a.game", "els => els.map(a => a.getAttribute('href'))")
        for href in hrefs:
            assert not href.startswith(("/", "file:")), href  # relative: the folder opens anywhere
            assert (html.parent / href).is_file() and href.endswith("artifacts/game/index.html")
        assert errors == []
    finally:
        ctx.close()
