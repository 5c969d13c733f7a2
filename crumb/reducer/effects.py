"""What the reducer asks the dispatcher to do: one typed struct per kind, tagged by `kind`.

Effects are frozen msgspec structs so they cost no more than the dicts they replace on replay's hot
path, hash the same way inside the state (msgspec encodes them with their `kind` tag) and cannot be
changed by whoever holds one: the reducer makes a new one (`msgspec.structs.replace`) to retry.
Every effect's id is "<causing event id>.<n>", the same on every replay.

  RunActor  run a role through its current adapter; closed by the role's result or effect.failed
  QACheck   run deterministic QA on a build; closed by qa.result
  Record    append `event` as given (audit, done, circuit, notes, errors); closed by that event
  Cancel    stop the runs named in `targets` (fire and forget: never pending)
"""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

import msgspec


class BindingData(TypedDict, total=False):
    """One adapter of a role's chain as session.start records it (the JSON of actors.base.Binding)."""

    harness: str
    provider: str | None
    model: str | None
    options: dict[str, Any]
    origin: str  # "user" after a person's /swap


class RecordedEvent(msgspec.Struct, frozen=True):
    """The event a Record effect appends: its kind, data and one-line body."""

    kind: str
    data: dict[str, Any]
    body: str = ""


class RunActor(msgspec.Struct, frozen=True, tag="run_actor", tag_field="kind"):
    kind: ClassVar[str] = "run_actor"
    id: str
    actor: str
    attempt: int
    binding: BindingData  # the adapter in force, as session.start recorded it
    index: int  # its place in the role's chain: 0 = the harness the role was bound to
    input: dict[str, Any]  # the role's projection of the state (crumb/reducer/reduce.py: _planner_input, ...)
    closes: tuple[str, ...]


class QACheck(msgspec.Struct, frozen=True, tag="qa_check", tag_field="kind"):
    kind: ClassVar[str] = "qa_check"
    id: str
    build: str  # the build event's id
    manifest: dict[str, Any]
    criteria: list[dict[str, Any]]
    controls: list[str]
    round: int = 0  # the build round, naming the filmstrip's folder (artifacts/qa/round-K)
    closes: tuple[str, ...] = ("qa.result", "effect.failed")  # failed: QA could not run at all (no browser)
    actor: str = "qa"
    attempt: int = 1


class Record(msgspec.Struct, frozen=True, tag="record", tag_field="kind"):
    kind: ClassVar[str] = "record"
    id: str
    event: RecordedEvent
    closes: tuple[str, ...]


class Cancel(msgspec.Struct, frozen=True, tag="cancel", tag_field="kind"):
    kind: ClassVar[str] = "cancel"
    id: str
    targets: tuple[str, ...]


Effect = RunActor | QACheck | Record | Cancel
Pending = RunActor | QACheck | Record  # what stays open until its result arrives (a Cancel never does)
Run = RunActor | QACheck  # what a Cancel stops

def to_data(effect: Effect) -> dict[str, Any]:
    """The effect in its JSON form (`kind` included, tuples as lists), for people and tools."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(effect))
    return data


def from_data(data: dict[str, Any]) -> Effect:
    """An effect from its JSON form (to_data's inverse); msgspec.ValidationError names a bad field."""
    effect: Effect = msgspec.convert(data, Effect)
    return effect
