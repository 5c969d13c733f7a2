"""Fixtures: one real CLI (installed by `make agents`) pointed at its vendor's fake model server, with a
throwaway HOME, so nothing touches the user's configuration."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.agents.clis import BIN, FOREIGN, cli, live_processes_with, point_at
from tests.agents.fake_anthropic import FakeAnthropic
from tests.agents.fake_base import FakeServer, Script
from tests.agents.fake_gemini import FakeGemini
from tests.agents.fake_responses import FakeResponses

SERVERS: dict[str, type[FakeServer]] = {"claude": FakeAnthropic, "codex": FakeResponses, "gemini": FakeGemini}


@dataclass
class Vendor:
    """A real CLI and the fake server it talks to."""

    harness: str
    server: FakeServer
    home: Path

    @property
    def script(self) -> Script:
        return self.server.script

    def home_files(self) -> list[Path]:
        return sorted(p for p in self.home.rglob("*") if p.is_file())

    def processes(self) -> dict[int, str]:
        """The live processes of this CLI (and what it started): those whose environment names its HOME."""
        return live_processes_with(str(self.home))


@dataclass
class Offline:
    """Stands where a Vendor goes for runs that never reach a model server (a missing or wrong `bin`)."""

    harness: str


@pytest.fixture
def throwaway_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    for var in FOREIGN:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("CLAUDE_CODE_MAX_RETRIES", "0")  # tests of retries set their own
    return home


def vendor_for(harness: str, home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vendor]:
    cli(harness)
    with SERVERS[harness]() as server:
        env: dict[str, str] = {}
        point_at(harness, server.base_url, home, env)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        yield Vendor(harness, server, home)


def one_vendor(harness: str) -> Callable[..., Iterator[Vendor]]:
    """A fixture for one real CLI and its fake server (import it by name where a test needs it)."""

    def fixture(throwaway_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vendor]:
        yield from vendor_for(harness, throwaway_home, monkeypatch)

    fixture.__name__ = harness
    return pytest.fixture(fixture)


claude = one_vendor("claude")
codex = one_vendor("codex")
gemini = one_vendor("gemini")


@pytest.fixture(params=["claude", "codex", "gemini"])
def vendor(request: pytest.FixtureRequest, throwaway_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vendor]:
    yield from vendor_for(request.param, throwaway_home, monkeypatch)


@pytest.fixture
def vendors(throwaway_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Vendor]]:
    """All three CLIs at once, for sessions that mix them (the cross preset)."""
    gens = [vendor_for(h, throwaway_home, monkeypatch) for h in SERVERS]
    out = {v.harness: v for v in (next(g) for g in gens)}
    yield out
    for g in gens:
        next(g, None)
