"""Probe expectations judged against two readings of state()."""

from __future__ import annotations

import pytest

from crumb.protocol.game import Expect
from crumb.qa.expect import judge, judge_all

BEFORE = {"phase": "title", "score": 0, "lives": 3, "grid": {"size": 8}, "list": [1, 2]}
AFTER = {"phase": "over", "score": 40, "lives": 3, "grid": {"size": 8}, "list": [1, 5]}


@pytest.mark.parametrize("path, op, value, ok", [
    ("score", "increased", None, True), ("score", "decreased", None, False),
    ("lives", "unchanged", None, True), ("phase", "changed", None, True),
    ("phase", "in", ["over", "won"], True), ("phase", "==", "playing", False),
    ("score", ">=", 40, True), ("score", "<", 40, False), ("grid.size", "==", 8, True),
    ("list.1", "increased", None, True), ("phase", ">", 3, False), ("phase", "increased", None, False),
])
def test_ops(path: str, op: str, value: object, ok: bool) -> None:
    assert judge(Expect(path=path, op=op, value=value), BEFORE, AFTER)[0] is ok


def test_missing_path_is_named() -> None:
    ok, detail, observed = judge(Expect(path="combo", op=">", value=0), BEFORE, AFTER)
    assert (ok, observed) == (False, None) and "combo is missing" in detail


def test_all_names_only_the_failing_ones() -> None:
    ok, detail, observed = judge_all([Expect(path="score", op="increased"), Expect(path="lives", op="decreased")],
                                     BEFORE, AFTER)
    assert not ok and detail == "lives expected decreased: was 3, now 3" and observed == {"score": 40, "lives": 3}
