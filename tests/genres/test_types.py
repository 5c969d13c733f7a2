"""The genre registry is typed strictly: `mypy --strict` over crumb/genres (the model, the registry and
every built-in genre.py) finds nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (make setup installs it)")
def test_mypy_strict_passes_on_the_registry() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "crumb/genres"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
