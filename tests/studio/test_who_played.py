"""Who played, in the Studio, in real Chromium: a PASS the embedded studio earned after the bound
claude failed never looks like a plain PASS — not in the session list, not on the session page —
and each role's line says who played it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crumb.studio.server import Studio
from tests.studio.conftest import open_session
from tests.studio.scripted import Scripted

pytestmark = pytest.mark.browser

CLAUDE = {"harness": "claude", "provider": "anthropic", "model": "sonnet", "options": {}, "origin": "flag"}
LOCAL = {"harness": "local", "provider": None, "model": None, "options": {}, "origin": "fallback"}
NOT_FOUND = "executable 'claude' not found"


def passed(root: Path, *, fallback: bool) -> Scripted:
    """A session to PASS; with `fallback`, its builder bound to claude fails 3× and local builds it."""
    s = Scripted(root).start(bindings={"builder": [CLAUDE, LOCAL], "planner": [LOCAL], "verifier": [LOCAL]})
    s.plan()
    if fallback:
        for _ in range(3):
            s.fail("builder", NOT_FOUND)
    s.build()
    s.qa()
    s.judge("PASS", total=5.0, score=5.0)
    assert s.state.done is not None and s.state.done["reason"] == "pass", s.state.done
    return s


def test_a_fallback_pass_is_marked_in_the_list_and_on_the_session_page(page: Any, studio: Studio, root: Path) -> None:
    fell = passed(root, fallback=True)
    plain = passed(root, fallback=False)
    page.goto(studio.url)
    page.wait_for_selector(f'.session[data-session="{fell.session}"]')

    card = page.locator(f'.session[data-session="{fell.session}"]')
    badges = card.locator(".badges .badge").all_inner_texts()
    assert "done · pass · fallback" in badges and "PASS · fallback" in badges, badges
    assert "PASS" not in badges  # never the plain badge
    assert card.locator(".badge.warn.fallback").all_inner_texts() == ["PASS · fallback"]  # amber, not green
    note = card.locator(".played-note").inner_text()
    assert note.startswith("fallback: builder played by local after claude failed 3×") and NOT_FOUND in note

    other = page.locator(f'.session[data-session="{plain.session}"]')
    assert other.locator(".badges .badge").all_inner_texts()[:2] == ["done · pass", "PASS"]
    assert other.locator(".played-note").count() == 0

    open_session(page, studio, fell.session)
    page.wait_for_selector('#played li[data-role="builder"]')
    builder = page.locator('#played li[data-role="builder"]')
    assert builder.get_attribute("data-fallback") == "1"
    assert "builder local — fallback after claude failed 3×" in builder.inner_text()
    assert page.locator('#played li[data-fallback="0"]').all_inner_texts() == ["planner local", "verifier local:local-judge"]
    total = fell.state.verdicts[-1]["total"]
    assert page.locator("#badges .badge").all_inner_texts()[:2] == ["done · pass · fallback", f"PASS · {total} · fallback"]
    assert page.locator('#pipeline [data-stage="done"].fallback').inner_text() == "Done · pass · fallback"
    assert "fallback: builder played by local" in page.locator("#played .played-note").inner_text()

    open_session(page, studio, plain.session)
    page.wait_for_selector('#played li[data-role="builder"]')
    assert page.locator('#played li[data-fallback="1"]').count() == 0
    assert page.locator("#played .played-note").count() == 0
    assert page.locator('#pipeline [data-stage="done"]').inner_text() == "Done · pass"
    assert page.errors == []
