"""Which harness plays each role: CLI flag > crumb.toml > the user's config > preset > ambient > fallback (local).

Every Binding carries `origin`, so `crumb config show` can say why a role runs where it does.
A role's chain is the winning binding, then its own `fallback` list, then the bindings lower
layers would have chosen, and always ends in `local`; the circuit breaker walks it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from crumb.actors.base import Binding
from crumb.actors.harness import registry
from crumb.config import (
    PRESET_KEYS,
    USER_ORIGIN,
    ConfigError,
    load_config,
    load_user_config,
    read_toml,
    user_config_path,
)
from crumb.protocol.errors import first_problem
from crumb.protocol.names import FAULTS, ROLES  # ROLES re-exported: the roles a binding names
from crumb.store import paths

#: a key that sets every role not named on its own
ALL = ("all", "*", "default")
CONFIG_FILE = paths.CONFIG  # read by crumb.config.load_config
PRESETS_DIR = paths.PRESETS

# ---------------------------------------------------------------- parsing one binding


def parse_binding(text: str, *, origin: str, partial: bool = False) -> Binding:
    """A binding string 'harness[:rest]' -> Binding; the harness reads its own `rest` (a model for most,
    'provider/model@base_url' for openai, a command line for command). `partial`: the rest of the binding
    follows (a TOML table's own keys), so what only a whole binding must have is checked later."""
    text = text.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    known = registry.names()
    if name not in known:
        raise ValueError(f"unknown harness {name!r} in {text!r}; known: {', '.join(known)}")
    provider, model, options = registry.get_harness(name).binding(rest.strip(), text, partial=partial)
    return Binding(harness=name, provider=provider, model=model, options=options, origin=origin)


def implied_providers() -> dict[str, str]:
    """harness -> the provider it talks to when a binding names none (for those that imply one)."""
    return {name: p for name, e in registry.entries().items() if (p := e.cls.provider)}


def check_flags(flags: Mapping[str, str]) -> dict[str, Binding]:
    """Validate `--role` flags before anything is written: role (or `all`) -> the binding the daemon
    will use. ValueError naming the flag and the fix, so a pitch never starts on a binding it would ignore."""
    layer = _flags_layer(flags)
    for role, (binding, _) in layer.items():
        if binding.harness == "command" and not binding.options.get("command"):
            raise ValueError(f"flag {role}=command names no command: write {role}=command:./my-agent (arguments may follow)")
    return {role: entry[0] for role, entry in layer.items()}


def rooted(binding: Binding, root: Path) -> Binding:
    """The binding with a relative executable (`command:./my-agent`, option `bin = "./claude"`) made absolute
    against the project root, so it runs the same whatever folder the daemon was started from."""
    options = dict(binding.options)
    command = options.get("command")
    if isinstance(command, str):
        command = shlex.split(command)
    if isinstance(command, list) and command and _relative_path(str(command[0])):
        options["command"] = [str(root / str(command[0])), *map(str, command[1:])]
    if isinstance(options.get("bin"), str) and _relative_path(options["bin"]):
        options["bin"] = str(root / options["bin"])
    return binding if options == binding.options else binding.model_copy(update={"options": options})


def _relative_path(name: str) -> bool:
    """'./tool' or 'bin/tool' (a path, not a bare name looked up on PATH), not absolute."""
    return os.sep in name and not os.path.isabs(name)


def binding_from(value: Any, *, origin: str, where: str) -> tuple[Binding, list[Any]]:
    """A binding and its fallback entries from a string or a TOML table."""
    try:
        return _binding_from(value, origin=origin, where=where)
    except ValueError as exc:
        message = str(exc)
        raise ValueError(message if message.startswith(where) else f"{where}: {message}") from None


def _binding_from(value: Any, *, origin: str, where: str) -> tuple[Binding, list[Any]]:
    if isinstance(value, str):
        return parse_binding(value, origin=origin), []
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected a string like 'claude:sonnet' or a table with harness = ...")
    table = dict(value)
    fallback = table.pop("fallback", [])
    if isinstance(fallback, (str, Mapping)):
        fallback = [fallback]
    if "harness" not in table:
        raise ValueError(f"{where}: a binding table needs harness = one of {', '.join(registry.names())}")
    base = parse_binding(str(table.pop("harness")), origin=origin, partial=True)
    options = {**base.options, **dict(table.pop("options", {}) or {})}
    for key in ("base_url", "command"):
        if key in table:
            options[key] = table.pop(key)
    data = base.model_dump() | {k: v for k, v in table.items()} | {"options": options, "origin": origin}
    if base.harness == "local":
        data.setdefault("provider", None)
    try:
        binding = Binding.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"{where}: {first_problem(exc)}; allowed keys: harness, provider, model, options, fallback") from None
    try:
        registry.get_harness(binding.harness).check(binding)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return binding, list(fallback)


# ---------------------------------------------------------------- presets and config files


def preset_names(root: Path) -> list[str]:
    """Presets available here: the packaged ones and any in <root>/presets/."""
    names = {p.name[:-5] for p in _packaged().iterdir() if p.name.endswith(".toml")}
    local = root / PRESETS_DIR
    if local.is_dir():
        names |= {p.stem for p in local.glob("*.toml")}
    return sorted(names)


def _packaged() -> Any:
    return resources.files("crumb.actors.harness").joinpath("presets")


def preset_path(root: Path, name: str) -> Path | None:
    """Where a preset is read from: <root>/presets/<name>.toml wins over the packaged copy."""
    local = root / PRESETS_DIR / f"{name}.toml"
    if local.is_file():
        return local
    packaged = _packaged().joinpath(f"{name}.toml")
    return Path(str(packaged)) if packaged.is_file() else None


def load_preset(root: Path, name: str) -> dict[str, Any]:
    """A preset's TOML as a dict: presets/<name>.toml in root, else the packaged copy."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"bad preset name {name!r}; use one of: {', '.join(preset_names(root))}")
    path = preset_path(root, name)
    if path is None:
        raise ValueError(f"no preset {name!r}; available: {', '.join(preset_names(root))} (or add presets/{name}.toml)")
    data = read_toml(path, allowed=PRESET_KEYS)
    if "fault" in data:  # a set-up whose embedded Builder breaks its first build on purpose (a pitch's --fault wins)
        if not isinstance(data["fault"], str) or data["fault"] not in FAULTS:
            raise ConfigError(f"{path}: fault = {data['fault']!r} is not a fault of the embedded studio; "
                              f"use one of {', '.join(FAULTS)}")
    return data


# ---------------------------------------------------------------- layers


Layer = dict[str, tuple[Binding, list[Any]]]


def _roles_layer(table: Any, *, origin: str, where: str) -> Layer:
    if table is None:
        return {}
    if not isinstance(table, Mapping):
        raise ValueError(f"{where}: [roles] must be a table of role = binding; roles: {', '.join(ROLES)}")
    layer: Layer = {}
    shared = None
    for key, value in table.items():
        if key in ALL:
            shared = binding_from(value, origin=origin, where=f"{where}: roles.{key}")
        elif key in ROLES:
            layer[key] = binding_from(value, origin=origin, where=f"{where}: roles.{key}")
        else:
            raise ValueError(f"{where}: unknown role {key!r}; roles: {', '.join(ROLES)} (or 'all')")
    if shared is not None:
        for role in ROLES:
            layer.setdefault(role, shared)
    return layer


def _flags_layer(flags: Mapping[str, str] | None) -> Layer:
    layer: Layer = {}
    shared = None
    for key, value in (flags or {}).items():
        if value is None or value == "":
            continue
        try:
            entry: tuple[Binding, list[Any]] = (parse_binding(str(value), origin="flag"), [])
        except ValueError as exc:
            raise ValueError(f"flag {key}={value}: {exc}") from None
        if key in ALL:
            shared = entry
        elif key in ROLES:
            layer[key] = entry
        else:
            raise ValueError(f"unknown role {key!r} in a flag; roles: {', '.join(ROLES)} (or 'all')")
    if shared is not None:
        for role in ROLES:
            layer.setdefault(role, shared)
    return layer


def detect_ambient(env: Mapping[str, str]) -> tuple[str, str] | None:
    """(harness, env var) when we run inside a harness's own CLI (its `ambient` variables) and that CLI
    is on PATH; the registry's order decides when several match."""
    for name, entry in registry.entries().items():
        exe = entry.cls.executable
        for var in entry.cls.ambient:
            if env.get(var) and exe and shutil.which(exe, path=env.get("PATH", os.defpath)):
                return name, var
    return None


def _ambient_layer(env: Mapping[str, str]) -> Layer:
    found = detect_ambient(env)
    if found is None:
        return {}
    harness, var = found
    binding = parse_binding(harness, origin=f"ambient:{var}")
    return {role: (binding, []) for role in ROLES}


def chosen_preset(root: Path, preset: str | None, config: Mapping[str, Any]) -> tuple[str | None, str]:
    """(preset name or None, where the choice came from): the flag, crumb.toml, then the user's config."""
    if preset:
        return preset, "flag"
    for value, origin, where in ((config.get("preset"), CONFIG_FILE, root / CONFIG_FILE),
                                 (load_user_config().get("preset"), USER_ORIGIN, user_config_path())):
        if value is not None:
            if not isinstance(value, str):
                raise ValueError(f"{where}: preset must be a string such as \"claude\"")
            return value, origin
    return None, ""


def resolve_bindings(
    root: Path,
    *,
    preset: str | None = None,
    flags: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
) -> dict[str, list[Binding]]:
    """Role -> adapter chain (first = in force, last = local). Bad config raises ValueError naming file and fix."""
    env = os.environ if env is None else env
    config = load_config(root)
    config_where = str(root / CONFIG_FILE)
    name, _ = chosen_preset(root, preset, config)
    layers: list[Layer] = [_flags_layer(flags), _roles_layer(config.get("roles"), origin=CONFIG_FILE, where=config_where),
                           _roles_layer(load_user_config().get("roles"), origin=USER_ORIGIN, where=str(user_config_path()))]
    if name is not None:
        data = load_preset(root, name)
        where = str(preset_path(root, name))
        layers.append(_roles_layer(data.get("roles"), origin=f"preset:{name}", where=where))
    else:
        layers.append(_ambient_layer(env))
    out: dict[str, list[Binding]] = {}
    for role in ROLES:
        chain: list[Binding] = []
        for layer in layers:
            if role not in layer:
                continue
            binding, fallback = layer[role]
            _add(chain, binding)
            for i, entry in enumerate(fallback):
                fb, _ = binding_from(entry, origin=f"{binding.origin} (fallback)", where=f"{binding.origin}: roles.{role}.fallback[{i}]")
                _add(chain, fb)
        _add(chain, Binding(harness="local", origin="fallback"))
        out[role] = chain
    return out


def _add(chain: list[Binding], binding: Binding) -> None:
    key = (binding.harness, binding.provider, binding.model, repr(sorted(binding.options.items())))
    if all((b.harness, b.provider, b.model, repr(sorted(b.options.items()))) != key for b in chain):
        chain.append(binding)


def chains_as_data(chains: Mapping[str, list[Binding]]) -> dict[str, list[dict[str, Any]]]:
    """The JSON form recorded in session.start (SessionStart.bindings)."""
    return {role: [b.model_dump(mode="json") for b in chain] for role, chain in chains.items()}


def chains_from_data(data: Mapping[str, list[Mapping[str, Any]]]) -> dict[str, list[Binding]]:
    return {role: [Binding.model_validate(b) for b in chain] for role, chain in data.items()}
