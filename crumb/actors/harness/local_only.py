"""Only a person at the machine makes CRUMB run a program of their choosing.

A `command:` binding runs any executable as the user. It is taken from the CLI (`crumb pitch --role`,
which grants it for that one session in CRUMB's state folder, where neither the Studio nor an agent
writes) and from crumb.toml's roles; from the Studio's API, a pitch file nobody granted, or a `/swap` in
a steering file, only when crumb.toml names the exact command:

    [security]
    allow_commands = ["./my-agent --fast"]
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from pathlib import Path

from crumb.config import ConfigError, load_config
from crumb.store import paths
from crumb.store.durable import write_whole

SECTION, KEY = "security", "allow_commands"


def command_of(binding: str) -> str | None:
    """The command line of a `command:...` binding; None for any other harness."""
    harness, _, rest = binding.strip().partition(":")
    return rest.strip() if harness.strip().lower() == "command" else None


def _argv(command: str) -> list[str] | None:
    try:
        return shlex.split(command)
    except ValueError:
        return None


def allowed_commands(root: Path) -> list[str]:
    """crumb.toml's [security] allow_commands (ConfigError when it is not a list of strings)."""
    section = load_config(root).get(SECTION) or {}
    if not isinstance(section, dict) or set(section) - {KEY}:
        raise ConfigError(f"{root / 'crumb.toml'}: [{SECTION}] takes only {KEY} = [\"./my-agent --flag\", ...]")
    listed = section.get(KEY, [])
    if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
        raise ConfigError(f"{root / 'crumb.toml'}: [{SECTION}] {KEY} must be a list of command lines (strings)")
    return listed


def is_allowed(root: Path, command: str) -> bool:
    """Whether crumb.toml's allow-list names `command` (compared as argv, so quoting does not matter)."""
    want = _argv(command)
    try:
        listed = allowed_commands(root)
    except ConfigError:
        return False
    return want is not None and any(_argv(c) == want for c in listed)


def refusal(role: str, command: str, where: str) -> str:
    """The one-line refusal: what was refused, from where, and the two ways to allow it."""
    return (f"{role} binding 'command:{command[:80]}' runs a program on this machine, which {where} may not choose: "
            f"bind it at the machine (crumb pitch --role {role}='command:...') or add it to crumb.toml's "
            f"[{SECTION}] {KEY}")


def check_remote(root: Path, bindings: Mapping[str, str], where: str, granted: Mapping[str, str] | None = None) -> None:
    """ValueError for the first command binding neither granted at the machine nor allow-listed."""
    for role, binding in bindings.items():
        command = command_of(binding)
        if command is None or (granted or {}).get(role) == binding or is_allowed(root, command):
            continue
        raise ValueError(refusal(role, command, where))


def _grant_path(root: Path, session: str) -> Path:
    return paths.state_dir(root) / "local-bindings" / f"{session.upper()}.json"


def grant(root: Path, session: str, bindings: Mapping[str, str]) -> None:
    """The CLI's word that a person at the machine chose these command bindings for `session`."""
    commands = {role: b for role, b in bindings.items() if command_of(b) is not None}
    if not commands:
        return
    path = _grant_path(root, session)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_whole(path, json.dumps(commands), mode=0o600)


def granted(root: Path, session: str | None) -> dict[str, str]:
    """What the CLI granted for `session` ({} when nothing, or the grant is unreadable)."""
    if not session:
        return {}
    try:
        data = json.loads(_grant_path(root, session).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
