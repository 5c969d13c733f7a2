"""The Studio in real Chromium: pages render, the timeline is live, the preview plays, steering
drops inbox files, hostile text stays text and a hostile game stays in its box."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from crumb.store.paths import session_inbox
from crumb.store.writer import TranscriptWriter
from crumb.studio.server import Studio
from tests.studio.conftest import open_session, preview_frame
from tests.studio.scripted import Scripted
from tests.wait import wait_until

pytestmark = pytest.mark.browser

XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><b>bold</b>'


def inbox_texts(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return [p.read_text() for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")]


def test_session_list_shows_sessions_newest_first(page: Any, studio: Studio, root: Path) -> None:
    older = Scripted(root).to_partial()
    newer = Scripted(root).start("a pong game for two")
    page.goto(studio.url)
    page.wait_for_selector(".session")
    ids = page.eval_on_selector_all(".session", "els => els.map(e => e.dataset.session)")
    assert ids == [newer.session, older.session]
    first = page.locator(".session").nth(1)
    assert "Neon Snake" in first.inner_text() and "PARTIAL" in first.inner_text() and "snake" in first.inner_text()
    thumb = first.locator(".thumb img").element_handle()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=thumb)  # an image loads after the row shows
    assert page.errors == []


def test_session_view_shows_pipeline_scorecard_artifacts_and_live_timeline(page: Any, studio: Studio,
                                                                          scripted: Scripted) -> None:
    scripted.to_partial()
    open_session(page, studio, scripted.session)
    page.wait_for_selector('#events li[data-seq="8"]')
    assert page.inner_text("#title") == "Neon Snake"
    assert "waiting for approval" in page.inner_text("#badges")
    assert page.locator('#pipeline [data-stage="waiting"].current').count() == 1
    card = page.inner_text("#scorecard")
    for needle in ("MEASURED · QA", "JUDGED · LOCAL-JUDGE", "CORRECTED · VALIDATOR", "Enter starts the round",
                   "goal_fit ok · evidence: qa"):
        assert needle.lower() in card.lower()
    assert "artifacts/game/index.html" in page.inner_text("#artifacts") and "✓ match" in page.inner_text("#artifacts")
    assert page.locator("#shots img").evaluate("img => img.complete && img.naturalWidth > 0")
    assert "verifies" in page.inner_text("#budgets")
    page.click("#logs button")
    page.wait_for_function("() => document.querySelector('#log-view').textContent.includes('wrote 2 criteria')")
    # live: an append shows up without a reload, and the panels follow
    scripted.append("note", {"text": "hello from the dispatcher"}, body="hello from the dispatcher")
    page.wait_for_selector('#events li[data-seq="9"]')
    assert "hello from the dispatcher" in page.inner_text('#events li[data-seq="9"]')
    assert page.evaluate("window.__studio.duplicates") == 0
    assert page.errors == []


def test_pipeline_follows_the_stages_live(page: Any, studio: Studio, scripted: Scripted) -> None:
    """Each stage lights up as its event is appended, on one open page, with the round beside it."""
    scripted.start()
    open_session(page, studio, scripted.session)

    def current(stage: str) -> None:
        page.wait_for_selector(f'#pipeline [data-stage="{stage}"].current')
        assert page.locator("#pipeline .stage.current").count() == 1

    current("planner")
    scripted.plan()
    current("builder")
    assert "round 1" in page.inner_text('#pipeline [data-stage="builder"]')
    scripted.build()
    current("qa")
    scripted.qa()
    current("verifier")
    scripted.judge("PARTIAL")
    current("waiting")
    for stage in ("planner", "builder", "qa", "verifier"):
        assert page.locator(f'#pipeline [data-stage="{stage}"].past').count() == 1, stage
    assert page.evaluate("window.__studio.connects") == 1 and page.evaluate("window.__studio.duplicates") == 0


def test_preview_is_playable(page: Any, studio: Studio, scripted: Scripted) -> None:
    scripted.to_partial()
    open_session(page, studio, scripted.session)
    frame = preview_frame(page, f"http://localhost:{studio.preview_port}/")
    frame.wait_for_function("() => window.__crumb && window.__crumb.state().phase === 'title'")
    page.frame_locator("iframe#preview").locator("canvas").click()
    frame.wait_for_function("() => window.__crumb.state().phase === 'playing'")
    before = frame.evaluate("window.__crumb.state().score")
    page.frame_locator("iframe#preview").locator("canvas").press("ArrowUp")
    page.frame_locator("iframe#preview").locator("canvas").press("ArrowLeft")
    frame.wait_for_function(f"() => window.__crumb.state().score >= {before + 2}")
    assert frame.evaluate("window.__crumb.state().keys") == 2


def test_steer_message_lands_in_the_inbox_and_then_the_timeline(page: Any, studio: Studio, root: Path,
                                                               scripted: Scripted) -> None:
    scripted.to_partial()
    open_session(page, studio, scripted.session)
    page.fill("#steer-text", "@builder make the fruit brighter")
    page.click("#steer-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#steer-status').textContent.startsWith('Sent')")
    folder = session_inbox(root, scripted.session)
    assert inbox_texts(folder) == ["@builder make the fruit brighter\n"]
    assert page.input_value("#steer-text") == ""
    # what the daemon's inbox reader would record (the daemon itself is exercised in test_e2e_daemon)
    TranscriptWriter(scripted.writer.path, scripted.session, role="inbox").append(
        "user.intervene", {"text": "make the fruit brighter", "actor": "builder"}, from_="user")
    page.wait_for_selector('#events li[data-kind="user.intervene"]')
    assert "@builder make the fruit brighter" in page.inner_text('#events li[data-kind="user.intervene"]')


def test_buttons_drop_commands(page: Any, studio: Studio, root: Path, scripted: Scripted) -> None:
    scripted.to_partial()
    open_session(page, studio, scripted.session)
    page.wait_for_selector("#btn-approve.primary")  # highlighted: the session waits for approval
    folder = session_inbox(root, scripted.session)
    page.click("#btn-approve")
    wait_until(lambda: inbox_texts(folder) == ["/approve\n"], what="/approve in the inbox")
    page.fill("#steer-text", "the fruit is invisible")
    page.click("#btn-veto")
    wait_until(lambda: sorted(inbox_texts(folder)) == ["/approve\n", "/veto the fruit is invisible\n"], what="/veto")
    page.click("#btn-pause")
    page.click("#btn-resume")
    wait_until(lambda: len(inbox_texts(folder)) == 4, what="pause and resume")
    assert sorted(inbox_texts(folder)) == ["/approve\n", "/pause\n", "/resume\n", "/veto the fruit is invisible\n"]


def test_pitch_form_drops_a_pitch_and_opens_the_session(page: Any, studio: Studio, root: Path, agent_clis: Path) -> None:
    (root / "crumb.toml").write_text('preset = "codex"\n')
    page.goto(studio.url)
    page.wait_for_selector("#preset option", state="attached")
    # the default is what `crumb pitch` would get (here crumb.toml's preset), not a hard-coded one
    assert page.eval_on_selector("#preset", "s => s.options[s.selectedIndex].text") == "default (codex)"
    page.fill("#pitch", "a tiny breakout clone")
    page.click(".bindings summary")
    page.select_option('select[data-role="builder"]', "claude")
    page.fill('input[data-role="builder"]', "sonnet")
    page.click("#pitch-submit")
    page.wait_for_url(re.compile(r"/s/[0-9A-Z]{26}$"))
    sid = page.url.rsplit("/", 1)[1]
    texts = inbox_texts(root / "inbox")
    assert len(texts) == 1
    assert texts[0] == f"---\nsession: {sid}\nbuilder: claude:sonnet\n---\na tiny breakout clone\n"
    page.wait_for_selector("#notice:not([hidden])")
    assert "not started" in page.inner_text("#notice")
    # the page picks the session up as soon as it exists, without a reload
    Scripted(root, sid).start("a tiny breakout clone")
    page.wait_for_selector('#events li[data-seq="2"]')
    page.wait_for_function("() => document.querySelector('#pitch').textContent === 'a tiny breakout clone'")


def test_hostile_text_is_shown_as_text(page: Any, studio: Studio, root: Path) -> None:
    s = Scripted(root)
    s.start(XSS)
    s.append("note", {"text": XSS}, body=XSS)
    s.plan(title="<img src=x onerror=window.__pwned=3>")
    (s.dir / "artifacts" / "spec.md").write_text(XSS)
    page.goto(studio.url)
    page.wait_for_selector(".session")
    assert "<script>" in page.inner_text(".session")
    open_session(page, studio, s.session)
    page.wait_for_selector('#events li[data-seq="5"]')
    page.wait_for_function("() => document.querySelector('#spec .md p')")  # spec.md rendered, as text
    assert page.inner_text("#pitch") == XSS
    assert page.inner_text("#title") == "<img src=x onerror=window.__pwned=3>"
    assert XSS in page.inner_text('#events li[data-seq="2"]') and XSS in page.inner_text('#events li[data-seq="3"]')
    assert page.inner_text("#spec .md") == XSS
    assert page.evaluate("window.__pwned") is None
    assert page.locator("main img[src='x']").count() == 0 and page.locator("main b").count() == 0


def test_pitch_with_markup_is_stored_verbatim(page: Any, studio: Studio, root: Path) -> None:
    page.goto(studio.url)
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#pitch", XSS)
    page.click("#pitch-submit")
    page.wait_for_url(re.compile(r"/s/[0-9A-Z]{26}$"))
    assert inbox_texts(root / "inbox")[0].endswith(XSS + "\n")
    assert page.evaluate("window.__pwned") is None


EVIL = """<!doctype html><html><body><canvas id="game"></canvas><script>
window.__evil = {};
function note(k, v) { window.__evil[k] = String(v); }
fetch("STUDIO/api/sessions").then(r => note("get", "status " + r.status)).catch(e => note("get", "blocked " + e));
fetch("STUDIO/api/daemon/start", {method: "POST"}).then(r => note("post", "status " + r.status))
  .catch(e => note("post", "blocked " + e));
try { note("parent", window.parent.document.title); } catch (e) { note("parent", "blocked " + e.name); }
try { note("token", window.parent.document.querySelector("meta").content); } catch (e) { note("token", "blocked " + e.name); }
try { window.top.location = "STUDIO/api/daemon"; note("top", "navigated"); } catch (e) { note("top", "blocked " + e.name); }
try { note("cookie", document.cookie); } catch (e) { note("cookie", "blocked " + e.name); }
try { note("storage", localStorage.length); } catch (e) { note("storage", "blocked " + e.name); }
var img = new Image(); img.onerror = () => note("img", "blocked"); img.onload = () => note("img", "loaded");
img.src = "STUDIO/api/sessions";
window.__crumb = { version: 1, genre: "evil", seed: 1, state: () => ({ phase: "title", score: 0, hint: [] }) };
</script></body></html>"""


def test_a_game_cannot_reach_the_studio(page: Any, studio: Studio, root: Path) -> None:
    s = Scripted(root)
    s.start()
    s.plan()
    s.build(EVIL.replace("STUDIO", studio.url.rstrip("/")))
    requests: list[str] = []
    page.on("request", lambda r: requests.append((r.url, r.resource_type, r.method)) if r.frame != page.main_frame else None)
    page.on("requestfailed", lambda r: requests.append(("FAILED", r.url, r.failure)))
    open_session(page, studio, s.session)
    frame = preview_frame(page)
    frame.wait_for_function("() => window.__evil && ['get','post','parent','token','top','img','storage'].every(k => k in window.__evil)")
    evil = frame.evaluate("window.__evil")
    assert evil["get"].startswith("blocked") and evil["post"].startswith("blocked"), evil
    assert evil["parent"] == "blocked SecurityError" and evil["token"] == "blocked SecurityError"
    assert evil["top"].startswith("blocked") or page.url.endswith(s.session), evil
    assert evil["img"] == "blocked" and evil["storage"].startswith("blocked"), evil
    assert page.url == f"{studio.url}s/{s.session}"
    # CSP stopped them in the browser (Chromium reports the attempt, then its failure): none left it
    tried = [u[0] for u in requests if u[0].startswith(studio.url)]
    failed = [u[1] for u in requests if u[0] == "FAILED" and u[2] == "csp"]
    assert sorted(tried) == sorted(failed), requests
    assert inbox_texts(root / "inbox") == [] and not (root / ".crumb" / "daemon.log").exists()


def test_reconnect_resumes_in_the_browser(page: Any, root: Path) -> None:
    s = Scripted(root).start()
    first = Studio(root, port=0).start()
    port = first.port
    try:
        open_session(page, first, s.session)
        page.wait_for_selector('#events li[data-seq="2"]')
        s.append("note", {"text": "a"})
        page.wait_for_selector('#events li[data-seq="3"]')
    finally:
        first.stop()
    page.wait_for_function("() => document.querySelector('#live').textContent === 'reconnecting'")
    for i in range(5):  # appended while the page is cut off
        s.append("note", {"text": f"offline {i}"})
    again = Studio(root, port=port).start()  # same port: the page's EventSource reconnects by itself
    try:
        page.wait_for_function("() => window.__studio.connects >= 2", timeout=15_000)
        page.wait_for_selector('#events li[data-seq="8"]')
        s.append("note", {"text": "live again"})
        page.wait_for_selector('#events li[data-seq="9"]')
        assert page.evaluate("window.__studio.seqs") == list(range(1, 10))
        assert page.evaluate("window.__studio.duplicates") == 0
        assert page.locator("#events li").count() == 9
    finally:
        again.stop()


def test_readable_on_a_phone(browser: Any, studio: Studio, scripted: Scripted) -> None:
    scripted.to_partial()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        for url, ready in ((studio.url, ".session"), (f"{studio.url}s/{scripted.session}", "#scorecard .score-block")):
            page.goto(url)
            page.wait_for_selector(ready)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, f"{url} scrolls sideways ({wide}px)"
        page.wait_for_selector("iframe#preview")
        box = page.locator("iframe#preview").bounding_box()
        assert box and box["width"] <= 390 and box["height"] > 150
    finally:
        ctx.close()
