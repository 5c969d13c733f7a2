"""What a new session records first: the settings, bindings and options in force at its start, and
whether each role's bound harness can run here (crumb/actors/harness/preflight.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from crumb.config import ConfigError, load_settings
from crumb.settings import Settings


class HarnessUnavailable(ValueError):
    """A bound harness cannot run here and fallback is not allowed; str() is the one-line refusal."""


def fallback_allowed(choice: str | None, settings: Settings) -> bool:
    """The pitch's own choice (--allow-fallback, front matter `fallback:`), else the setting harness.fallback."""
    return (choice or settings.harness.fallback) == "allow"


def session_start_data(root: Path, req: Any, env: Mapping[str, str] | None = None) -> tuple[dict[str, Any], list[str]]:
    """(session.start data, warnings). A bad preset or config never loses the pitch: it falls back
    to the local preset and says why in a warning the daemon records as an error event.
    `unrunnable` names each role whose bound harness cannot run here; the daemon refuses the pitch
    when there is one and `fallback` is not "allow"."""
    from crumb.actors.harness.preflight import unrunnable

    warnings: list[str] = []
    preset: dict[str, Any] = {}
    bindings: dict[str, list[dict[str, Any]]] = {}
    chains: dict[str, Any] = {}
    preset_name = req.preset
    try:
        from crumb.actors.harness.bindings import (
            chains_as_data,
            chosen_preset,
            load_config,
            load_preset,
            resolve_bindings,
        )

        preset_name, _ = chosen_preset(root, req.preset, load_config(root))
        if preset_name is not None:
            preset = load_preset(root, preset_name)
        chains = resolve_bindings(root, preset=req.preset, flags=req.bindings or None)
        bindings = chains_as_data(chains)
    except (ValueError, OSError) as err:
        warnings.append(f"{err}; running every role on the embedded studio (local) instead")
        preset_name, preset, bindings, chains = "local", {}, {}, {}
    try:
        settings = load_settings(root, preset=preset)
    except ConfigError as err:
        warnings.append(f"{err}; using the default settings")
        settings = Settings()
    problems = unrunnable(chains, root, env=env, timeout=settings.harness.probe_timeout_s)
    data = {
        "settings": settings.to_data(),
        "bindings": bindings,
        "preset": preset_name or "local",
        "seed": req.seed if req.seed is not None else 1,
        "fault": req.fault if req.fault is not None else preset.get("fault"),  # the pitch's, else its preset's
        "fallback": "allow" if fallback_allowed(getattr(req, "fallback", None), settings) else "refuse",
        "unrunnable": {role: p.model_dump() for role, p in problems.items()},
    }
    return data, warnings


def fork_start_data(root: Path, req: Any, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The new bindings of a fork's `session.fork` line: with a preset (or `all`), every role as the
    preset, config and flags resolve it; else only the roles the fork names (the others keep the
    original's chains). ValueError for a preset or config that cannot be read."""
    from crumb.actors.harness.bindings import chains_as_data, load_preset, resolve_bindings
    from crumb.actors.harness.preflight import unrunnable

    preset = load_preset(root, req.preset) if req.preset else {}
    chains = resolve_bindings(root, preset=req.preset, flags=req.bindings or None)
    if not req.preset and "all" not in req.bindings:
        chains = {role: chain for role, chain in chains.items() if role in req.bindings}
    settings = load_settings(root, preset=preset or None)
    problems = unrunnable(chains, root, env=env, timeout=settings.harness.probe_timeout_s)
    return {
        "bindings": chains_as_data(chains),
        "preset": req.preset,
        "seed": req.seed,
        "fault": req.fault if req.fault is not None else preset.get("fault"),
        "fallback": "allow" if fallback_allowed(getattr(req, "fallback", None), settings) else "refuse",
        "unrunnable": {role: p.model_dump() for role, p in problems.items()},
    }


def check_runnable(root: Path, *, preset: str | None, bindings: Mapping[str, str], fallback: str | None,
                   hint: str, flag: str = "flag", env: Mapping[str, str] | None = None) -> None:
    """Before a pitch is written (`crumb pitch`, `crumb run`, the Studio): HarnessUnavailable when a role's
    bound harness cannot run here and fallback is not allowed; ValueError (ConfigError) for a config
    or preset that cannot be read, since then what would run cannot be checked. `hint` says how to
    start anyway and `flag` what a binding given with the pitch is called, in the caller's words."""
    from crumb.actors.harness.bindings import chosen_preset, load_config, load_preset, resolve_bindings
    from crumb.actors.harness.preflight import refusal, unrunnable

    name, _ = chosen_preset(root, preset, load_config(root))
    settings = load_settings(root, preset=load_preset(root, name) if name is not None else None)
    if fallback_allowed(fallback, settings):
        return
    chains = resolve_bindings(root, preset=preset, flags=dict(bindings) or None)
    problems = unrunnable(chains, root, env=env, timeout=settings.harness.probe_timeout_s)
    if problems:
        raise HarnessUnavailable(refusal(problems, hint, flag=flag))
