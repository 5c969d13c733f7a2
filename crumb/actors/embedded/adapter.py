"""The `local` harness: the embedded studio playing all four roles, no network, no model.

It only reads the projected input and writes inside request.work_dir (the builder); the dispatcher
measures the files and validates the payload before anything is recorded.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from crumb.actors.base import ActorError, ActorRequest, ActorResult, ProgressFn, ProgressUpdate
from crumb.actors.embedded.filmstrip import read_film
from crumb.actors.embedded.pitch import human_lines
from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.research import research
from crumb.actors.embedded.steering import apply_steering
from crumb.actors.embedded.verifier import judge
from crumb.actors.harness.verifier_dir import film_files
from crumb.protocol.errors import first_problem
from crumb.protocol.events import EvidenceItem, Meta, ResearchPlan
from crumb.protocol.game import Spec
from crumb.protocol.names import CRASH_FAULT

MODEL = "crumb-local-1"
#: a fault that makes this adapter fail instead of building (round 1, every attempt): what a broken agent
#: CLI looks like to the circuit breaker, so its last step (chain exhausted -> done: circuit_open) can be run
CRASH = CRASH_FAULT




class _In(BaseModel):
    model_config = ConfigDict(extra="ignore")


class PlannerInput(_In):
    pitch: str = ""
    seed: int = 1
    evidence: list[EvidenceItem] = Field(default_factory=list)
    feedback: str | None = None
    previous_spec: Spec | None = None
    steering: list[str] = Field(default_factory=list)
    builder: str = "local"


class ResearcherInput(_In):
    pitch: str = ""
    plan: ResearchPlan


class BuilderInput(_In):
    spec: Spec
    feedback: str | None = None
    steering: list[str] = Field(default_factory=list)
    round: int | None = None
    fault: str | None = None
    seed: int | None = None


def _texts(value: Any) -> list[str]:
    """Steering arrives as strings or as user events' data ({"text": ...}); keep the text."""
    if value is None:
        return []
    if isinstance(value, (str, dict)):
        value = [value]
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        text = item.get("text") or item.get("reason") if isinstance(item, dict) else item
        if isinstance(text, str):
            out.append(text)
    return out


def _evidence(value: Any) -> Any:
    if isinstance(value, dict) and "items" in value:
        return value["items"]
    return value or []


def _parse(model: type[_In], data: dict[str, Any], role: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        p = first_problem(exc)
        raise ActorError(f"local {role}: bad input at {p.where or 'input'}: {p.message}") from None


class LocalAdapter:
    """Adapter "local": Planner, researcher, Builder and Verifier from crumb.actors.embedded."""

    name = "local"

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        started = time.monotonic()
        if cancel.is_set():
            raise ActorError(f"local {request.role}: cancelled before it started")
        data = request.input if isinstance(request.input, dict) else {}
        handler = {"planner": self._plan, "researcher": self._research, "builder": self._build,
                    "verifier": self._verify}.get(request.role)
        if handler is None:
            raise ActorError(f"local adapter cannot play role {request.role!r}; roles: planner, researcher, builder, verifier")
        payload = handler(request, data, progress, cancel)
        usage = Meta(provider="crumb", model=MODEL, harness=self.name, tokens_in=0, tokens_out=0, cost_usd=0.0,
                     duration_ms=int((time.monotonic() - started) * 1000))
        return ActorResult(payload=payload, usage=usage)

    def _plan(self, request: ActorRequest, data: dict[str, Any], progress: ProgressFn,
              cancel: threading.Event) -> dict[str, Any]:
        data = {**data, "evidence": _evidence(data.get("evidence")), "steering": _texts(data.get("steering"))}
        args: PlannerInput = _parse(PlannerInput, data, "planner")
        progress(ProgressUpdate(message="reading the pitch"))
        out = plan(args.pitch, seed=args.seed, evidence=args.evidence, feedback=args.feedback,
                   previous=args.previous_spec, steering=args.steering, builder=args.builder)
        if isinstance(out, ResearchPlan):
            progress(ProgressUpdate(message=f"no genre word found; asking for research on {', '.join(out.candidates)}"))
            return {"research": out.model_dump(mode="json")}
        progress(ProgressUpdate(message=f"spec: {out.title} ({out.genre}), {len(out.criteria)} criteria"))
        return {"spec": out.model_dump(mode="json")}

    def _research(self, request: ActorRequest, data: dict[str, Any], progress: ProgressFn,
                  cancel: threading.Event) -> dict[str, Any]:
        args: ResearcherInput = _parse(ResearcherInput, data, "researcher")
        evidence = research(args.plan, args.pitch)
        progress(ProgressUpdate(message="catalogue: " + ", ".join(i.id for i in evidence.items)))
        return {"evidence": evidence.model_dump(mode="json")}

    def _build(self, request: ActorRequest, data: dict[str, Any], progress: ProgressFn,
               cancel: threading.Event) -> dict[str, Any]:
        data = {**data, "steering": _texts(data.get("steering"))}
        if isinstance(data.get("feedback"), (list, dict)):
            data["feedback"] = "\n".join(_texts(data["feedback"]))
        args: BuilderInput = _parse(BuilderInput, data, "builder")
        if args.fault == CRASH:
            raise ActorError(f"local builder: failed on purpose (fault {CRASH!r}); pitch without --fault {CRASH} to build")
        spec, notes = apply_steering(args.spec, args.steering)
        asked = {" ".join(m.split()).lower() for m in args.steering}
        fb_lines = [line for line in human_lines(args.feedback) if " ".join(line.split()).lower() not in asked]
        fb_spec, fb_notes = apply_steering(spec, fb_lines)
        spec = fb_spec
        notes += [n for n in fb_notes if not n.startswith("Not understood")]
        if notes:
            progress(ProgressUpdate(message="steering: " + "; ".join(notes)[:1900]))
        if cancel.is_set():
            raise ActorError("local builder: cancelled")
        try:
            from crumb.actors.embedded.builder import build_game
        except ImportError as exc:
            raise ActorError(f"local builder is not available ({exc}); reinstall crumb") from None
        request.work_dir.mkdir(parents=True, exist_ok=True)
        try:
            build_notes = build_game(spec, request.work_dir, fault=args.fault, seed=args.seed)
        except (ValueError, KeyError, OSError) as exc:
            raise ActorError(f"local builder failed for genre {spec.genre!r}: {exc}") from None
        payload: dict[str, Any] = {"notes": [*notes, *build_notes]}
        if spec != args.spec:
            payload["spec"] = spec.model_dump(mode="json")
        progress(ProgressUpdate(message=f"built {spec.genre} in {request.work_dir.name}"))
        return payload

    def _verify(self, request: ActorRequest, data: dict[str, Any], progress: ProgressFn,
                cancel: threading.Event) -> dict[str, Any]:
        film = read_film([(request.work_dir / f.name).read_bytes() for f in film_files(data)
                          if f.name.endswith(".png") and "frame-" in f.name and (request.work_dir / f.name).is_file()])
        try:
            score = judge(data, request.settings.judge, film)
        except ValueError as exc:
            raise ActorError(f"local verifier: {exc}") from None
        progress(ProgressUpdate(message=f"verdict {score.verdict}, total {score.total:g}"))
        return {"judge": score.model_dump(mode="json")}


ADAPTER = LocalAdapter()
