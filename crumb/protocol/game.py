"""Models of what the roles exchange: spec, acceptance probes, manifest, QA evidence, verdicts.

They are the payloads of transcript events and the contract between Planner, Builder, QA and
Verifier; docs/game-contract.md describes the game side (the test hook) in prose.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from pydantic import BaseModel, ConfigDict, Field

# re-exported: defined without pydantic, for the reducer
from crumb.protocol.names import DIMENSIONS as DIMENSIONS
from crumb.protocol.names import EXEC_DIMENSIONS as EXEC_DIMENSIONS
from crumb.protocol.names import NUMBER_PATHS as NUMBER_PATHS


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
    level_time_s: int | None = Field(default=None, ge=1, le=3600, description=(
        "seconds to clear each level (or to live each life): the clock restarts at each level and after a lost "
        "life, and running out costs a life; apart from time_limit_s, the whole round's clock"))


NUMBER_FIELDS = ("time_limit_s", "lives", "target_score", "moves", "levels", "speed", "grid", "level_time_s")
#: the range a number stated in a pitch or written in spec.md may take (a reader ignores one outside it)
NUMBER_LIMITS: dict[str, tuple[float, float]] = {
    "time_limit_s": (1, 86_400), "lives": (1, 99), "target_score": (1, 1_000_000_000), "moves": (1, 1_000_000),
    "levels": (1, 999), "speed": (0.01, 100), "grid": (2, 64), "level_time_s": (1, 3600)}
#: where the game's test hook reports each stated number (docs/game-contract.md), so QA can check it

GenreHow = Literal["named", "mechanics", "evidence", "nearest", "steering", "kept", "person", "planner"]


class GenreReading(Model):
    """Which genre was built and why, so a verdict can say whether it is the game the pitch asked for."""

    genre: str = Field(description="the genre the spec builds")
    how: GenreHow = Field(description=(
        "named: the pitch names it; mechanics: its words describe it; evidence: research chose it; "
        "nearest: the pitch asks for a genre the builder cannot make; steering/person: a person asked; "
        "kept: unchanged on redesign; planner: an agent planner chose it"))
    words: list[str] = Field(default_factory=list, description="the pitch's words that chose it")
    asked: str | None = Field(default=None, description="the genre the pitch asks for, when it is not the one built")
    fits: bool | None = Field(default=None, description="the genre built is the one the pitch asks for; None: not known")
    note: str = ""


class LanguageReading(Model):
    language: str = Field(description="the language the pitch is written in, as detected")
    read_as: str = Field(description="the language whose words the Planner read it with")
    recognised: bool = Field(description="the Planner reads this language")
    how: str = ""


class StatedNumber(Model):
    """A number the pitch states, and where it went: a verdict may not drop one silently."""

    field: str = Field(description="the Numbers field it sets, e.g. lives")
    value: float
    said: str = Field(default="", description="the pitch's own words")
    criterion: str | None = Field(default=None, description="id of the acceptance criterion that checks it in the game")
    honoured: bool = Field(default=True, description="the spec and the builder carry it")
    note: str = ""


class PitchReading(Model):
    """How the Planner read the pitch, field by field: the record pitch fidelity is judged from."""

    by: str = Field(default="embedded studio", description="who read it: the embedded studio, or crumb for an agent's spec")
    builder: str = Field(default="local",
                         description="the harness bound to build it when it was planned: 'local', the embedded games, "
                                     "whose lacks are named as not built; another, an agent, for which the stated numbers "
                                     "are checked by criteria and what no criterion can check is left to a person")
    genre: GenreReading
    language: LanguageReading
    numbers: list[StatedNumber] = Field(default_factory=list)
    unhonoured: list[str] = Field(default_factory=list, description="what the pitch asks for that the spec does not carry")
    guesses: list[str] = Field(default_factory=list, description="what was guessed because the pitch did not say")

    def shortfalls(self) -> list[str]:
        """Why the game may not be the one pitched, in a designer's words; empty when it is (the
        validator's words: crumb.protocol.reading.shortfalls)."""
        from crumb.protocol.reading import PitchReadingData, shortfalls

        return shortfalls(msgspec.convert(self.model_dump(), PitchReadingData))


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
    reading: PitchReading | None = Field(default=None, description="how the pitch was read (pitch fidelity)")


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


class FilmFrame(Model):
    """One frame of QA's filmstrip: a small PNG of the main play-through at a moment of game time."""

    path: str = Field(description="session-relative, e.g. artifacts/qa/round-2/frame-03.png")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    t_ms: int = Field(ge=0, description="game time since the page loaded (QA's fake clock)")
    after: str | None = Field(default=None, description=(
        "the input this is the first frame after (\"'ArrowLeft'\", \"click\", \"start\"); none: a frame of the "
        "even spread across the round"))


class Filmstrip(Model):
    """Frames across the main play-through, in game-time order, and one contact sheet of them all."""

    frames: list[FilmFrame] = Field(default_factory=list)
    sheet: str | None = Field(default=None, description="session-relative path of the contact sheet PNG")
    width: int = Field(default=0, ge=0, description="pixel width of each frame")
    inputs: list[str] = Field(default_factory=list, description="the inputs pressed in the play-through, in order")


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
    filmstrip: Filmstrip | None = Field(default=None, description="frames of the main play-through (none: not recorded)")
    files: list[FileEntry] = Field(default_factory=list, description=(
        "every file this QA run wrote (screenshots, frames, contact sheet), session-relative, with sha256"))
    duration_ms: int = 0
    error: str | None = Field(default=None, description="QA itself failed: crash, timeout, browser died")
    rechecked: str | None = Field(default=None, description=(
        "why QA ran the check again (a stall of its own, not the game's; or a first run whose pages that did not "
        "paint could not show what QA needed); the result is the last run, but for one case: when a first run saw "
        "the game hang while QA ran freely and QA could not finish the run that checked it again, the first run stands. "
        "Not a finding: it says nothing about the game"))


# ---------------------------------------------------------------- judgement




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
