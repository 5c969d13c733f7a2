"""The embedded studio: a keyword-reading Planner, a catalogue researcher, steering, a
rule-based Verifier and template-built games, played by the `local` harness (adapter.LocalAdapter).

Nothing here touches the network or a model; every role is deterministic.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LocalAdapter"]


def __getattr__(name: str) -> Any:
    # lazy, so importing a sibling (builder, games) does not pull in every role
    if name == "LocalAdapter":
        from crumb.actors.embedded.adapter import LocalAdapter

        return LocalAdapter
    raise AttributeError(name)
