"""Judging a probe's expectations against two readings of the test hook (pure: no browser here)."""

from __future__ import annotations

from typing import Any

from crumb.protocol.game import Expect

_MISSING = object()
RELATIVE = {"increased", "decreased", "changed", "unchanged"}


def lookup(state: Any, path: str) -> Any:
    """`path` dotted into `state` ("grid.size", "bricks.0"); _MISSING when a part is absent."""
    node = state
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            return _MISSING
    return node


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _show(value: Any) -> str:
    return "missing" if value is _MISSING else repr(value)


def judge(expect: Expect, before: Any, after: Any) -> tuple[bool, str, Any]:
    """(ok, detail naming what was expected and seen, observed value)."""
    now = lookup(after, expect.path)
    observed = None if now is _MISSING else now
    if now is _MISSING:
        return False, f"{expect.path} is missing from state()", observed
    op, want = expect.op, expect.value
    if op in RELATIVE:
        was = lookup(before, expect.path)
        if was is _MISSING:
            return False, f"{expect.path} was missing from state() before the steps", observed
        if op in ("increased", "decreased") and not (_num(was) and _num(now)):
            return False, f"{expect.path} must be a number to have {op} (was {was!r}, now {now!r})", observed
        ok = {"increased": lambda: now > was, "decreased": lambda: now < was,
              "changed": lambda: now != was, "unchanged": lambda: now == was}[op]()
        return ok, f"{expect.path} expected {op}: was {was!r}, now {now!r}", observed
    if op == "in":
        if not isinstance(want, list):
            return False, f"'in' needs a list as value, got {want!r}", observed
        return now in want, f"{expect.path} expected in {want!r}, got {now!r}", observed
    if op in ("==", "!="):
        ok = (now == want) if op == "==" else (now != want)
        return ok, f"{expect.path} expected {op} {want!r}, got {now!r}", observed
    if not (_num(now) and _num(want)):
        return False, f"{expect.path} expected {op} {want!r}, got {now!r} (not comparable numbers)", observed
    ok = {">": now > want, ">=": now >= want, "<": now < want, "<=": now <= want}[op]
    return ok, f"{expect.path} expected {op} {want!r}, got {now!r}", observed


def judge_all(expects: list[Expect], before: Any, after: Any) -> tuple[bool, str, dict[str, Any]]:
    """All expectations: ok only when each holds; detail lists the failing ones (or all, when passing)."""
    results = [(e, *judge(e, before, after)) for e in expects]
    failing = [detail for _, ok, detail, _ in results if not ok]
    observed = {e.path: obs for e, _, _, obs in results}
    detail = "; ".join(failing) if failing else "; ".join(d for _, _, d, _ in results)
    return not failing, detail, observed
