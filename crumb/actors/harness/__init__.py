"""Harnesses: the agent CLIs and servers that can play a CRUMB role, and how one is chosen.

Every harness is a plugin (plugin.Harness, registered through the `crumb.harnesses` entry points;
registry.py). The dispatcher uses: get_adapter, resolve_bindings, load_preset, run_process, estimate_cost,
prepare_verifier_dir. Each harness module states its assumptions about its CLI at the top.
"""

from crumb.actors.harness.bindings import (
    chains_as_data,
    chains_from_data,
    load_preset,
    resolve_bindings,
)
from crumb.actors.harness.prices import estimate_cost
from crumb.actors.harness.process import ProcessResult, run_process
from crumb.actors.harness.registry import get_adapter, get_harness
from crumb.actors.harness.verifier_dir import prepare_verifier_dir

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


def __getattr__(attr: str) -> tuple[str, ...]:
    if attr == "HARNESSES":  # read when asked: loading the plugins is not a side effect of importing this package
        from crumb.actors.harness.registry import names

        return names()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
