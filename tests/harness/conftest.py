"""Fixtures: a fake OpenAI-compatible chat server on loopback, progress collection, and the request a
harness gets for each role. The real agent CLIs and their fake model servers are in tests/agents/."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.base import ActorRequest, Binding, Limits, ProgressUpdate
from tests.agents.answers import spec
from tests.agents.fake_chat import FakeChat

#: an agent for the `command` harness, written against command-contract.md as a third party would
JSON_AGENT = Path(__file__).resolve().parents[1] / "agents" / "json_agent.py"


@pytest.fixture
def openai_server() -> Iterator[FakeChat]:
    with FakeChat() as server:
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


