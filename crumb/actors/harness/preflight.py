"""Can each role's bound harness run here at all? Asked before a session starts.

A binding whose CLI is not installed, or whose model server does not answer, would otherwise fail
three times and let the circuit breaker hand the role to the next adapter (in the end the offline
studio): a session that looks fine but was not played by what was asked for. `crumb pitch`, `crumb
run`, the Studio and the daemon (for a pitch file) refuse such a pitch instead, with one line naming
the role, the harness and the fix, unless fallback is allowed (`--allow-fallback`, front matter
`fallback: allow`, `fallback = "allow"` under `[settings.harness]`). Failures during a session still
walk the circuit breaker; this is only about what cannot start at all.

What is checked, per role, for the first binding of its chain (the one in force), is the harness's own
`why_not` (plugin.py); for the built-ins:
- claude, codex, gemini: the executable (`bin` option, else the harness name) is on PATH, or the path
  given is an executable file; a relative path is read from the project root (`bindings.rooted`).
- command: the same for the command's first word.
- openai: an HTTP server answers GET {base}/models within the probe timeout (any status counts: it
  is there; a refused connection, a timeout or a name that does not resolve does not). Like the openai
  harness itself (http.client, straight to the host), the probe does not use proxy variables.
- local: always runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from crumb.actors.base import Binding
from crumb.actors.harness import registry
from crumb.actors.harness.bindings import rooted
from crumb.actors.harness.openai import PROBE_TIMEOUT_S, server_answers  # noqa: F401  (probe; its settings name)
from crumb.protocol.events import UnrunnableBinding

#: what to say, per entry point, about starting anyway
CLI_HINT = "or pass --allow-fallback to start anyway and let the role fall back along its chain (in the end to local)"
FRONT_MATTER_HINT = ("or add 'fallback: allow' to the front matter to start anyway and let the role fall back "
                     "along its chain (in the end to local)")
MCP_HINT = ("or call the pitch tool with allow_fallback true to start anyway and let the role fall back along its "
            "chain (in the end to local)")
STUDIO_HINT = ("or tick Allow fallback (\"allow_fallback\": true in the API) to start anyway and let the role fall back "
               "along its chain (in the end to local)")


def label(binding: Binding) -> str:
    """A binding as a flag or a front matter line would write it (its harness says how)."""
    try:
        return registry.get_harness(binding.harness).label(binding)
    except ValueError:  # a harness no longer installed
        return f"{binding.harness}:{binding.model}" if binding.model else binding.harness


def why_not(binding: Binding, root: Path, env: Mapping[str, str] | None = None,
            timeout: float = PROBE_TIMEOUT_S) -> tuple[str, str] | None:
    """None when this binding can run here, else (reason, fix)."""
    env = os.environ if env is None else env
    try:
        b = rooted(binding, root)
    except ValueError as exc:  # shlex: an unclosed quote in a command line
        return f"{label(binding)!r} is not a command line ({exc})", "close the quote or escape it"
    try:
        harness = registry.get_harness(b.harness)
    except ValueError as exc:
        return str(exc), "install the plugin that provides it, or bind the role to another harness"
    return harness.why_not(b, env, timeout)


def unrunnable(chains: Mapping[str, Sequence[Binding]], root: Path, env: Mapping[str, str] | None = None,
               timeout: float = PROBE_TIMEOUT_S) -> dict[str, UnrunnableBinding]:
    """Role -> its binding in force (the first of its chain), for every role whose binding cannot run
    here; each distinct binding is checked once."""
    seen: dict[str, tuple[str, str] | None] = {}
    out: dict[str, UnrunnableBinding] = {}
    for role, chain in chains.items():
        if not chain:
            continue
        first = chain[0]
        key = f"{label(first)}\0{sorted(first.options.items())!r}"
        if key not in seen:
            seen[key] = why_not(first, root, env, timeout)
        problem = seen[key]
        if problem is not None:
            out[role] = UnrunnableBinding(binding=label(first), origin=first.origin, reason=problem[0], fix=problem[1])
    return out


def refusal(found: Mapping[str, UnrunnableBinding], hint: str, *, flag: str = "flag") -> str:
    """One line: the role(s), what they are bound to and why it cannot run, the fix, then `hint`
    (how to start anyway, in the words of the entry point). `flag`: what to call a binding of origin
    "flag" (a pitch file's front matter binds roles the way flags do)."""
    groups: dict[UnrunnableBinding, list[str]] = {}
    for role, problem in found.items():
        groups.setdefault(problem, []).append(role)
    parts = []
    for p, roles in groups.items():
        one = len(roles) == 1
        who = roles[0] if one else ", ".join(roles[:-1]) + " and " + roles[-1]
        fix = f"{p.fix}, or bind {roles[0] if one else 'them'} to another harness".lstrip(", ")
        origin = flag if p.origin == "flag" else p.origin
        parts.append(f"{who} {'is' if one else 'are'} bound to {p.binding} (from {origin}), which cannot run here: "
                     f"{p.reason}; {fix}")
    return "; ".join(parts) + f"; {hint}"
