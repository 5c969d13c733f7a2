"""Harnesses: the agent CLIs and servers that can play a CRUMB role, and how one is chosen.

Every harness is a plugin (plugin.Harness, registered through the `crumb.harnesses` entry points;
registry.py). The dispatcher uses: get_adapter, resolve_bindings, load_preset, run_process, estimate_cost,
prepare_verifier_dir. Each harness module states its assumptions about its CLI at the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crumb.lazy import exports

if TYPE_CHECKING:  # what each name is; at run time each is imported when first read (__getattr__)
    from crumb.actors.harness.bindings import chains_as_data, chains_from_data, load_preset, resolve_bindings
    from crumb.actors.harness.prices import estimate_cost
    from crumb.actors.harness.process import ProcessResult, run_process
    from crumb.actors.harness.registry import get_adapter, get_harness
    from crumb.actors.harness.verifier_dir import prepare_verifier_dir

#: exported name → its module. Importing one submodule (local_only, sandbox) does not load the others:
#: bindings alone pulls in pydantic and the protocol's models, ~0.1 s of `crumb pitch` and `crumb run`.
_exported = exports(__name__, {
    "chains_as_data": "bindings", "chains_from_data": "bindings", "load_preset": "bindings",
    "resolve_bindings": "bindings", "estimate_cost": "prices", "ProcessResult": "process",
    "run_process": "process", "get_adapter": "registry", "get_harness": "registry",
    "prepare_verifier_dir": "verifier_dir",
})

__all__ = [
    "HARNESSES",
    "get_harness",
    "ProcessResult",
    "chains_as_data",
    "chains_from_data",
    "estimate_cost",
    "get_adapter",
    "load_preset",
    "prepare_verifier_dir",
    "resolve_bindings",
    "run_process",
]


def __getattr__(attr: str) -> Any:
    if attr == "HARNESSES":  # read when asked: loading the plugins is not a side effect of importing this package
        from crumb.actors.harness.registry import names

        return names()
    return _exported(attr)
