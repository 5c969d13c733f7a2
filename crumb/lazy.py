"""Lazy exports (PEP 562), so a package's names cost nothing until read.

A package says which module each name it exports lives in; importing the package, or one of its light
modules, then loads none of the heavy ones (pydantic models, Playwright, the runner), and `crumb`'s
start stays short. Each package lists the same names under TYPE_CHECKING for readers and mypy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["exports"]


def exports(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`: reading name N imports `package.<where[N]>` and gives its N."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
