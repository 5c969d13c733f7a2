"""Harness name -> adapter. The `local` studio is imported lazily (another package owns it)."""

from __future__ import annotations

import importlib

from crumb.actors.base import Adapter

#: name -> "module:Class"
ADAPTERS: dict[str, str] = {
    "local": "crumb.actors.local.adapter:LocalAdapter",
    "claude": "crumb.actors.harness.claude:ClaudeAdapter",
    "codex": "crumb.actors.harness.codex:CodexAdapter",
    "gemini": "crumb.actors.harness.gemini:GeminiAdapter",
    "openai": "crumb.actors.harness.openai:OpenAIAdapter",
    "command": "crumb.actors.harness.command:CommandAdapter",
}
HARNESSES: tuple[str, ...] = tuple(ADAPTERS)


def get_adapter(name: str) -> Adapter:
    """A fresh adapter for a harness name; ValueError naming the known ones otherwise."""
    target = ADAPTERS.get(name)
    if target is None:
        raise ValueError(f"unknown harness {name!r}; known: {', '.join(HARNESSES)}")
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"harness {name!r} is not available: {exc}") from None
    adapter: Adapter = getattr(module, cls_name)()
    return adapter
