"""The transcript envelope and one typed `data` model per event kind (a discriminated union).

Every line of transcript.jsonl is one Envelope. The writer validates it in full; readers
check the envelope fast and validate a kind's data only where it is read (see store.reader).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from crumb.protocol.game import (
    JudgeScore,
    Manifest,
    Model,
    QAResult,
    Severity,
    Spec,
    Verdict,
)
from crumb.protocol.names import EVENT_KINDS, SCHEMA_VERSION

Actor = Literal["planner", "builder", "verifier", "researcher", "qa"]
Source = Literal["user", "daemon", "dispatcher", "planner", "builder", "verifier", "researcher", "qa", "validator", "system"]


class Meta(Model):
    """Who produced an event and what it cost. Usage fields count against the budgets."""

    provider: str | None = None
    model: str | None = None
    harness: str | None = None
    tokens_in: int | None = Field(default=None, ge=0)
    tokens_out: int | None = Field(default=None, ge=0)
    cost_usd: float | None = Field(default=None, ge=0)
    cost_estimated: bool = False
    duration_ms: int | None = Field(default=None, ge=0)
    finish_reason: str | None = Field(default=None, max_length=64, description=(
        "why the model's last answer ended, as its server said (`end_turn`, `stop`, `max_tokens`, `length`, "
        "`refusal`, ...); absent when the harness cannot see it"))


class InboxFile(Model):
    """The inbox file an event came from: proof it was consumed, so a crash never doubles it."""

    name: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    bytes: int = Field(ge=0)
    stamp: str | None = Field(default=None, description="inode:mtime_ns — tells a re-read after a crash from a new save")


# ---------------------------------------------------------------- data per kind


class UnrunnableBinding(Model):
    """A role's binding in force that could not run when the session started (the pre-flight check)."""

    model_config = ConfigDict(frozen=True)  # hashable: roles with the same problem are named together

    binding: str = Field(description="as a flag writes it: claude:sonnet, openai:ollama/m@http://..., command:./tool")
    origin: str = Field(description="where the binding came from: flag, crumb.toml, preset:NAME, ambient:VAR")
    reason: str = Field(description="why it cannot run, e.g. 'claude' is not on PATH")
    fix: str = ""


class SessionStart(Model):
    settings: dict[str, Any] = Field(description="the full Settings in force, so replay never uses today's defaults")
    bindings: dict[str, list[dict[str, Any]]] = Field(default_factory=dict, description="per role: adapter chain")
    preset: str = "local"
    seed: int = 1
    fault: str | None = None
    fallback: Literal["allow", "refuse"] | None = Field(
        default=None,
        description="allow: the session was let start although a role's bound harness could not run here "
                    "(--allow-fallback, front matter `fallback: allow`, setting harness.fallback); refuse: every "
                    "bound harness passed the pre-flight check; null: recorded before CRUMB checked",
    )
    unrunnable: dict[str, UnrunnableBinding] = Field(
        default_factory=dict,
        description="role -> its binding in force that could not run when the session started (only with fallback allow)",
    )


class ForkedFrom(Model):
    """Where a fork was cut: the original session, the seq of its last copied line and that line's id."""

    session: str = Field(min_length=1, max_length=64)
    seq: int = Field(ge=1)
    event: str = Field(pattern=r"^[0-9A-HJKMNP-TV-Z]{26}$", description="the original's event id at `seq`")


class SessionFork(Model):
    """The line after the copied prefix of a fork (crumb/daemon/fork.py): from here on these bindings,
    and the effects left pending at the cut are issued again under them."""

    forked_from: ForkedFrom
    at: str = Field(default="", description="what the person asked: a seq, `spec` or `build`")
    bindings: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="per role rebound by the fork: its adapter chain (other roles keep theirs)")
    preset: str | None = Field(default=None, description="the preset the fork named, if any")
    seed: int | None = None
    fault: str | None = Field(default=None, description="the fault of the fork's first build round (its preset's, or its own)")
    fallback: Literal["allow", "refuse"] | None = None
    unrunnable: dict[str, UnrunnableBinding] = Field(default_factory=dict)
    copied: list[str] = Field(default_factory=list, description="artifacts copied or rendered into the fork")
    source: InboxFile | None = None


class Goal(Model):
    pitch: str = Field(min_length=1, max_length=65_536)
    source: InboxFile | None = None


class ResearchPlan(Model):
    questions: list[str] = Field(min_length=1)
    reason: str = ""
    candidates: list[str] = Field(default_factory=list)


class EvidenceItem(Model):
    id: str
    source: str
    title: str
    text: str


class ResearchEvidence(Model):
    items: list[EvidenceItem] = Field(default_factory=list)


class SpecData(Spec):
    pass


class SpecUpdate(Spec):
    """A spec changed after it was planned: a person's edit (`user`, which rebuilds), a Planner's or a Builder's
    adjustment to steering, or CRUMB's (`crumb`) re-weighing of its checks and reading for another Builder than it
    was planned for (a fork, a /swap, a fallback)."""

    by: Literal["user", "planner", "builder", "crumb"] = "user"
    source: InboxFile | None = None


class Build(Model):
    manifest: Manifest
    notes: list[str] = Field(default_factory=list, description="what the builder changed and why")
    spec: str | None = Field(default=None, description="id of the spec event this build implements")


class QAResultData(QAResult):
    pass


class JudgeScoreData(JudgeScore):
    pass


class Correction(Model):
    rule: str
    field: str
    before: Any = None
    after: Any = None
    reason: str


class Audit(Model):
    judge: str = Field(description="id of the judge.score event audited")
    qa: str | None = Field(default=None, description="id of the qa.result used as ground truth")
    corrections: list[Correction] = Field(default_factory=list)
    verdict: Verdict
    severity: Severity | None = None
    total: float = Field(ge=0, le=5)
    feedback: str = ""


class EffectData(Model):
    effect_id: str
    kind: str
    actor: str | None = None
    adapter: str | None = None
    attempt: int = 1
    error: str | None = None
    log: str | None = Field(default=None, description="path of the per-run log, relative to the session")


class Progress(Model):
    effect_id: str
    actor: str
    message: str = Field(max_length=2000)
    tool: str | None = None
    files: list[str] = Field(default_factory=list)


class CircuitOpened(Model):
    actor: str
    adapter: str
    failures: int = Field(ge=1)
    error: str | None = None


class AdapterSwapped(Model):
    actor: str
    before: str | None = None
    after: str | None = None
    reason: Literal["circuit", "user", "reset"] = "circuit"
    binding: dict[str, Any] | None = None


class BudgetWarning(Model):
    budget: str
    used: float
    limit: float


class PlayedBy(Model):
    """Who produced a role's last result: the binding that ran it and what the adapter reported."""

    harness: str = Field(description="the harness that ran (the effect's binding)")
    provider: str | None = None
    model: str | None = Field(default=None, description="the model the adapter reported, else the binding's")
    origin: str | None = Field(default=None, description="where the binding came from: flag, crumb.toml, preset:NAME, "
                                                        "ambient:VAR, user (a person's /swap), fallback")
    index: int = Field(default=0, ge=0, description="its place in the role's chain: 0 = the binding in force at the start "
                                                    "(or a person's /swap)")
    fallback: bool = Field(default=False, description="true when the circuit breaker had swapped the bound harness out")
    bound: str | None = Field(default=None, description="harness[:model] the role was bound to (its chain's first)")


class Fallback(Model):
    """One opened circuit: the harness that failed, how often and why, and the one that took over."""

    actor: str
    before: str | None = None
    after: str | None = Field(default=None, description="null when the chain had no adapter left")
    failures: int = Field(ge=1)
    error: str | None = None


class Done(Model):
    reason: Literal["pass", "approved", "budget", "circuit_open", "cancelled", "error"]
    detail: str = ""
    verdict: Verdict | None = None
    played: dict[str, PlayedBy] = Field(default_factory=dict, description="per role: who produced its last result")
    fallbacks: list[Fallback] = Field(default_factory=list, description="every circuit the session opened, in order")
    fallback: bool = Field(default=False, description="true when a role's last result came from a fallback adapter: "
                                                      "the verdict is not the bound harness's")


class Note(Model):
    text: str = Field(max_length=65_536)


class ErrorData(Model):
    message: str = Field(min_length=1, max_length=2000)
    source: InboxFile | None = None
    line: int | None = None


class Release(Model):
    """A named version of the game kept under versions/ (`crumb release`): a record of what was copied,
    routing nothing. The CLI makes the copy and drops `/release NAME` into the session's inbox; the daemon
    writes this event with what it reads and hashes in versions/<name>/manifest.json then, never with what
    the inbox file claims (it names the version only)."""

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", description="the version's folder under versions/")
    label: str = Field(default="", max_length=200)
    path: str = Field(description="root-relative folder of the copy, versions/<name>")
    build: str = Field(pattern=r"^[0-9A-HJKMNP-TV-Z]{26}$", description="id of the build event whose game was copied")
    verdict: Verdict | None = Field(default=None, description="the session's verdict when it was released")
    parent: str | None = Field(default=None, description="the version this one follows, if any")
    files: int = Field(ge=1)
    manifest_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of versions/<name>/manifest.json")
    source: InboxFile | None = Field(default=None, description="the inbox file whose /release line asked for it")
    line: int | None = None


# ---- user commands (from inbox files, the CLI and the Studio — all through the inbox)


class UserBase(Model):
    source: InboxFile | None = None
    line: int | None = Field(default=None, description="line of the inbox file, when several commands share one")


class UserIntervene(UserBase):
    text: str = Field(min_length=1, max_length=65_536)
    actor: Actor | None = None


class UserApprove(UserBase):
    pass


class UserVeto(UserBase):
    reason: str = ""


class UserPause(UserBase):
    actor: Actor | None = None


class UserResume(UserBase):
    actor: Actor | None = None


class UserGoto(UserBase):
    actor: Actor


class UserSwap(UserBase):
    actor: Actor
    harness: str = Field(min_length=1)
    model: str | None = None


class UserAppend(UserBase):
    actor: Actor | None = None
    text: str = Field(min_length=1, max_length=65_536)


class UserNote(UserBase):
    text: str = Field(min_length=1, max_length=65_536)


class UserCancel(UserBase):
    reason: str = ""


class UserResetCircuit(UserBase):
    actor: Actor | Literal["all"] = "all"


class UserRedo(UserBase):
    actor: Actor | None = None


class UserBudget(UserBase):
    name: str
    value: float = Field(ge=0)


class UserStatus(UserBase):
    pass


#: kind → data model. The one registry of what may appear in a transcript.
KINDS: dict[str, type[BaseModel]] = {
    "session.start": SessionStart,
    "goal": Goal,
    "research.plan": ResearchPlan,
    "research.evidence": ResearchEvidence,
    "spec": SpecData,
    "spec.update": SpecUpdate,
    "build": Build,
    "qa.result": QAResultData,
    "judge.score": JudgeScoreData,
    "audit": Audit,
    "effect.started": EffectData,
    "effect.finished": EffectData,
    "effect.failed": EffectData,
    "progress": Progress,
    "circuit.opened": CircuitOpened,
    "adapter.swapped": AdapterSwapped,
    "budget.warning": BudgetWarning,
    "done": Done,
    "note": Note,
    "error": ErrorData,
    "release": Release,
    "session.fork": SessionFork,
    "user.intervene": UserIntervene,
    "user.approve": UserApprove,
    "user.veto": UserVeto,
    "user.pause": UserPause,
    "user.resume": UserResume,
    "user.goto": UserGoto,
    "user.swap": UserSwap,
    "user.append": UserAppend,
    "user.note": UserNote,
    "user.cancel": UserCancel,
    "user.reset_circuit": UserResetCircuit,
    "user.redo": UserRedo,
    "user.budget": UserBudget,
    "user.status": UserStatus,
}
if tuple(KINDS) != EVENT_KINDS:  # one list of kinds: a reader that builds no model reads names.EVENT_KINDS
    raise ImportError("crumb.protocol.names.EVENT_KINDS differs from crumb.protocol.events.KINDS: make them equal")

#: kinds that carry ground truth: only the dispatcher's writer may append them (a `release`'s facts are
#: measured by the daemon, through the dispatcher's writer, from the copy under versions/).
GROUND_TRUTH_KINDS = frozenset(
    {"qa.result", "audit", "done", "circuit.opened", "adapter.swapped", "build", "effect.finished", "effect.failed",
     "release", "session.fork"}
)


class Envelope(BaseModel):
    """Fields common to every event. `from` is a Python keyword, hence the alias."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    v: int = SCHEMA_VERSION
    seq: int = Field(ge=1)
    id: str = Field(pattern=r"^[0-9A-HJKMNP-TV-Z]{26}$", description="ULID")
    ts: datetime = Field(description="UTC time of the append")
    session: str = Field(min_length=1, max_length=64)
    prev: str | None = Field(default=None, max_length=64, description=(
        "the hash chain: on line 1 the session id; on every later line the sha256 (hex) of the previous line's "
        "exact bytes (on the first line carrying it after lines without it: of every byte before it). "
        "Absent in transcripts written before the chain"))
    kind: str
    from_: Source = Field(alias="from")
    parent: str | None = Field(default=None, description="id of the event this one answers")
    effect: str | None = Field(default=None, description="id of the effect this event is the result of")
    body: str = Field(default="", max_length=65_536, description="a short human-readable line")
    data: Any = None
    meta: Meta = Field(default_factory=Meta)


def _typed(kind: str, data_model: type[BaseModel]) -> type[Envelope]:
    """The envelope of one kind: `kind` fixed to it, `data` its model (built at run time, hence Any below:
    a Literal of a run-time value and a Union of run-time classes are not static types)."""
    fields: dict[str, Any] = {"kind": (Literal[kind], ...), "data": (data_model, ...)}
    model: type[Envelope] = create_model("Event_" + kind.replace(".", "_"), __base__=Envelope, **fields)
    return model


@cache
def event_adapter() -> TypeAdapter[Envelope]:
    """The validator of one whole event, a union discriminated by `kind`: built on first use, as it is
    most of this module's cost and a reader that only checks envelopes (store.reader) never needs it."""
    typed = [_typed(k, m) for k, m in KINDS.items()]
    # Union[...] over a tuple built at run time: the `X | Y` spelling cannot take one
    any_event: Any = Annotated[Union[tuple(typed)], Field(discriminator="kind")]  # noqa: UP007
    return TypeAdapter(any_event)


def parse_event(obj: dict[str, Any]) -> Envelope:
    """Validate a decoded event in full; raises pydantic.ValidationError naming the field."""
    return event_adapter().validate_python(obj)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one transcript line, as committed in docs/transcript.schema.json."""
    schema = event_adapter().json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "CRUMB transcript event"
    schema["description"] = f"One line of transcript.jsonl, schema version {SCHEMA_VERSION}."
    return schema
