"""`crumb config show`: which harness, provider and model play each role, and why.

Without --session it resolves what a new pitch would get here (flags > crumb.toml > preset >
ambient > local); with --session it shows what that session recorded at its start, and any swaps since.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from crumb.actors.base import Binding
from crumb.actors.harness.bindings import (
    ROLES,
    chosen_preset,
    detect_ambient,
    implied_providers,
    load_config,
    resolve_bindings,
)
from crumb.cli.complete import complete_preset, complete_role_binding, complete_session
from crumb.config import load_settings, user_config_path


def _row(b: Binding) -> dict[str, Any]:
    return {"harness": b.harness, "provider": b.provider, "model": b.model, "origin": b.origin,
            **({"options": b.options} if b.options else {})}


def _options(options: dict[str, Any]) -> str:
    """Binding options on one short line (base_url, sandbox, command, ...), or '-'."""
    text = " ".join(f"{k}={' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in sorted(options.items()))
    return (text[:77] + "...") if len(text) > 80 else (text or "-")


def _parse_roles(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        role, eq, spec = value.partition("=")
        if not eq or not role.strip() or not spec.strip():
            raise click.BadParameter(f"{value!r} is not role=harness[:model]; e.g. --role builder=claude:sonnet")
        out[role.strip()] = spec.strip()
    return out


def current(root: Path, preset: str | None, roles: dict[str, str]) -> dict[str, Any]:
    config = load_config(root)
    name, where = chosen_preset(root, preset, config)
    chains = resolve_bindings(root, preset=preset, flags=roles or None)
    ambient = detect_ambient(os.environ)
    return {
        "preset": name,
        "preset_from": where or None,
        "user_config": str(user_config_path()),
        "user_config_found": user_config_path().is_file(),
        "ambient": {"harness": ambient[0], "env": ambient[1]} if ambient else None,
        "roles": {role: [_row(b) for b in chain] for role, chain in chains.items()},
    }


def from_session(root: Path, ref: str) -> dict[str, Any]:
    from crumb.store import paths
    from crumb.store.reader import read_events

    session = paths.resolve_session(root, ref)
    start: dict[str, Any] | None = None
    swaps: list[dict[str, Any]] = []
    for event in read_events(paths.transcript_path(root, session)):
        kind = event.get("kind")
        if kind == "session.start" and start is None:
            start = event.get("data") or {}
        elif kind in ("adapter.swapped", "circuit.opened"):
            swaps.append({"kind": kind, "ts": event.get("ts"), **(event.get("data") or {})})
    if start is None:
        raise LookupError(f"session {session} has no session.start event yet; is `crumb watch` running?")
    roles = {role: [_row(Binding.model_validate(b)) for b in chain] for role, chain in (start.get("bindings") or {}).items()}
    return {"session": session, "preset": start.get("preset"), "roles": roles, "changes": swaps}


def render(data: dict[str, Any]) -> str:
    lines: list[str] = []
    if "session" in data:
        lines.append(f"session {data['session']}  (bindings recorded at its start; preset {data.get('preset')})")
    else:
        preset = data.get("preset")
        lines.append(f"preset: {preset} (from {data['preset_from']})" if preset else
                     "preset: none chosen (ambient, else the embedded studio)")
        if data.get("ambient"):
            amb = data["ambient"]
            lines.append(f"ambient: running inside {amb['harness']} ({amb['env']} is set)")
    header = ("role", "harness", "provider", "model", "origin", "options")
    rows = [header]
    for role in ROLES:
        chain = data["roles"].get(role) or []
        for i, b in enumerate(chain):
            rows.append((role if i == 0 else "  then", b["harness"], b["provider"] or "-", b["model"] or "(default)",
                         b["origin"], _options(b.get("options") or {})))
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(header))]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    for change in data.get("changes") or []:
        if change["kind"] == "adapter.swapped":
            lines.append(f"{change.get('ts')}: {change.get('actor')} swapped {change.get('before')} -> "
                         f"{change.get('after')} ({change.get('reason')})")
        else:
            lines.append(f"{change.get('ts')}: circuit opened for {change.get('actor')} on {change.get('adapter')} "
                         f"after {change.get('failures')} failures")
    lines.append("precedence: flag > crumb.toml > user config > preset > ambient > fallback (local); `then` rows are the "
                 "fallback chain")
    if "user_config" in data:
        lines.append(f"user config: {data['user_config']}" + ("" if data["user_config_found"] else " (none)"))
    implied = ", ".join(f"{h}: {p}" for h, p in implied_providers().items())
    lines.append(f"each row's values come from its origin; a provider not given there is implied by the harness "
                 f"({implied}); model (default) is the harness's own default")
    return "\n".join(lines)


@click.group("config")
def config() -> None:
    """Show how CRUMB is configured here."""


@config.command("show")
@click.option("--session", "session", metavar="S", shell_complete=complete_session, help="Show what session S recorded (id, or its last characters).")
@click.option("--preset", shell_complete=complete_preset, help="Preview with this preset, as `crumb pitch --preset` would.")
@click.option("--role", "roles", multiple=True, metavar="ROLE=HARNESS[:MODEL]", shell_complete=complete_role_binding, help="Preview with a role flag.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def show(ctx: click.Context, session: str | None, preset: str | None, roles: tuple[str, ...], as_json: bool) -> None:
    """Each role's harness, provider and model, and where each value came from."""
    root: Path = ctx.obj["root"]
    try:
        data = from_session(root, session) if session else current(root, preset, _parse_roles(roles))
        if not session:
            load_settings(root)  # a bad [settings] in crumb.toml stops `crumb watch`: say so here too
    except (ValueError, LookupError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(json.dumps(data, indent=2, default=str) if as_json else render(data))


COMMANDS = [config]
