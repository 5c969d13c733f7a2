"""The embedded studio: a keyword-reading Planner, a catalogue researcher, steering, a
rule-based Verifier and template-built games, played by the `local` harness (adapter.LocalAdapter).

Nothing here touches the network or a model; every role is deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crumb.lazy import exports

if TYPE_CHECKING:
    from crumb.actors.embedded.adapter import LocalAdapter

__all__ = ["LocalAdapter"]

# lazy, so importing a sibling (builder, games) does not pull in every role
__getattr__ = exports(__name__, {"LocalAdapter": "adapter"})
