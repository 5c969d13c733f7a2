"""Who played each role: the binding that produced a role's last result, and the circuits that opened.

A verdict is only as honest as its cast: a PASS the embedded studio earned after the bound agent failed
is not that agent's PASS. The reducer keeps these records (pure: built from effects and events only);
the words below say them the same way in `done`, the CLI and the Studio.
"""

from __future__ import annotations

from typing import Any, TypedDict

from crumb.protocol.names import ROLES
from crumb.reducer.effects import BindingData


class PlayedByData(TypedDict):
    """Who produced a role's last result (state.played[role]): the data of protocol.events.PlayedBy."""

    harness: str
    provider: str | None
    model: str | None
    origin: str | None  # "user" after a person's /swap
    index: int  # place in the role's chain: 0 = the harness it was bound to
    fallback: bool
    bound: str  # the binding the role started with, as `harness:model`


class FallbackData(TypedDict):
    """One circuit opened (state.fallbacks): the data of protocol.events.Fallback."""

    actor: str
    before: str | None
    after: str | None  # None: the chain was exhausted
    failures: int
    error: str | None

ERROR_WORDS = 100  # characters of a failure's error quoted in a sentence


def label(harness: Any, model: Any = None) -> str:
    """`claude:sonnet`, or the harness alone when no model is named."""
    return f"{harness}:{model}" if model else str(harness)


def played_by(binding: BindingData, index: int, meta: Any, chain: list[BindingData]) -> PlayedByData:
    """Who played a result: the run's binding, its place in the chain, and the model
    the adapter reported (the dispatcher fills meta.model from the run's usage, else the binding)."""
    meta = meta if type(meta) is dict else {}
    first = chain[0] if chain else binding
    return {
        "harness": str(binding.get("harness") or "local"),
        "provider": meta.get("provider") or binding.get("provider"),
        "model": meta.get("model") or binding.get("model"),
        "origin": binding.get("origin"),
        "index": index,
        "fallback": index > 0,
        "bound": label(first.get("harness") or "local", first.get("model")),
    }


def fell_back(played: dict[str, PlayedByData]) -> bool:
    """True when some role's result in force came from a fallback adapter, not the harness it was bound to."""
    return any(p.get("fallback") for p in played.values())


def _hops(role: str, index: int, fallbacks: list[FallbackData]) -> list[FallbackData]:
    """The circuits that carried `role` to its `index`-th adapter: its last `index` swaps."""
    swaps = [f for f in fallbacks if f.get("actor") == role and f.get("after")]
    return swaps[-index:] if index else []


def _failed(hop: FallbackData) -> str:
    error = str(hop.get("error") or "").strip()
    if len(error) > ERROR_WORDS:
        error = error[: ERROR_WORDS - 1] + "…"
    return f"{hop.get('before')} failed {hop.get('failures')}×" + (f" ({error})" if error else "")


def _after(role: str, played: PlayedByData, fallbacks: list[FallbackData]) -> str:
    hops = _hops(role, int(played.get("index") or 0), fallbacks)
    return ", ".join(_failed(h) for h in hops) or f"{played.get('bound')} failed"


def role_text(role: str, played: PlayedByData, fallbacks: list[FallbackData]) -> str:
    """One role's cast in words: `local`, `local — fallback after claude failed 3× (…)`,
    `codex:gpt-5 — a person's /swap`."""
    who = label(played.get("harness"), played.get("model"))
    if played.get("fallback"):
        return f"{who} — fallback after {_after(role, played, fallbacks)}"
    if played.get("origin") == "user":
        return f"{who} — a person's /swap"
    return who


def cast(played: dict[str, PlayedByData], fallbacks: list[FallbackData]) -> dict[str, str]:
    """role → role_text, in the roles' order."""
    return {role: role_text(role, played[role], fallbacks) for role in ROLES if role in played}


def played_note(played: dict[str, PlayedByData], fallbacks: list[FallbackData]) -> str:
    """The roles not played as bound, in one clause each (`builder played by local after claude failed 3×`);
    "" when every role that played was the one it was bound to."""
    clauses = []
    for role in ROLES:
        p = played.get(role)
        if p is None:
            continue
        who = label(p.get("harness"), p.get("model"))
        if p.get("fallback"):
            clauses.append(f"{role} played by {who} after {_after(role, p, fallbacks)}")
        elif p.get("origin") == "user":
            clauses.append(f"{role} played by {who} (a person's /swap)")
    if not clauses:
        return ""
    return ("fallback: " if fell_back(played) else "") + "; ".join(clauses)
