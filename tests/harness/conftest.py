"""Fixtures: stand-in `claude`, `codex`, `gemini` on PATH and a stand-in OpenAI server on loopback."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.base import ActorRequest, Binding, Limits, ProgressUpdate

STANDINS = Path(__file__).resolve().parent / "standins"
sys.path.insert(0, str(STANDINS))

from openai_server import StandinServer  # noqa: E402

NESTED = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_THREAD_ID", "CODEX_CI", "CODEX_SANDBOX_NETWORK_DISABLED", "GEMINI_CLI")


@dataclass
class Standins:
    """Drives the stand-in CLIs of one test through their control file."""

    bin: Path
    control_path: Path
    record_path: Path

    def set(self, **control: Any) -> None:
        control.setdefault("record", str(self.record_path))
        self.control_path.write_text(json.dumps(control))
        count = Path(str(self.control_path) + ".count")
        if count.exists():
            count.unlink()

    def records(self) -> list[dict[str, Any]]:
        if not self.record_path.exists():
            return []
        return [json.loads(line) for line in self.record_path.read_text().splitlines() if line.strip()]

    def last(self) -> dict[str, Any]:
        runs = [r for r in self.records() if "argv" in r]
        assert runs, "the stand-in was never run"
        return runs[-1]


@pytest.fixture
def standins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Standins:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("claude", "codex", "gemini"):
        source = STANDINS / name
        wrapper = bin_dir / name
        wrapper.write_text(
            f"#!{sys.executable}\nimport runpy, sys\nsys.argv[0] = {str(source)!r}\n"
            f"runpy.run_path({str(source)!r}, run_name='__main__')\n"
        )
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for var in NESTED:
        monkeypatch.delenv(var, raising=False)
    s = Standins(bin=bin_dir, control_path=tmp_path / "standin.json", record_path=tmp_path / "standin-record.jsonl")
    monkeypatch.setenv("CRUMB_STANDIN_CONTROL", str(s.control_path))
    s.set()
    return s


@pytest.fixture
def openai_server() -> Iterator[StandinServer]:
    with StandinServer() as server:
        yield server


@dataclass
class Progress:
    updates: list[ProgressUpdate] = field(default_factory=list)

    def __call__(self, update: ProgressUpdate) -> None:
        self.updates.append(update)

    @property
    def files(self) -> list[str]:
        return [f for u in self.updates for f in u.files]


@pytest.fixture
def progress() -> Progress:
    return Progress()


PITCH = "tap the dot as often as you can in 30 seconds"


def role_input(role: str, tmp_path: Path) -> dict[str, Any]:
    """A plausible projected input for each role (shapes from the dispatcher's contract)."""
    from _core import spec  # type: ignore[import-not-found]

    if role == "planner":
        return {"pitch": PITCH, "seed": 7, "evidence": [], "feedback": None, "previous_spec": None, "steering": []}
    if role == "builder":
        return {"spec": spec(), "feedback": None, "qa": None, "steering": [], "round": 1, "fault": None, "seed": 7}
    if role == "verifier":
        return {"goal": {"id": "G1", "pitch": PITCH}, "spec": {"id": "S1", **spec()},
                "build": {"id": "B1", "manifest": {"dir": "game", "files": []}},
                "qa": {"id": "Q1", "ok": True, "probes": []}}
    return {"pitch": PITCH, "plan": {"questions": ["what makes clickers fun?"]}}


def make_request(
    role: str,
    work_dir: Path,
    binding: Binding,
    *,
    input: dict[str, Any] | None = None,
    wall_s: float = 60,
    idle_s: float = 30,
    log_path: Path | None = None,
) -> ActorRequest:
    return ActorRequest(
        role=role,  # type: ignore[arg-type]
        session="01JTESTSESSION000000000000",
        effect_id=f"E-{role}",
        work_dir=work_dir,
        input=input if input is not None else role_input(role, work_dir),
        binding=binding,
        limits=Limits(wall_s=wall_s, idle_s=idle_s),
        log_path=log_path,
    )


