"""What a batch is: its pitches, set-ups and seeds (batch.toml), and the cells they make.

A set-up is how `crumb run` would be told who plays: a preset, role bindings, an embedded-studio fault,
or several of these, written the way a person types them (`cross`, `builder=claude:sonnet,verifier=codex`,
`local,fault=wrongtimer`). Every cell of a set-up gets the same pitch text, seed and budgets, so set-ups
are compared on the same work (fair by construction).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from crumb.protocol.names import ROLES

BATCHES = "batches"
PLAN_TOML = "batch.toml"
RUNS_JSONL = "runs.jsonl"
SESSION_LINKS = "sessions"  # batches/<id>/sessions/<cell> → ../../../sessions/<session id>

SETUP_KEYS = ("fault", "fallback")  # key=value items of a set-up that are not role bindings


class PlanError(ValueError):
    """A batch.toml or --setup that cannot be run: the message names the problem and the fix."""


class Setup(BaseModel):
    """One agent set-up: who plays each role, as `crumb run --preset/--role/--fault/--allow-fallback` take it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    preset: str | None = None
    roles: dict[str, str] = Field(default_factory=dict)  # role (or "all") → "harness[:model]"
    fault: str | None = None  # the embedded studio breaks its first build on purpose
    allow_fallback: bool = False

    @field_validator("roles")
    @classmethod
    def _known_roles(cls, roles: dict[str, str]) -> dict[str, str]:
        for role, binding in roles.items():
            if role not in (*ROLES, "all"):
                raise ValueError(f"unknown role {role!r}: use one of {', '.join(ROLES)} or all")
            if not binding.strip():
                raise ValueError(f"role {role!r} is bound to nothing: write {role}=HARNESS[:MODEL]")
        return roles

    def role_flags(self) -> tuple[str, ...]:
        """The bindings as `--role` values (what drop_pitch takes)."""
        return tuple(f"{role}={binding}" for role, binding in self.roles.items())


def parse_setup(text: str) -> Setup:
    """`cross`, `builder=claude:sonnet,verifier=codex`, `local,fault=wrongtimer,fallback=allow` → a Setup
    named by the text itself (what a person typed is what the report shows)."""
    preset: str | None = None
    roles: dict[str, str] = {}
    fault: str | None = None
    allow_fallback = False
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise PlanError(f"--setup {text!r}: an empty item; write PRESET or ROLE=HARNESS[:MODEL], comma-separated")
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq:
            if preset is not None:
                raise PlanError(f"--setup {text!r}: two presets ({preset}, {item}); a set-up takes one preset")
            preset = item
        elif key == "fault":
            fault = value
        elif key == "fallback":
            if value not in ("allow", "deny"):
                raise PlanError(f"--setup {text!r}: fallback={value!r}; write fallback=allow or fallback=deny")
            allow_fallback = value == "allow"
        else:
            roles[key] = value
    try:
        return Setup(name=text.strip(), preset=preset, roles=roles, fault=fault, allow_fallback=allow_fallback)
    except ValidationError as err:
        raise PlanError(f"--setup {text!r}: {err.errors()[0]['msg']}") from None


class BatchPlan(BaseModel):
    """batch.toml: written by `crumb batch`, or by a person and dropped into inbox/ to start one."""

    model_config = ConfigDict(extra="forbid")

    name: str = ""
    crumb: str = ""  # the CRUMB version that planned it
    pitches: list[str] = Field(min_length=1)
    setups: list[Setup] = Field(min_length=1)
    seeds: list[int] = Field(default_factory=lambda: [1], min_length=1)
    parallel: int = Field(default=2, ge=1)
    timeout_s: float = Field(default=900.0, gt=0)  # per cell: a cell not settled by then is recorded as timed out

    @field_validator("pitches")
    @classmethod
    def _no_blank_pitch(cls, pitches: list[str]) -> list[str]:
        for i, text in enumerate(pitches, 1):
            if not text.strip():
                raise ValueError(f"pitch {i} is empty: give every pitch a line of text")
        return pitches

    @model_validator(mode="after")
    def _distinct(self) -> BatchPlan:
        names = [s.name for s in self.setups]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"set-up {name!r} is listed twice: name each set-up once")
        slugs = [slug(n) for n in names]
        for s in slugs:
            if slugs.count(s) > 1:
                raise ValueError(f"set-ups {[n for n in names if slug(n) == s]} would share cell ids: rename one")
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"seeds {self.seeds} repeat one: give each seed once")
        return self

    def cells(self) -> list[Cell]:
        """Every run of the matrix, pitch-major (the first pitch on every set-up and seed comes first, so
        a batch cut short still compares set-ups on the same pitches)."""
        return [Cell(pitch=i, setup=setup.name, seed=seed)
                for i in range(1, len(self.pitches) + 1) for seed in self.seeds for setup in self.setups]

    def setup(self, name: str) -> Setup:
        for s in self.setups:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_toml(self) -> str:
        """The plan as batch.toml (hand-written: tomllib reads TOML, nothing in the stdlib writes it)."""
        lines = [f"# A CRUMB batch: {len(self.pitches)} pitches x {len(self.setups)} set-ups x {len(self.seeds)} seeds.",
                 "# Edit and drop into inbox/ to start a batch like it; `crumb batch resume ID` finishes this one.",
                 f"name = {_q(self.name)}", f"crumb = {_q(self.crumb)}", f"seeds = {self.seeds}",
                 f"parallel = {self.parallel}", f"timeout_s = {self.timeout_s}", "pitches = ["]
        lines += [f"  {_q(p)}," for p in self.pitches]
        lines.append("]")
        for s in self.setups:
            lines += ["", "[[setups]]", f"name = {_q(s.name)}"]
            if s.preset is not None:
                lines.append(f"preset = {_q(s.preset)}")
            if s.fault is not None:
                lines.append(f"fault = {_q(s.fault)}")
            if s.allow_fallback:
                lines.append("allow_fallback = true")
            if s.roles:
                lines.append("roles = { " + ", ".join(f"{k} = {_q(v)}" for k, v in s.roles.items()) + " }")
        return "\n".join(lines) + "\n"


@dataclass(frozen=True, order=True)
class Cell:
    """One run of the matrix: pitch number (1-based, as batch.toml lists them), set-up name and seed."""

    pitch: int
    setup: str
    seed: int

    @property
    def id(self) -> str:
        """`p003-cross-s2`: readable, unique within a batch, safe as a file name."""
        return f"p{self.pitch:03d}-{slug(self.setup)}-s{self.seed}"


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]
    return s or "setup"


def load_plan(path: Path) -> BatchPlan:
    """A batch.toml, or PlanError naming the line or field that is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PlanError(f"{path}: cannot read it ({err})") from None
    return parse_plan(text, str(path))


def parse_plan(text: str, where: str) -> BatchPlan:
    """batch.toml's text (`where` names it in the message), or PlanError naming the line or field that is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PlanError(f"{where}: not valid TOML ({err}); fix that line") from None
    try:
        return BatchPlan.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "the file"
        raise PlanError(f"{where}: {field}: {first['msg']}") from None


def _q(text: str) -> str:
    """A TOML basic string (JSON's escaping is a subset TOML accepts)."""
    return json.dumps(text, ensure_ascii=False)


def read_pitches(path: Path) -> list[str]:
    """The pitches of a PITCHES file: .jsonl, one object per line with a "pitch" (or "text") field; any other
    file, one pitch per line, blank lines and `#` comments skipped. PlanError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise PlanError(f"{path}: cannot read it ({err.strerror if isinstance(err, OSError) else err})") from None
    out: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if path.suffix.lower() != ".jsonl":
            out.append(line)
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as err:
            raise PlanError(f"{path}:{n}: not a JSON object ({err.msg}); write one {{\"pitch\": \"...\"}} per line") from None
        pitch = item.get("pitch", item.get("text")) if isinstance(item, dict) else None
        if not isinstance(pitch, str) or not pitch.strip():
            raise PlanError(f"{path}:{n}: no \"pitch\" (or \"text\") string in this object; give each line one")
        out.append(" ".join(pitch.split()))
    if not out:
        raise PlanError(f"{path}: no pitch in it; write one pitch per line (or a .jsonl with a \"pitch\" per line)")
    return out
