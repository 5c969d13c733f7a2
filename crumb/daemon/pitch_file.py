"""A pitch file as `crumb pitch`, `crumb run` and the Studio write it, and the checks of its choices.

The counterpart of grammar.py: what is written here reads back exactly through the daemon's grammar,
and a preset or binding the daemon would not find (or would ignore) is refused before anything is
written, with ValueError; the CLI and the Studio only say it their own way.
"""

from __future__ import annotations

from pathlib import Path

from crumb.daemon.grammar import front_matter_value


def pitch_text(text: str, *, session: str, preset: str | None, seed: int | None, fault: str | None,
               bindings: dict[str, str], fallback: str | None = None, fork: str | None = None) -> str:
    """A pitch file with front matter. Values are written so the daemon's grammar reads back exactly
    what was given (ValueError if a line cannot)."""
    lines = ["---", f"session: {session}"]
    if fork:
        lines.append(f"fork: {front_matter_value(fork)}")
    if preset:
        lines.append(f"preset: {front_matter_value(preset)}")
    if seed is not None:
        lines.append(f"seed: {seed}")
    if fault:
        lines.append(f"fault: {front_matter_value(fault)}")
    if fallback:
        lines.append(f"fallback: {front_matter_value(fallback)}")
    lines += [f"{role}: {front_matter_value(value)}" for role, value in bindings.items()]
    return "\n".join(lines + ["---", text.strip(), ""])


def check_bindings(bindings: dict[str, str]) -> None:
    """Refuse a binding the daemon would refuse or ignore, or that one front matter line cannot carry."""
    from crumb.actors.harness.bindings import check_flags

    check_flags(bindings)
    for binding in bindings.values():
        front_matter_value(binding)


def check_preset(root: Path, preset: str | None) -> None:
    """Refuse a preset the daemon would not find (it would fall back to the embedded studio)."""
    from crumb.actors.harness.bindings import preset_names

    if preset is not None and preset not in (known := preset_names(root)):
        raise ValueError(f"no preset {preset!r}; use one of {', '.join(known)} (or add presets/{preset}.toml)")


def check_remote_choices(root: Path, *, preset: str | None, bindings: dict[str, str], allow_fallback: bool,
                         where: str, hint: str, flag: str) -> None:
    """The checks `crumb pitch --preset --role [--allow-fallback]` makes, for a pitch that does not come
    from a person at the machine (the Studio, an MCP client): also no `command:` binding unless crumb.toml
    allow-lists it. ValueError (HarnessUnavailable is one) with the one-line reason and fix."""
    from crumb.actors.harness import local_only
    from crumb.daemon.session_start import check_runnable

    check_preset(root, preset)
    check_bindings(bindings)
    local_only.check_remote(root, bindings, where)
    check_runnable(root, preset=preset, bindings=bindings, fallback="allow" if allow_fallback else None,
                   hint=hint, flag=flag)
