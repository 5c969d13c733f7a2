"""One real finished session for the export, release, housekeeping and completion tests: `crumb run` on
a 60-second snake, made once per test run, copied into a fresh root by tests that change a root."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENTRY = "from crumb.cli import main; main(prog_name='crumb')"  # what the `crumb` console script runs


def crumb(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, input: str | None = None,
          timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """`crumb ARGS` in a fresh process, as the installed console script runs it, from this checkout."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run([sys.executable, "-c", ENTRY, *args], cwd=cwd or REPO, capture_output=True, text=True,
                          timeout=timeout, env=full_env, input=input)


@dataclass(frozen=True)
class Made:
    root: Path
    session: str
    outcome: dict[str, object]

    def copy(self, to: Path) -> Path:
        """A fresh root holding a copy of the session (tests that remove or release work on their own)."""
        shutil.copytree(self.root / "sessions", to / "sessions")
        return to


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Made]:
    root = tmp_path_factory.mktemp("export-root")
    run = crumb("--root", str(root), "run", "60-second snake", "--json")
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    yield Made(root, str(outcome["session"]), outcome)
