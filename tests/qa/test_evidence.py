"""What one check observed, as it names it: a game leaving its page is one finding, however QA learns of it."""

from __future__ import annotations

import pytest

from crumb.qa.page import Evidence

URL = "https://www.example.com/"


@pytest.mark.parametrize("event_first", [True, False], ids=["event-first", "call-first"])
def test_a_game_leaving_its_page_is_named_once_with_where_it_went(event_first: bool) -> None:
    """The page's own event and a call in flight that lost its page both tell it, in either order (before,
    one check in three named it twice, once in each wording)."""
    ev = Evidence()
    tellers = [lambda: ev.navigated_away(URL), lambda: ev.navigated_away(None, "during a probe")]
    for tell in tellers if event_first else reversed(tellers):
        tell()
    assert [(f.code, f.severity, f.message) for f in ev.findings] == [
        ("navigated_away", "Critical", f"the game navigated away to {URL}")]


def test_a_call_alone_names_the_navigation_in_its_own_words() -> None:
    ev = Evidence()
    ev.navigated_away(None, "while QA was playing it")
    ev.navigated_away(None, "during a probe")
    assert [f.message for f in ev.findings] == ["the game replaced its own page (navigated away) while QA was playing it"]
