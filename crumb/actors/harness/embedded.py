"""The `local` harness: the embedded studio (crumb/actors/embedded), offline, free, always there.

It is registered like every other harness; the studio itself is imported only when a role runs, so a
broken studio shows up as that role's error (and in `crumb doctor`), not as a registry that fails to load.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, ClassVar

from crumb.actors.base import ActorRequest, ActorResult, Adapter, Binding, ProgressFn
from crumb.actors.harness.plugin import Harness

STUDIO = "crumb.actors.embedded.adapter"


class LocalHarness(Harness):
    name: ClassVar[str] = "local"
    provider: ClassVar[str | None] = None
    summary: ClassVar[str] = "the embedded studio (no network, no model)"

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        # looked up by name, as the registry finds every harness: only the dispatcher (which runs roles)
        # and the CLI import the embedded studio (docs/design.md's layers)
        adapter: Adapter = importlib.import_module(STUDIO).LocalAdapter()
        return adapter.run(request, progress, cancel)

    def binding(self, rest: str, spec: str, *, partial: bool) -> tuple[str | None, str | None, dict[str, Any]]:
        return None, None, {}  # "local:anything" is still the one embedded studio

    def label(self, binding: Binding) -> str:
        return "local"

    def why_not(self, binding: Binding, env: Any, timeout: float) -> tuple[str, str] | None:
        return None
