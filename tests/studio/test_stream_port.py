"""The pages' event streams have a port of their own: a browser opens at most six connections to one
host and port, and each open stream holds one for good. On the Studio's own port, six open pages left
the pages no connection for their own requests (steering hung) and a seventh page never loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from crumb.store.paths import session_inbox
from crumb.studio.server import Studio
from tests.studio.conftest import PAGE_TIMEOUT_MS, SSEReader, post_headers, set_visible
from tests.studio.scripted import Scripted
from tests.wait import wait_until


def test_the_stream_port_streams_to_the_studios_pages_and_serves_nothing_else(studio: Studio, http_client: httpx.Client,
                                                                               scripted: Scripted) -> None:
    scripted.start()
    base = f"http://127.0.0.1:{studio.stream_port}"
    url = f"{base}/api/sessions/{scripted.session}/stream"
    page_origin = f"http://127.0.0.1:{studio.port}"
    with http_client.stream("GET", url, headers={"origin": page_origin}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["access-control-allow-origin"] == page_origin  # the page may read it, cross-origin
    with http_client.stream("GET", url, headers={"origin": "http://evil.example"}) as r:
        assert "access-control-allow-origin" not in r.headers  # another site's page may not
    reader = SSEReader(url)
    try:
        wait_until(lambda: reader.seqs() == [1, 2], what="the backlog on the stream port")
    finally:
        reader.close()
    # read-only and nothing else: no pages, no API, no writes (those stay on the Studio's port)
    assert http_client.get(f"{base}/api/sessions").status_code == 404
    assert http_client.get(f"{base}/").status_code == 404
    steer = http_client.post(f"{base}/api/sessions/{scripted.session}/steer", json={"text": "hi"},
                             headers=post_headers(studio, origin=page_origin))
    assert steer.status_code in (404, 405) and not any(session_inbox(scripted.root, scripted.session).glob("*.txt"))
    # and it checks Host like the others (DNS rebinding)
    assert http_client.get(url, headers={"host": f"evil.example:{studio.stream_port}"}).status_code == 403


def test_the_page_streams_from_the_stream_port_and_its_csp_allows_just_that(studio: Studio, http_client: httpx.Client,
                                                                           scripted: Scripted) -> None:
    scripted.start()
    r = http_client.get(f"{studio.url}s/{scripted.session}")
    stream = f"http://127.0.0.1:{studio.stream_port}"
    assert f'<meta name="crumb-stream" content="{stream}">' in r.text
    csp = r.headers["content-security-policy"]
    assert f"connect-src 'self' {stream};" in csp


@pytest.mark.browser
def test_eight_session_pages_open_at_once_all_load_and_steer(browser: Any, studio: Studio, root: Path) -> None:
    """Eight visible pages in one browser: each loads and steers. Six hold a stream (the browser's limit
    per host and port); the others go live as soon as one of those is hidden."""
    sessions = [Scripted(root).start() for _ in range(8)]
    ctx = browser.new_context()
    try:
        pages = []
        for s in sessions:
            page = ctx.new_page()
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            page.add_init_script("window.__studioHiddenGraceMs = 0;")
            page.goto(f"{studio.url}s/{s.session}")
            page.wait_for_selector('#events li[data-seq="2"]')  # loaded: its first page of events is shown
            pages.append(page)

        def live() -> list[Any]:
            return [p for p in pages if p.evaluate("window.__studio.connects") >= 1]

        wait_until(lambda: len(live()) >= 6, timeout=10, what="six pages live")
        streaming = live()
        waiting = [p for p in pages if p not in streaming]
        assert len(streaming) == 6 and len(waiting) == 2  # Chromium's six connections per host and port
        for page in waiting:  # they say why they are not live
            page.wait_for_function("() => document.querySelector('#live').textContent === 'waiting for a stream'")
            assert "six Studio pages" in page.get_attribute("#live", "title")
        # the last page steers even though every stream slot is taken
        last, s = pages[-1], sessions[-1]
        last.fill("#steer-text", "make the snake faster")
        last.click("#steer-form button[type=submit]")
        last.wait_for_function("() => document.querySelector('#steer-status').textContent.startsWith('Sent')")
        assert [p.read_text() for p in session_inbox(root, s.session).glob("*.txt")] == ["make the snake faster\n"]
        # a live page hidden lets go of its stream: a waiting page goes live and gets what it missed
        set_visible(streaming[0], False)
        sessions[pages.index(waiting[0])].append("note", {"text": "while waiting"})
        waiting[0].wait_for_function("() => window.__studio.connects >= 1")
        waiting[0].wait_for_selector('#events li[data-seq="3"]')
        assert waiting[0].inner_text("#live") == "live" and waiting[0].get_attribute("#live", "title") == ""
    finally:
        ctx.close()
