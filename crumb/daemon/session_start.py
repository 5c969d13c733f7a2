"""What a new session records first: the settings, bindings and options in force at its start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crumb.config import ConfigError, load_settings
from crumb.settings import Settings


def session_start_data(root: Path, req: Any) -> tuple[dict[str, Any], list[str]]:
    """(session.start data, warnings). A bad preset or config never loses the pitch: it falls back
    to the local preset and says why in a warning the daemon records as an error event."""
    warnings: list[str] = []
    preset: dict[str, Any] = {}
    bindings: dict[str, list[dict[str, Any]]] = {}
    preset_name = req.preset
    try:
        from crumb.actors.harness.bindings import chains_as_data, chosen_preset, load_config, load_preset, resolve_bindings

        preset_name, _ = chosen_preset(root, req.preset, load_config(root))
        if preset_name is not None:
            preset = load_preset(root, preset_name)
        bindings = chains_as_data(resolve_bindings(root, preset=req.preset, flags=req.bindings or None))
    except (ValueError, OSError) as err:
        warnings.append(f"{err}; running every role on the offline studio (local) instead")
        preset_name, preset, bindings = "local", {}, {}
    try:
        settings = load_settings(root, preset=preset)
    except ConfigError as err:
        warnings.append(f"{err}; using the default settings")
        settings = Settings()
    data = {
        "settings": settings.model_dump(mode="json"),
        "bindings": bindings,
        "preset": preset_name or "local",
        "seed": req.seed if req.seed is not None else 1,
        "fault": req.fault,
    }
    return data, warnings
