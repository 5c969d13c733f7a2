"""Models of what the roles exchange: spec, acceptance probes, manifest, QA evidence, verdicts.

They are the payloads of transcript events and the contract between Planner, Builder, QA and
Verifier; docs/game-contract.md describes the game side (the test hook) in prose.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Model(BaseModel):
    """Strict by default: an unknown field is a mistake worth naming, not something to drop."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Phase = Literal["title", "playing", "paused", "over", "won"]
Verdict = Literal["PASS", "PARTIAL", "FAIL", "REJECT"]
Severity = Literal["Critical", "Important", "Minor"]


# ---------------------------------------------------------------- acceptance probes


class ProbeStep(Model):
    """One thing QA does to the running game before it checks an expectation.

    start  press the game's start input (Enter) and wait one frame
    key    press `key` (a KeyboardEvent.key value such as "ArrowLeft", " ", "Enter")
    click  click at (x, y), fractions of the game canvas (0..1)
    tap    touch-tap at (x, y), fractions of the game canvas
    wait   advance the game clock by `ms` (a fake clock: no real waiting)
    play   for `ms` of game time, repeatedly perform the input the game suggests in state().hint
    reload load the page again (a fresh game)
    """

    do: Literal["start", "key", "click", "tap", "wait", "play", "reload"]
    key: str | None = None
    x: float | None = Field(default=None, ge=0, le=1)
    y: float | None = Field(default=None, ge=0, le=1)
    ms: int = Field(default=0, ge=0, le=3_600_000)


class Expect(Model):
    """A check on `window.__crumb.state()` after the steps.

    `path` is dotted into the state object ("score", "lives", "grid.size").
    Relative ops (increased, decreased, changed, unchanged) compare with the value read
    just before the first step; `in` takes a list as `value`.
    """

    path: str = Field(min_length=1, max_length=100)
    op: Literal[
        "==", "!=", ">", ">=", "<", "<=", "in", "increased", "decreased", "changed", "unchanged"
    ]
    value: Any = None


class Probe(Model):
    steps: list[ProbeStep] = Field(default_factory=list, max_length=50)
    expect: list[Expect] = Field(min_length=1, max_length=10)


class Criterion(Model):
    """An acceptance criterion: a sentence for people and a probe for QA."""

    id: str = Field(pattern=r"^[a-z0-9_-]{1,32}$")
    text: str = Field(min_length=1, max_length=500)
    probe: Probe


# ---------------------------------------------------------------- spec


class Controls(Model):
    keys: list[str] = Field(default_factory=list)
    pointer: str = ""
    touch: str = ""


class Theme(Model):
    name: str = "default"
    palette: list[str] = Field(default_factory=list, description="CSS hex colours, background first")


class Numbers(Model):
    """Every number a pitch can state; None means the pitch did not say."""

    time_limit_s: int | None = Field(default=None, ge=1, le=86_400)
    lives: int | None = Field(default=None, ge=1, le=99)
    target_score: int | None = Field(default=None, ge=1)
    moves: int | None = Field(default=None, ge=1)
    levels: int | None = Field(default=None, ge=1, le=999)
    speed: float | None = Field(default=None, gt=0, le=100)
    grid: int | None = Field(default=None, ge=2, le=64)


class Spec(Model):
    title: str = Field(min_length=1, max_length=120)
    genre: str = Field(min_length=1, max_length=40)
    pitch: str = ""
    language: str = "en"
    core_loop: str = ""
    controls: Controls = Field(default_factory=Controls)
    win: str = ""
    lose: str = ""
    theme: Theme = Field(default_factory=Theme)
    numbers: Numbers = Field(default_factory=Numbers)
    extras: list[str] = Field(default_factory=list, description="features the pitch asks for, e.g. combo bonus")
    criteria: list[Criterion] = Field(default_factory=list, max_length=12)
    seed: int = 1
    rationale: str = ""


# ---------------------------------------------------------------- build


class FileEntry(Model):
    path: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    bytes: int = Field(ge=0)


class Manifest(Model):
    """What the dispatcher measured on disk after a build: never an actor's claim."""

    dir: str
    entry: str = "index.html"
    files: list[FileEntry] = Field(default_factory=list)


# ---------------------------------------------------------------- QA evidence


class ProbeResult(Model):
    id: str
    ok: bool
    detail: str = ""
    observed: Any = None


class Finding(Model):
    code: str
    severity: Severity = "Important"
    message: str


class QAResult(Model):
    """The deterministic evidence of one QA run on one build."""

    build: str | None = None
    ok: bool
    exec_ok: bool = False
    static_ok: bool = False
    loaded: bool = False
    hook: bool = False
    canvas_nonblank: bool | None = None
    canvas_animates: bool | None = None
    input_responds: bool | None = None
    probes: list[ProbeResult] = Field(default_factory=list)
    fps: float | None = None
    errors: list[str] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    blocked: list[str] = Field(default_factory=list, description="network requests the game attempted")
    screenshots: list[str] = Field(default_factory=list)
    duration_ms: int = 0
    error: str | None = Field(default=None, description="QA itself failed: crash, timeout, browser died")
    rechecked: str | None = Field(default=None, description=(
        "why QA ran the check a second time (a stall of its own, not the game's); the result is that run. "
        "Not a finding: it says nothing about the game"))


# ---------------------------------------------------------------- judgement


DIMENSIONS = ("goal_fit", "runs", "controls", "rules", "visuals", "performance")
EXEC_DIMENSIONS = ("runs", "controls", "rules", "performance")


class DimensionScore(Model):
    score: float = Field(ge=0, le=5)
    evidence: list[str] = Field(default_factory=list, description="ids of inputs the score rests on")
    note: str = ""


class JudgeScore(Model):
    verdict: Verdict
    severity: Severity | None = None
    scores: dict[str, DimensionScore] = Field(default_factory=dict)
    total: float = Field(ge=0, le=5)
    feedback: str = ""
    evidence: list[str] = Field(default_factory=list)
