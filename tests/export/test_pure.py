"""The pure halves of export, release and gc, on small inputs: no files, no clock, no browser."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from crumb.export.inline import InlineError, inline_game
from crumb.export.lineage import Version, check_name, lineage, next_name
from crumb.export.sweep import Candidate, choose, parse_age, rm_refusal

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_inlined_scripts_cannot_close_their_element_and_modules_become_data_uris() -> None:
    page = inline_game({
        "index.html": b'<script src="a.js"></script><script type="module" src="m.js"></script><img src="i/p.png">',
        "a.js": b'var s = "</script><!--";',
        "m.js": b'import {x} from "./n.js";',
        "n.js": b"export const x = 1;",
        "i/p.png": b"\x89PNG",
    }).html
    assert '"<\\/script><\\!--"' in page and page.count("</script>") == 2
    assert 'from "data:text/javascript;base64,' in page and 'src="data:image/png;base64,' in page
    with pytest.raises(InlineError, match="cycle"):
        inline_game({"index.html": b'<script type="module" src="a.js"></script>',
                     "a.js": b'import "./b.js";', "b.js": b'import "./a.js";'})


def candidate(done: str | None = "pass", settled: bool = True, days: float = 40) -> Candidate:
    return Candidate("01JA0000000000000000000001", NOW - timedelta(days=days), settled, done, "done", "Snake", 10)


def test_gc_chooses_settled_sessions_past_the_age_and_keeps_passed_ones_when_asked() -> None:
    age = parse_age("30d")
    assert age == timedelta(days=30) and parse_age("12h") == timedelta(hours=12)
    picks = choose([candidate(), candidate(days=2, done="budget"), candidate(settled=False), candidate(done="budget")],
                   now=NOW, older_than=age, keep_passed=True)
    assert [c.remove for c in picks] == [False, False, False, True]
    assert [c.reason.split(" ")[0] for c in picks[:3]] == ["passed", "newer", "not"]
    with pytest.raises(ValueError, match="30d"):
        parse_age("a month")
    running = candidate(settled=False)
    assert "cancel" in (rm_refusal(running, daemon_running=True, force=True) or "")
    assert rm_refusal(running, daemon_running=False, force=True) is None
    assert rm_refusal(candidate(), daemon_running=True, force=False) is None


def test_version_names_and_lineage() -> None:
    assert next_name(["v1", "v7", "beta"]) == "v8" and next_name([]) == "v1"
    assert check_name("v2") is None and check_name("../x") and check_name(".hidden")
    versions = [Version("b", {"parent": "a", "created": "2"}), Version("a", {"created": "1"}),
                Version("c", {"parent": "gone", "created": "3"})]
    assert [(d, v.name) for d, v in lineage(versions)] == [(0, "a"), (1, "b"), (0, "c")]
