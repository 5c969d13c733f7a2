"""Shell completion (click's own: `_CRUMB_COMPLETE=bash_source crumb` and zsh_source, fish_source):
the callbacks that complete session ids, presets, roles, harnesses and `--fault` values.

Light at import (click and the store's paths only): `crumb steer` imports it and must stay fast. Each
callback imports what it reads when the shell asks, and never fails: a completion that raises would
print a traceback into the user's prompt, so a problem completes nothing instead.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from click.shell_completion import CompletionItem

from crumb.store import paths

MAX_DESCRIBED = 50  # sessions whose pitch is read for the description; more are listed bare


def _root(ctx: click.Context) -> Path:
    """--root as typed on the command line being completed (the group's callback has not run)."""
    value = ctx.find_root().params.get("root") or os.environ.get("CRUMB_ROOT") or "."
    return Path(value).expanduser()


def _pitch(root: Path, session: str) -> str:
    """The pitch of a session, from the head of its transcript (the goal is its second line)."""
    try:
        with paths.transcript_path(root, session).open("rb") as fh:
            head = fh.read(16384)
    except OSError:
        return ""
    for raw in head.split(b"\n")[:4]:
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("kind") == "goal":
            return str((event.get("data") or {}).get("pitch") or "")[:60].replace("\n", " ")
    return ""


def complete_session(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Session ids starting with what is typed (any case), newest first, each with its pitch."""
    try:
        root = _root(ctx)
        typed = incomplete.strip().upper()
        found = [s for s in paths.list_sessions(root) if s.startswith(typed)]
    except OSError:
        return []
    return [CompletionItem(s, help=_pitch(root, s) if len(found) <= MAX_DESCRIBED else None) for s in found]


def complete_preset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        from crumb.actors.harness.bindings import preset_names

        return [CompletionItem(n) for n in preset_names(_root(ctx)) if n.startswith(incomplete)]
    except Exception:  # a completion never breaks the prompt
        return []


def harness_names() -> tuple[str, ...]:
    try:
        from crumb.actors.harness.registry import names

        return names()
    except Exception:
        return ()


def complete_role_binding(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """`--role ROLE=HARNESS[:MODEL]`: the roles (and all) before the `=`, the harnesses after it."""
    from crumb.protocol.names import ROLES

    role, eq, harness = incomplete.partition("=")
    if not eq:
        return [CompletionItem(f"{r}=", help="bind every role not named" if r == "all" else None)
                for r in (*ROLES, "all") if r.startswith(role.lower())]
    return [CompletionItem(f"{role}={h}") for h in harness_names() if h.startswith(harness)]


def complete_harness(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(h) for h in harness_names() if h.startswith(incomplete)]


def complete_role(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from crumb.protocol.names import ROLES

    return [CompletionItem(r) for r in ROLES if r.startswith(incomplete.lower())]


def complete_fault(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from crumb.protocol.names import FAULTS

    return [CompletionItem(f) for f in FAULTS if f.startswith(incomplete)]


def complete_version(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Names of the versions kept under versions/ (`crumb release --parent`)."""
    try:
        base = _root(ctx) / "versions"
        return [CompletionItem(p.name) for p in sorted(base.iterdir())
                if p.is_dir() and not p.name.startswith(".") and p.name.startswith(incomplete)]
    except OSError:
        return []
