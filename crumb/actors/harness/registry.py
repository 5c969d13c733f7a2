"""Harness name -> Harness, read from the `crumb.harnesses` entry-point group.

Every harness, the built-ins included, is an entry point `name = "module:Class"` in its package's
pyproject.toml; the class subclasses `plugin.Harness` (or provides `name` and `run`). A plugin that
cannot be loaded (import error, not a harness, a name already taken) is left out with a one-line
warning naming its package and the fix (`problems()`, shown by `crumb doctor`); it never stops the
CLI or the daemon. Built-ins win a name clash, then the first package found.

importlib.metadata, not pluggy: a name -> class table is all CRUMB needs, with no hooks to call.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import cast

from crumb.actors.base import ActorError, ActorRequest, ActorResult, ProgressFn
from crumb.actors.harness.plugin import Harness

GROUP = "crumb.harnesses"
#: this project's own distribution (pyproject.toml [project].name; the import package is `crumb`). An entry point
#: whose name and target are a built-in's counts as CRUMB's own whichever distribution declares it, so a venv
#: still holding the editable install made under the old name ("crumb") does not make every built-in clash.
OWN = "crumb-games"
#: used only when CRUMB's own metadata has no entry points (a checkout run without `pip install -e .`,
#: or an install older than the plugin registry); tests/harness/test_registry.py checks it matches pyproject.toml
BUILTINS: dict[str, str] = {
    "local": "crumb.actors.harness.embedded:LocalHarness",
    "claude": "crumb.actors.harness.claude:ClaudeHarness",
    "codex": "crumb.actors.harness.codex:CodexHarness",
    "gemini": "crumb.actors.harness.gemini:GeminiHarness",
    "openai": "crumb.actors.harness.openai:OpenAIHarness",
    "command": "crumb.actors.harness.command:CommandHarness",
}

NAME = re.compile(r"[a-z][a-z0-9_-]*")

log = logging.getLogger("crumb.harness")


@dataclass(frozen=True)
class Entry:
    """One registered harness: its class and the package it came from."""

    name: str
    cls: type[Harness]
    package: str


_lock = threading.Lock()
_entries: dict[str, Entry] | None = None
_problems: list[str] = []


def _candidates() -> list[tuple[str, str, str]]:
    """(name, "module:attr", package) for every entry point of the group, CRUMB's own first."""
    found: list[tuple[str, str, str]] = []
    for ep in metadata.entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else "?"
        found.append((ep.name, ep.value, OWN if BUILTINS.get(ep.name) == ep.value else dist))
    if not any(pkg == OWN for _, _, pkg in found):
        found = [(n, v, OWN) for n, v in BUILTINS.items()] + found
    order = list(BUILTINS)
    # built-ins first in BUILTINS' order, then the plugins in the order found (sort is stable)
    found.sort(key=lambda c: (c[2] != OWN, order.index(c[0]) if c[2] == OWN and c[0] in order else len(order)))
    return found


def _load(name: str, target: str, package: str) -> type[Harness] | str:
    """The harness class an entry point names, or why it cannot be used (one line, with the fix)."""
    where = f"harness plugin {name!r} from package {package!r}"
    if not NAME.fullmatch(name):
        return f"{where}: a harness name is lower-case letters, digits, - and _ (it starts a binding string); rename the entry point"
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        obj = getattr(module, attr) if attr else module
    except (Exception, SystemExit) as exc:  # a plugin's import may fail in any way; it must not stop CRUMB
        return (f"{where} cannot be loaded ({type(exc).__name__}: {str(exc)[:160]}); "
                f"fix or reinstall it, or `pip uninstall {package}`")
    if not isinstance(obj, type):
        return f"{where}: {target} is not a class; point the entry point at a Harness subclass"
    missing = [a for a in ("name", "run") if not getattr(obj, a, None) or getattr(obj, a) is getattr(Harness, a)]
    if missing:
        return f"{where}: {target} has no {' or '.join(missing)}; subclass crumb.actors.harness.plugin.Harness"
    said = cast("type[Harness]", obj).name  # checked present just above; it need not subclass Harness
    if said != name:
        return f"{where}: its class says name = {said!r}; make the entry point and the class name agree"
    # a class with `name` and `run` but not derived from Harness gets Harness's defaults for the rest
    return obj if issubclass(obj, Harness) else type(obj.__name__, (obj, Harness), {"__module__": obj.__module__})


def _scan() -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    problems: list[str] = []
    for name, target, package in _candidates():
        if name in entries:
            if entries[name].package == package and package == OWN:
                continue  # the fallback table and the metadata both name a built-in
            problems.append(f"harness plugin {name!r} from package {package!r} is ignored: the name is taken by "
                            f"package {entries[name].package!r}; rename the entry point in {package}'s pyproject.toml")
            continue
        loaded = _load(name, target, package)
        if isinstance(loaded, str):
            problems.append(loaded)
            continue
        entries[name] = Entry(name, loaded if package == OWN else _guarded(loaded, package), package)
    for line in problems:
        log.warning("%s", line)
    _problems[:] = problems
    return entries


def _guarded(cls: type[Harness], package: str) -> type[Harness]:
    """A plugin's class whose run turns any exception but ActorError into an ActorError naming the package,
    so a bug in a plugin is one failed attempt (the circuit breaker's to count), not a dead worker."""

    def run(self: Harness, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        try:
            return cls.run(self, request, progress, cancel)
        except ActorError:
            raise
        except Exception as exc:
            raise ActorError(f"{cls.name} {request.role}: the plugin (package {package!r}) raised "
                             f"{type(exc).__name__}: {str(exc)[:200]}; report it to its authors or bind the role "
                             "to another harness") from None

    return type(cls.__name__, (cls,), {"run": run, "__module__": cls.__module__, "__doc__": cls.__doc__})


def entries() -> dict[str, Entry]:
    """Every usable harness, by name (loaded once per process; `reload()` reads the group again)."""
    global _entries
    with _lock:
        if _entries is None:
            _entries = _scan()
        return _entries


def reload() -> dict[str, Entry]:
    """Read the entry points again (after a plugin was installed into a running process)."""
    global _entries
    with _lock:
        _entries = None
    return entries()


def problems() -> list[str]:
    """One line per plugin left out, naming its package and the fix."""
    entries()
    return list(_problems)


def names() -> tuple[str, ...]:
    """The registered harness names, built-ins first."""
    return tuple(entries())


def get_harness(name: str) -> Harness:
    """A fresh harness for a name; ValueError naming the known ones otherwise."""
    entry = entries().get(name)
    if entry is None:
        raise ValueError(f"unknown harness {name!r}; known: {', '.join(names())}")
    try:
        return entry.cls()
    except Exception as exc:  # a plugin's constructor
        raise ValueError(f"harness {name!r} from package {entry.package!r} cannot start "
                         f"({type(exc).__name__}: {str(exc)[:160]}); fix or reinstall it") from None


def get_adapter(name: str) -> Harness:
    """The dispatcher's name for get_harness: a harness is the adapter that plays a role."""
    return get_harness(name)


def package_of(name: str) -> str | None:
    entry = entries().get(name)
    return entry.package if entry else None


def provider_of(name: str) -> str | None:
    """The provider a harness implies when its binding names none."""
    entry = entries().get(name)
    return entry.cls.provider if entry else None


def __getattr__(attr: str) -> tuple[str, ...]:
    if attr == "HARNESSES":  # the names, read when asked (plugins can be installed after import)
        return names()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
