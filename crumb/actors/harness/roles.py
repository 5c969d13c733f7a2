"""What each role must answer, how an answer is found in an agent's text, and how it is checked.

The dispatcher validates payloads again; checking here too lets a harness fail fast with a message
that names the role and the field, which the circuit breaker then counts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from crumb import prompts
from crumb.actors.base import ActorError, ActorRequest, ActorResult
from crumb.actors.harness.verifier_dir import film_note
from crumb.protocol.errors import first_problem
from crumb.protocol.events import ResearchEvidence, ResearchPlan
from crumb.protocol.game import JudgeScore, Spec


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlannerAnswer(_Answer):
    spec: Spec | None = None
    research: ResearchPlan | None = None

    @model_validator(mode="after")
    def _one(self) -> PlannerAnswer:
        if (self.spec is None) == (self.research is None):
            raise ValueError('answer exactly one of "spec" or "research"')
        return self


class BuilderAnswer(_Answer):
    notes: list[str] = []


class VerifierAnswer(_Answer):
    judge: JudgeScore


class ResearcherAnswer(_Answer):
    evidence: ResearchEvidence


ANSWERS: dict[str, type[_Answer]] = {
    "planner": PlannerAnswer,
    "builder": BuilderAnswer,
    "verifier": VerifierAnswer,
    "researcher": ResearcherAnswer,
}

#: roles that change files; every other role only reads and answers
WRITERS = frozenset({"builder"})


def answer_schema(role: str) -> dict[str, Any]:
    return ANSWERS[role].model_json_schema()


#: keywords that constrain values rather than shape; providers' structured-output modes reject many
#: of them, and the dispatcher validates the full models anyway
VALUE_KEYWORDS = frozenset(
    {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern",
     "minItems", "maxItems", "format", "default", "title"}
)


def portable_schema(role: str) -> dict[str, Any]:
    """The answer schema with value constraints removed: shape only, for --json-schema style flags."""

    def strip(node: Any, key: str | None = None) -> Any:
        if isinstance(node, dict):
            if key == "properties":  # property names are data here, not keywords
                return {k: strip(v) for k, v in node.items()}
            return {k: strip(v, k) for k, v in node.items() if k not in VALUE_KEYWORDS}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    out: dict[str, Any] = strip(answer_schema(role))
    return out


def prompt_for(request: ActorRequest, *, mode: Literal["tools", "text"] = "tools", files: str = "",
               film: str | None = None) -> str:
    """The role's prompt for this request (see crumb/prompts/). `film`: the words about QA's filmstrip
    (default for tools mode: the frames are in the folder, open them)."""
    role = request.role
    if mode == "tools":
        where = (
            "Your current folder is the game folder: create and edit the game's files there, and nowhere else."
            if role in WRITERS
            else "Your current folder holds `input.json` (the JSON above), `game/` (a copy of the build) and, "
            "when QA filmed the play-through, `filmstrip/`; read them, change nothing."
            if role == "verifier"
            else ""
        )
    else:
        where = ""
    if film is None:
        film = film_note(request.input, "They are image files in your folder: open `filmstrip/sheet.png` and "
                         "the frames with your file-reading tool and look at them before you score.") \
            if mode == "tools" and role == "verifier" else ""
    return prompts.render(role, request.input, schema=answer_schema(role), mode=mode, where=where, files=files,
                          film=film)


_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)\n[ \t]*```", re.S)


def extract_json(text: str) -> dict[str, Any]:
    """The answer object in an agent's final text: the whole text, else the last fenced block, else
    the last balanced {...}. Raises ValueError saying what was (not) found."""
    stripped = text.strip()
    if not stripped:
        raise ValueError("the answer was empty")
    candidates: list[str] = [stripped]
    candidates += [m.group(1) for m in reversed(list(_FENCE.finditer(text)))]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    last = last_json_object(text)
    if last is not None:
        return last
    snippet = " ".join(stripped.split())[:120]
    raise ValueError(f"no JSON object found in the answer (it begins: {snippet!r})")


def last_json_object(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object embedded in prose."""
    decoder = json.JSONDecoder()
    found: dict[str, Any] | None = None
    i = text.find("{")
    while i >= 0:
        try:
            value, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(value, dict):
            found = value
        i = text.find("{", end)
    return found


def payload_from(role: str, answer: Any, *, harness: str) -> dict[str, Any]:
    """Validate an answer object for `role`; the payload the dispatcher expects, or ActorError."""
    if isinstance(answer, str):
        try:
            answer = extract_json(answer)
        except ValueError as exc:
            raise ActorError(f"{harness} {role}: {exc}; the prompt asks for one JSON object at the end") from None
    model = ANSWERS[role]
    if role == "planner" and isinstance(answer, dict) and "spec" not in answer and "research" not in answer and "title" in answer:
        answer = {"spec": answer}  # a bare spec is an honest mistake worth accepting
    try:
        parsed = model.model_validate(answer)
    except ValidationError as exc:
        p = first_problem(exc)
        raise ActorError(
            f"{harness} {role}: answer does not match the {role} schema at {p.where or '(top)'}: {p.message} "
            f"({p.count} problem(s))"
        ) from None
    return parsed.model_dump(mode="json", exclude_none=True, by_alias=True)


def files_changed(work_dir: Path, since: float) -> list[str]:
    """Files under work_dir modified at or after `since` (a claim for the result; the dispatcher measures)."""
    out: list[str] = []
    if not work_dir.is_dir():
        return out
    for path in sorted(work_dir.rglob("*")):
        try:
            if path.is_file() and not path.is_symlink() and path.stat().st_mtime >= since - 1:
                out.append(path.relative_to(work_dir).as_posix())
        except OSError:
            continue
    return out


def result_payload(role: str, answer: Any, *, harness: str) -> dict[str, Any]:
    """payload_from, except that a builder's plain-text summary becomes its notes: its real output
    is the files on disk, which the dispatcher measures anyway."""
    if role in WRITERS and isinstance(answer, str):
        try:
            return payload_from(role, answer, harness=harness)
        except ActorError:
            text = answer.strip()
            return {"notes": [text[:2000]] if text else []}
    return payload_from(role, answer, harness=harness)


def require_entry(request: ActorRequest, harness: str, entry: str = "index.html") -> None:
    """A builder run that leaves no entry file failed, whatever it said: count it as an actor failure."""
    if request.role in WRITERS and not (request.work_dir / entry).is_file():
        raise ActorError(
            f"{harness} builder: finished but {entry} is not in the game folder; the agent may lack write "
            "permission (check the binding's sandbox/approval/permission options) or ignored the task"
        )


def agent_result(request: ActorRequest, answer: Any, *, harness: str, started: float, usage: Any) -> ActorResult:
    """The end of every agent CLI run: the answer checked against the role's schema, a builder's entry
    file required, and the files the run touched (a claim; the dispatcher measures)."""
    payload = result_payload(request.role, answer, harness=harness)
    require_entry(request, harness)
    files = files_changed(request.work_dir, started) if request.role in WRITERS else []
    return ActorResult(payload=payload, files=files, usage=usage)
