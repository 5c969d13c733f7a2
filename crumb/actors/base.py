"""The one actor interface every harness implements.

The dispatcher builds an ActorRequest (projected input only), calls `Adapter.run`, then measures
what really happened (files on disk, JSON validated) before recording anything. An adapter never
writes the transcript and never calls another actor.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Protocol, TypeGuard, get_args

from pydantic import BaseModel, ConfigDict, Field

from crumb.protocol.events import Meta
from crumb.settings import Settings

Role = Literal["planner", "builder", "verifier", "researcher"]


def is_role(name: str) -> TypeGuard[Role]:
    """Is `name` a role an agent plays (not "qa", not a typo)?"""
    return name in get_args(Role)


class Binding(BaseModel):
    """Which harness plays a role, with which provider and model, and where that choice came from."""

    model_config = ConfigDict(extra="forbid")

    harness: str = "local"
    provider: str | None = None
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    origin: str = "fallback"


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    wall_s: float = Field(default=900, gt=0)
    idle_s: float = Field(default=300, gt=0)


class ActorRequest(BaseModel):
    """Everything an actor may see. `input` is the role's projection; nothing else is reachable."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    role: Role
    session: str
    effect_id: str
    work_dir: Path = Field(description="the only folder the actor may write in")
    input: dict[str, Any]
    binding: Binding = Field(default_factory=Binding)
    limits: Limits = Field(default_factory=Limits)
    log_path: Path | None = Field(default=None, description="where stdout/stderr of the run are streamed")
    settings: Settings = Field(default_factory=Settings, description="the session's settings (a judge's thresholds)")
    read_only: list[Path] = Field(default_factory=list,
                                  description="what the actor's process may read but never write (sandbox.py)")


class ActorResult(BaseModel):
    """What the actor says it did. `payload` is checked by the dispatcher against the role's model:

    planner    {"spec": Spec} or {"research": ResearchPlan}
    researcher {"evidence": ResearchEvidence}
    builder    {"notes": [str, ...]}   (the files are measured on disk, not taken from here)
    verifier   {"judge": JudgeScore}
    """

    model_config = ConfigDict(extra="forbid")

    payload: dict[str, Any] = Field(default_factory=dict)
    files: list[str] = Field(default_factory=list, description="claimed, never trusted")
    usage: Meta = Field(default_factory=Meta)


class ProgressUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: str
    tool: str | None = None
    files: list[str] = Field(default_factory=list)


class ActorError(Exception):
    """An actor run failed in a way worth retrying or swapping over (the circuit breaker counts these)."""

    def __init__(self, message: str, *, usage: Meta | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Meta()


ProgressFn = Callable[[ProgressUpdate], None]


class Adapter(Protocol):
    """A harness. `name` is what presets and `/swap` call it ("local", "claude", ...)."""

    @property
    def name(self) -> str: ...  # read-only: harnesses declare it as a class attribute

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        """Do the role's work; raise ActorError on failure. Must return soon after `cancel` is set."""
        ...
