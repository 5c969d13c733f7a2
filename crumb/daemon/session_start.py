"""What a new session records first: the settings, bindings and options in force at its start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crumb.config import ConfigError, load_settings


def session_start_data(root: Path, req: Any) -> tuple[dict[str, Any], list[str]]:
    """(session.start data, warnings). A bad preset or config never loses the pitch: it falls back
    to the local preset and says why in a warning the daemon records as an error event."""
    warnings: list[str] = []
    preset_name = req.preset or "local"
    preset: dict[str, Any] = {}
    bindings: dict[str, list[dict[str, Any]]] = {}
    try:
        from crumb.actors.harness.bindings import load_preset, resolve_bindings

        preset = load_preset(root, preset_name)
        chains = resolve_bindings(root, preset=preset_name, flags=req.bindings or None)
        bindings = {role: [b.model_dump(mode="json") for b in chain] for role, chain in chains.items()}
    except (ValueError, OSError, ImportError) as err:
        warnings.append(f"preset {preset_name!r}: {err}; running on the local preset instead")
        preset_name = "local"
    try:
        settings = load_settings(root, preset=preset)
    except ConfigError as err:
        warnings.append(f"{err}; using the default settings")
        settings = load_settings(root.joinpath("__no_config__"))
    data = {
        "settings": settings.model_dump(mode="json"),
        "bindings": bindings,
        "preset": preset_name,
        "seed": req.seed if req.seed is not None else 1,
        "fault": req.fault,
    }
    return data, warnings
