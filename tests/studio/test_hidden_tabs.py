"""Hidden Studio tabs cost the Studio nothing: past a short grace a hidden page closes its stream, and
shown again it resumes after its last seq with nothing lost and nothing twice.

Headless Chromium pages are always visible, so the tests hide and show a page the way a browser
would tell it: document.visibilityState / document.hidden change and a `visibilitychange` fires.
"""

from __future__ import annotations

from typing import Any

import pytest

from crumb.store.paths import transcript_path
from crumb.studio.server import Studio
from tests.studio.conftest import VISIBILITY, open_session, set_visible
from tests.studio.scripted import Scripted
from tests.wait import wait_until

pytestmark = pytest.mark.browser

GRACE_MS = 200  # the page's 5 s grace, shortened for tests by an init script (see session.js)

# Counts the page's EventSources: how many it made and how many it has open (made and not closed).
SOURCES = """(() => {
  const Real = window.EventSource;
  const probe = (window.__sources = { made: 0, open: 0, maxOpen: 0 });
  window.EventSource = class extends Real {
    constructor(...args) {
      super(...args);
      probe.made++;
      probe.open++;
      probe.maxOpen = Math.max(probe.maxOpen, probe.open);
    }
    close() {
      if (!this.__closed) { this.__closed = true; probe.open--; }
      super.close();
    }
  };
})();"""

PAUSED = "paused (tab hidden)"


def prepare(page: Any, grace_ms: int = GRACE_MS) -> Any:
    page.add_init_script(f"window.__studioHiddenGraceMs = {grace_ms};")
    page.add_init_script(SOURCES)
    return page


def subscribers(studio: Studio, session: str) -> int:
    """Open streams on this session's shared tail in the running Studio (what each tab costs it)."""
    tail = studio.config.hub.tails.get(transcript_path(studio.config.root, session))
    return len(tail.subscribers) if tail is not None else 0


def expect_subscribers(studio: Studio, session: str, n: int) -> None:
    wait_until(lambda: subscribers(studio, session) == n, timeout=10, what=f"{n} subscriber(s) on the session")


def badge(page: Any) -> tuple[str, str]:
    """The live badge as a person sees it: its text, and its class (colour)."""
    text, cls = page.evaluate("() => { const b = document.querySelector('#live'); return [b.textContent, b.className]; }")
    return text, cls


def notes(s: Scripted, n: int, prefix: str) -> int:
    last = 0
    for i in range(n):
        last = s.append("note", {"text": f"{prefix} {i}"}, body=f"{prefix} {i}")["seq"]
    return last


def test_a_hidden_tab_closes_its_stream_and_says_paused(page: Any, studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    prepare(page)
    open_session(page, studio, scripted.session)
    expect_subscribers(studio, scripted.session, 1)
    assert badge(page) == ("live", "live on")
    set_visible(page, False)
    page.wait_for_function("() => window.__studio.pauses === 1")
    assert badge(page) == (PAUSED, "live off")
    assert page.evaluate("window.__sources") == {"made": 1, "open": 0, "maxOpen": 1}
    expect_subscribers(studio, scripted.session, 0)  # the server let go of the stream, not just the page
    assert page.errors == []


def test_events_appended_while_hidden_appear_once_in_order_when_shown(page: Any, studio: Studio,
                                                                      scripted: Scripted) -> None:
    scripted.start()
    prepare(page)
    open_session(page, studio, scripted.session)
    page.wait_for_selector('#events li[data-seq="2"]')
    set_visible(page, False)
    page.wait_for_function("() => window.__studio.pauses === 1")
    expect_subscribers(studio, scripted.session, 0)
    notes(scripted, 20, "while hidden")
    scripted.plan("Comet Snake")  # a panel changes too: the title must follow when the tab is shown
    last = notes(scripted, 5, "still hidden")
    assert page.evaluate("window.__studio.lastSeq") == 2  # nothing reached the hidden tab

    set_visible(page, True)
    page.wait_for_function(f"() => window.__studio.lastSeq === {last}")
    page.wait_for_function("() => document.querySelector('#title').textContent === 'Comet Snake'")
    st = page.evaluate("window.__studio")
    assert st["seqs"] == list(range(1, last + 1))  # each once, in order, none missing
    assert st["duplicates"] == 0 and not st.get("gaps")
    assert st["connects"] == 2 and st["resumes"] == 1 and st["pauses"] == 1
    assert page.locator("#events li").count() == last
    assert badge(page) == ("live", "live on")
    expect_subscribers(studio, scripted.session, 1)
    # and it is live again, on one stream
    more = notes(scripted, 1, "after")
    page.wait_for_selector(f'#events li[data-seq="{more}"]')
    assert page.evaluate("window.__sources") == {"made": 2, "open": 1, "maxOpen": 1}
    assert page.errors == []


def test_a_tab_hidden_for_less_than_the_grace_keeps_its_stream(page: Any, studio: Studio,
                                                               scripted: Scripted) -> None:
    scripted.start()
    prepare(page)
    open_session(page, studio, scripted.session)
    expect_subscribers(studio, scripted.session, 1)
    # a quick alt-tab, twice, then a page timer set after the grace: timers fire in deadline order,
    # so a pause still pending would have fired before it
    after = page.evaluate(f"""async () => {{
      const flip = {VISIBILITY};
      flip(false); flip(true); flip(false); flip(true);
      await new Promise((done) => setTimeout(done, {GRACE_MS * 3}));
      return {{ pauses: window.__studio.pauses, resumes: window.__studio.resumes,
               connects: window.__studio.connects, sources: window.__sources }};
    }}""")
    assert after == {"pauses": 0, "resumes": 0, "connects": 1, "sources": {"made": 1, "open": 1, "maxOpen": 1}}
    assert badge(page) == ("live", "live on")
    assert subscribers(studio, scripted.session) == 1
    seq = notes(scripted, 1, "still live")
    page.wait_for_selector(f'#events li[data-seq="{seq}"]')
    assert page.evaluate("window.__studio.connects") == 1
    assert page.errors == []


def test_three_tabs_two_hidden_hold_one_stream(page: Any, studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    tabs = [prepare(page), prepare(page.context.new_page()), prepare(page.context.new_page())]
    for tab in tabs:
        open_session(tab, studio, scripted.session)
    expect_subscribers(studio, scripted.session, 3)
    shown, *hidden = tabs
    for tab in hidden:
        set_visible(tab, False)
    for tab in hidden:
        tab.wait_for_function("() => window.__studio.pauses === 1")
        assert badge(tab) == (PAUSED, "live off")
    expect_subscribers(studio, scripted.session, 1)
    last = notes(scripted, 3, "for the shown tab")
    shown.wait_for_function(f"() => window.__studio.lastSeq === {last}")
    assert badge(shown) == ("live", "live on")
    assert [tab.evaluate("window.__studio.lastSeq") for tab in hidden] == [2, 2]
    for tab in hidden:
        set_visible(tab, True)
    for tab in tabs:
        tab.wait_for_function(f"() => window.__studio.lastSeq === {last}")
        assert tab.evaluate("window.__studio.seqs") == list(range(1, last + 1))
        assert tab.evaluate("window.__sources.maxOpen") == 1
    expect_subscribers(studio, scripted.session, 3)


def test_a_tab_opened_in_the_background_streams_once_shown(page: Any, studio: Studio, scripted: Scripted) -> None:
    """A middle-click in the list opens a hidden tab: it paints the session but opens no stream."""
    scripted.start()
    prepare(page)
    page.add_init_script(f"({VISIBILITY})(false);")
    page.goto(f"{studio.url}s/{scripted.session}")
    page.wait_for_function("() => window.__studio && window.__studio.pauses === 1")
    page.wait_for_selector('#events li[data-seq="2"]')  # the first page came with the GET
    assert badge(page) == (PAUSED, "live off")
    assert page.evaluate("window.__sources.made") == 0 and subscribers(studio, scripted.session) == 0
    last = notes(scripted, 2, "before shown")
    set_visible(page, True)
    page.wait_for_function(f"() => window.__studio.lastSeq === {last}")
    assert page.evaluate("window.__studio.seqs") == list(range(1, last + 1))
    assert badge(page) == ("live", "live on")
    expect_subscribers(studio, scripted.session, 1)
    assert page.errors == []


def test_a_hidden_session_list_stops_polling_and_refreshes_when_shown(page: Any, studio: Studio,
                                                                       scripted: Scripted) -> None:
    """The list polls every 2 s and the daemon badge every 4 s; a hidden tab skips both (page clock faked)."""
    scripted.start()
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url.split("?")[0].rsplit("/", 1)[-1])
            if "/api/sessions" in r.url or r.url.endswith("/api/daemon") else None)
    page.clock.install()
    page.goto(studio.url)
    wait_until(lambda: "sessions" in polls and "daemon" in polls, timeout=10, what="the first list and badge")
    page.clock.run_for(8_000)
    wait_until(lambda: polls.count("sessions") >= 5, timeout=10, what="polls while visible")
    set_visible(page, False)
    before = len(polls)
    page.clock.run_for(20_000)  # ten list polls and five badge polls, were the tab visible
    page.evaluate("() => 0")  # a round trip: requests the page made before it have been reported
    assert polls[before:] == []
    set_visible(page, True)
    wait_until(lambda: {"sessions", "daemon"} <= set(polls[before:]), timeout=10, what="refresh on show")
