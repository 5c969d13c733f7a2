"""The Studio in real Chromium where a person would otherwise get stuck: a long session list, a daemon
that cannot start, a pitch the daemon refuses, and an open page that keeps up without refetching."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from ulid import ULID

from crumb.studio.server import Studio
from tests.studio.scripted import Scripted

pytestmark = pytest.mark.browser

SESSIONS = 230  # more than two pages of 100, and more than the old fixed cap of 200


def ids_on_page(page: Any) -> list[str]:
    return page.eval_on_selector_all(".session", "els => els.map(e => e.dataset.session)")


def test_every_session_is_reachable_newest_first(page: Any, studio: Studio, root: Path) -> None:
    made = [str(ULID.from_timestamp(1_700_000_000 + i)) for i in range(SESSIONS)]
    for i, sid in enumerate(made):
        Scripted(root, sid).start(f"game number {i}")
    newest_first = made[::-1]
    page.goto(studio.url)
    page.wait_for_selector(".session")
    assert ids_on_page(page) == newest_first[:100]
    assert page.text_content("#count") == f"(100 of {SESSIONS})"
    late = Scripted(root).start("pitched while someone pages")  # arrives at the top meanwhile
    page.click("#more")
    page.wait_for_function("() => document.querySelectorAll('.session').length >= 200")
    page.click("#more")
    page.wait_for_function(f"() => document.querySelectorAll('.session').length >= {SESSIONS + 1}")
    page.wait_for_selector("#more", state="hidden")  # the last page: nothing more to load
    assert ids_on_page(page) == [late.session, *newest_first]  # each once, none skipped, newest first
    assert page.text_content("#count") == f"({SESSIONS + 1})"
    # the 2 s refresh keeps every loaded row, not just the first page
    Scripted(root).start("one more")
    page.wait_for_function(f"() => document.querySelectorAll('.session').length === {SESSIONS + 2}")
    assert ids_on_page(page)[-1] == made[0]
    assert page.errors == []


def test_start_daemon_reports_a_daemon_that_exits_at_once(page: Any, studio: Studio, root: Path) -> None:
    (root / "crumb.toml").write_text("[settings\nfoo = 1\n")  # not TOML: `crumb watch` exits at once
    page.goto(studio.url)
    page.wait_for_selector('#daemon[data-running="0"] #daemon-start')
    page.click("#daemon-start")
    error = page.wait_for_selector("#daemon-error", timeout=30_000)
    text = error.inner_text()
    assert "the daemon exited at once" in text and "crumb.toml: not valid TOML" in text and "fix the file" in text
    assert page.get_attribute("#daemon", "data-running") == "0"  # never claimed to run
    # the 4 s header refresh does not wipe the reason, and the button is there to try again
    page.wait_for_selector("#daemon-start:not([disabled])")
    page.evaluate("""() => { window.__redraws = 0;
      new MutationObserver(() => { window.__redraws++; })
        .observe(document.querySelector('#daemon'), { childList: true }); }""")
    page.wait_for_function("() => window.__redraws >= 1", timeout=15_000)  # the periodic refresh redrew it
    assert "not valid TOML" in page.inner_text("#daemon")


def test_a_rejected_pitch_shows_the_daemon_reason(page: Any, root: Path) -> None:
    from crumb.daemon.daemon import Daemon

    (root / "crumb.toml").write_text("[settings.inbox]\nmax_bytes = 200\n")
    daemon = Daemon(root, echo=False)  # the real daemon, in this process
    worker = threading.Thread(target=daemon.run, name="test-daemon", daemon=True)
    worker.start()
    studio = Studio(root, port=0).start()
    try:
        assert daemon.ready.wait(60), "the daemon did not start"
        page.goto(studio.url)
        page.fill("#pitch", "a very long pitch " * 20)  # over the 200-byte inbox limit set above
        page.select_option("#preset", "local")
        page.click("#pitch-submit")
        page.wait_for_url(lambda url: "/s/" in url)
        sid = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#notice.rejected", timeout=30_000)
        page.wait_for_function("() => !document.querySelector('#notice').textContent.includes('being written')")
        notice = page.inner_text("#notice")
        kept = next(p for p in (root / "inbox" / "rejected").iterdir() if not p.name.endswith(".why.txt"))
        assert "The daemon rejected this pitch" in notice
        assert "over the inbox limit of 200 bytes" in notice and "raise max_bytes" in notice
        assert f"inbox/rejected/{kept.name}" in notice and f"session: {sid}" in kept.read_text()
        assert "waiting" not in notice.lower()
        assert page.errors == []
    finally:
        studio.stop()
        daemon.stop()
        worker.join(30)


def test_an_open_page_follows_the_session_without_refetching(page: Any, studio: Studio, scripted: Scripted) -> None:
    """Panels arrive on the page's one stream: no request per event, so open tabs cost the daemon nothing more."""
    scripted.start()
    detail = f"/api/sessions/{scripted.session}"
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.url.endswith(detail) else None)
    page.goto(f"{studio.url}s/{scripted.session}")
    page.wait_for_function("() => window.__studio && window.__studio.connects >= 1 && window.__studio.panelVersion")
    first_paint = len(fetched)
    scripted.plan("Comet Snake")
    page.wait_for_function("() => document.querySelector('#title').textContent === 'Comet Snake'")
    scripted.build()
    page.wait_for_selector("iframe#preview")
    scripted.qa()
    page.wait_for_selector("#shots img")
    scripted.judge("PARTIAL")
    page.wait_for_function("() => document.querySelector('#badges').textContent.includes('PARTIAL')")
    assert "artifacts/game/index.html" in page.inner_text("#artifacts")
    assert len(fetched) == first_paint, f"the page refetched the session detail: {fetched[first_paint:]}"
    assert page.errors == []
