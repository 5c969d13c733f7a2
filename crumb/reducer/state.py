"""The state of one session as the reducer sees it: everything routing needs, bounded in size.

Data that msgspec encodes (dicts, lists, the effect structs, the settings as a pydantic model turned
into its JSON form by to_dict) so it can be hashed, compared between replay and the live daemon, and
summarised for people. Histories are capped so memory stays flat however long a transcript is. The
records below are TypedDicts: typed for mypy, plain dicts at run time (what the CLI and Studio read).
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

import msgspec

from crumb.reducer.effects import BindingData, Pending, QACheck, Record, RunActor
from crumb.reducer.played import FallbackData, PlayedByData, cast, fell_back, played_note
from crumb.settings import Settings

HISTORY = 50  # verdicts, errors and steering messages kept per session

STAGE_OF_PHASE = {
    "planning": "planner",
    "researching": "researcher",
    "building": "builder",
    "qa": "qa",
    "verifying": "verifier",
}


class GoalRef(TypedDict):
    id: str  # the goal event's id
    pitch: str


class EventRef(TypedDict):
    """The latest spec, qa.result or judge.score: its event id and data."""

    id: str
    data: dict[str, Any]


class BuildRef(TypedDict):
    id: str
    manifest: dict[str, Any]
    spec: str | None  # the spec event the build was made from


class DoneData(TypedDict):
    """How the session ended (the routing part of protocol.events.Done)."""

    reason: str | None
    detail: str
    verdict: str | None


class VerdictRow(TypedDict):
    round: int
    verdict: str | None
    severity: str | None
    total: Any
    corrections: int


class LastRun(TypedDict):
    input: dict[str, Any]  # what the role's last run was given, to run it again after a swap


@dataclass
class SessionState:
    session: str = ""
    settings: Settings = field(default_factory=Settings)  # as session.start recorded them (crumb.settings.recorded_settings)
    bindings: dict[str, list[BindingData]] = field(default_factory=dict)  # role → its chain of adapters
    adapter_index: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    played: dict[str, PlayedByData] = field(default_factory=dict)  # role → who produced its last result
    fallbacks: list[FallbackData] = field(default_factory=list)  # every circuit opened, capped
    preset: str = "local"
    seed: int = 1
    fault: str | None = None
    forked_from: dict[str, Any] | None = None  # a fork's link to its original (session, seq, event)
    unrunnable: list[str] = field(default_factory=list)  # roles whose bound harness could not run at the start

    phase: str = "new"
    round: int = 0
    redesigns: int = 0
    fixes: int = 0
    verifies: int = 0

    goal: GoalRef | None = None
    spec: EventRef | None = None
    build: BuildRef | None = None
    qa: EventRef | None = None
    judge: EventRef | None = None
    evidence: list[dict[str, Any]] = field(default_factory=list)
    verdicts: list[VerdictRow] = field(default_factory=list)
    feedback: str | None = None
    steering: dict[str, list[str]] = field(default_factory=dict)

    paused: bool = False
    paused_actors: list[str] = field(default_factory=list)
    deferred: list[RunActor | QACheck] = field(default_factory=list)  # issued while paused
    waiting_for: str | None = None
    pending: dict[str, Pending] = field(default_factory=dict)  # effect id → effect, until its result arrives
    last_runs: dict[str, LastRun] = field(default_factory=dict)
    done: DoneData | None = None
    finishing: bool = False

    tokens: int = 0
    cost_usd: float = 0.0
    budget_overrides: dict[str, float] = field(default_factory=dict)
    limits: dict[str, float] = field(default_factory=dict)
    warned: list[str] = field(default_factory=list)
    started_at: str | None = None
    last_ts: str | None = None
    wall_check: str | None = None

    last_seq: int = 0
    events: int = 0
    unknown: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)

    def copy(self) -> SessionState:
        """A deep copy; the settings are shared, as nothing changes a Settings once recorded."""
        return copy.deepcopy(self, {id(self.settings): self.settings})

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-able data (effects with their `kind`, settings in their JSON form)."""
        data = dict(self.__dict__)
        data["settings"] = self.settings.to_data()
        out: dict[str, Any] = msgspec.to_builtins(data)
        return out

    def state_hash(self) -> str:
        """Same transcript → same hash, in any process, on any day."""
        return hashlib.sha256(msgspec.json.encode(self.to_dict(), order="sorted")).hexdigest()

    # ------------------------------------------------------------ views for people

    @property
    def pitch(self) -> str:
        return self.goal["pitch"] if self.goal is not None else ""

    @property
    def spec_data(self) -> dict[str, Any]:
        """The spec in force ({} before the Planner wrote one)."""
        return self.spec["data"] if self.spec is not None else {}

    @property
    def stage(self) -> str | None:
        return STAGE_OF_PHASE.get(self.phase)

    def budget_limits(self) -> dict[str, float]:
        return dict(self.limits)

    def elapsed_s(self) -> float:
        """Wall time so far, from event timestamps (never the clock)."""
        if self.started_at is None or self.last_ts is None:
            return 0.0
        start = datetime.fromisoformat(self.started_at)
        return max(0.0, (datetime.fromisoformat(self.last_ts) - start).total_seconds())

    def budget_use(self) -> dict[str, dict[str, float]]:
        used = {
            "redesigns": float(self.redesigns),
            "fixes": float(self.fixes),
            "verifies": float(self.verifies),
            "tokens": float(self.tokens),
            "cost_usd": round(self.cost_usd, 6),
            "wall_s": round(self.elapsed_s(), 3),
        }
        limits = self.budget_limits()
        return {k: {"used": v, "limit": limits.get(k, 0.0)} for k, v in used.items()}

    def summary(self) -> dict[str, Any]:
        spec = self.spec_data
        return {
            "session": self.session,
            "phase": self.phase,
            "stage": self.stage,
            "round": self.round,
            "genre": spec.get("genre"),
            "title": spec.get("title"),
            "pitch": self.goal["pitch"] if self.goal is not None else None,
            "verdicts": list(self.verdicts),
            "done": self.done,
            "pending": [
                {"id": e.id, "kind": e.kind, "actor": None if isinstance(e, Record) else e.actor,
                 "attempt": 1 if isinstance(e, Record) else e.attempt}
                for e in self.pending.values()
            ],
            "deferred": len(self.deferred),
            "budgets": self.budget_use(),
            "paused": self.paused,
            "paused_actors": list(self.paused_actors),
            "waiting_for": self.waiting_for,
            "feedback": self.feedback,
            "played": copy.deepcopy(self.played),
            "played_text": cast(self.played, self.fallbacks),
            "played_note": played_note(self.played, self.fallbacks),
            "fallback": fell_back(self.played),
            "fallbacks": copy.deepcopy(self.fallbacks),
            "bindings": {
                role: (chain[self.adapter_index.get(role, 0)] if chain and self.adapter_index.get(role, 0) < len(chain) else None)
                for role, chain in self.bindings.items()
            },
            "last_seq": self.last_seq,
            "events": self.events,
            "unknown_kinds": self.unknown,
            "duplicates_ignored": self.duplicates,
            "errors": list(self.errors[-5:]),
            "state_hash": self.state_hash(),
        }
