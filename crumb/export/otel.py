"""A session's transcript as OpenTelemetry spans, named by the GenAI semantic conventions.

Pure: events (and the effects the reducer issued for them) in, span records out; no clock, no I/O, no
OpenTelemetry import. `crumb export --otel` feeds a whole transcript and writes OTLP/JSON (`otlp_json`);
the daemon's live stream (crumb/daemon/otel_stream.py) feeds each event as it is reduced and hands the
spans this returns to the OpenTelemetry SDK. Both give the same spans for the same transcript.

The span model (docs/otel.md):
- one trace per session: trace id from the session id, so every export and the live stream agree;
- the session span (`invoke_workflow crumb`): first event .. `done`;
- one span per role run (`invoke_agent planner`): its `effect.started` .. the role's result or
  `effect.failed`, with the binding it ran under and the usage its result's `meta` reports;
- one span per QA check (`qa_check`): the event that asked for it (the build) .. `qa.result`, each
  acceptance probe a span event.
Span ids come from event ids (the session's first event, the run's `effect.started`, the `qa.result`).
Times are the events' `ts`: what the transcript says, never a clock.
"""

from __future__ import annotations

import calendar
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from crumb.reducer.effects import Effect, QACheck, RunActor
from crumb.reducer.reduce import RUN_CLOSES, apply, initial_state

# The GenAI semantic conventions' names, as opentelemetry-semantic-conventions 0.66b2 spells them
# (opentelemetry.semconv._incubating.attributes.gen_ai_attributes; tests/export/test_otel.py checks them).
# gen_ai.system is the older name of gen_ai.provider.name: not written.
GEN_AI_OPERATION_NAME = "gen_ai.operation.name"
GEN_AI_PROVIDER_NAME = "gen_ai.provider.name"
GEN_AI_REQUEST_MODEL = "gen_ai.request.model"
GEN_AI_RESPONSE_MODEL = "gen_ai.response.model"
GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons"
GEN_AI_AGENT_NAME = "gen_ai.agent.name"
GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id"
GEN_AI_WORKFLOW_NAME = "gen_ai.workflow.name"
ERROR_TYPE = "error.type"
INVOKE_AGENT = "invoke_agent"
INVOKE_WORKFLOW = "invoke_workflow"

#: CRUMB's provider names that the conventions spell otherwise (GenAiProviderNameValues); others pass as they are
PROVIDER_NAMES = {"google": "gcp.gen_ai"}  # the Gemini CLI: "any Google generative AI endpoint"
SCOPE = "crumb"
MAX_SPAN_EVENTS = 128  # the SDK's default limit of events per span
MAX_TEXT = 1000

AttrValue = str | bool | int | float | list[str]
SpanKind = Literal["internal", "client"]
StatusCode = Literal["unset", "ok", "error"]
#: OTLP's enum values (opentelemetry/proto/trace/v1/trace.proto)
KIND_NUMBER = {"internal": 1, "client": 3}
STATUS_NUMBER = {"unset": 0, "ok": 1, "error": 2}


@dataclass(frozen=True)
class SpanEvent:
    name: str
    time_ns: int
    attributes: dict[str, AttrValue] = field(default_factory=dict)


@dataclass(frozen=True)
class SpanRecord:
    """One finished span, ids in hex (32 and 16 digits) as OTLP/JSON writes them."""

    name: str
    trace_id: str
    span_id: str
    parent_id: str | None
    start_ns: int
    end_ns: int
    attributes: dict[str, AttrValue]
    events: tuple[SpanEvent, ...] = ()
    kind: SpanKind = "internal"
    status: StatusCode = "unset"
    status_message: str = ""


def trace_id(session: str) -> str:
    return hashlib.sha256(f"crumb-trace\0{session}".encode()).hexdigest()[:32]


def span_id(event_id: str) -> str:
    return hashlib.sha256(f"crumb-span\0{event_id}".encode()).hexdigest()[:16]


def ts_ns(ts: str) -> int:
    """An event's `YYYY-MM-DDTHH:MM:SS.ffffffZ` as Unix nanoseconds, exactly (no float on the way)."""
    when = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    return calendar.timegm(when.utctimetuple()) * 1_000_000_000 + when.microsecond * 1000


def _text(value: Any) -> str:
    return " ".join(str(value).split())[:MAX_TEXT]


def _provider(name: Any) -> str | None:
    return PROVIDER_NAMES.get(str(name), str(name)) if name else None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _count(value: Any) -> int | None:
    """A usage count the event recorded, or None when it recorded none (never a guessed 0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass
class _Run:
    started: Mapping[str, Any]  # the effect.started event
    start_ns: int
    actor: str
    binding: Mapping[str, Any]
    progress: list[SpanEvent] = field(default_factory=list)


@dataclass
class _Totals:
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    counted: bool = False

    def add(self, meta: Mapping[str, Any]) -> None:
        for name in ("tokens_in", "tokens_out"):
            count = _count(meta.get(name))
            if count is not None:
                setattr(self, name, getattr(self, name) + count)
                self.counted = True
        cost = meta.get("cost_usd")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            self.cost_usd += float(cost)
            self.counted = True


class SpanBuilder:
    """Follows one session's events in seq order; `feed` returns the spans each event finishes."""

    def __init__(self, session: str) -> None:
        self.session = session
        self.trace = trace_id(session)
        self.root: str | None = None  # the session span's id, from the first event's
        self.root_start = 0
        self.last_ns = 0
        self.pitch = ""
        self.preset: str | None = None
        self.rounds = 0
        self.done = False
        self.issued: dict[str, tuple[Effect, int]] = {}  # effect id → the effect and when it was issued
        self.runs: dict[str, _Run] = {}  # effect id → the run in progress
        self.checked: set[str] = set()  # QA checks whose result came
        self.totals = _Totals()

    def _attrs(self, extra: Mapping[str, AttrValue | None]) -> dict[str, AttrValue]:
        """The session's ids, then `extra` without what the transcript did not record (None)."""
        base: dict[str, AttrValue] = {GEN_AI_CONVERSATION_ID: self.session, "crumb.session.id": self.session}
        base.update({k: v for k, v in extra.items() if v is not None})
        return base

    def feed(self, event: Mapping[str, Any], effects: Sequence[Effect] = ()) -> list[SpanRecord]:
        """The spans `event` ends. `effects`: what the reducer issued for it (a run's binding, a QA check's
        start); `spans_of` passes them, the daemon passes those it got from its own reduction."""
        now = ts_ns(str(event["ts"]))
        self.last_ns = max(self.last_ns, now)
        if self.root is None:
            self.root = span_id(str(event["id"]))
            self.root_start = now
        for effect in effects:
            if isinstance(effect, RunActor | QACheck):
                self.issued[effect.id] = (effect, now)
        kind = str(event.get("kind"))
        data, meta = _mapping(event.get("data")), _mapping(event.get("meta"))
        effect_id = event.get("effect")
        out: list[SpanRecord] = []
        if kind == "session.start":
            self.preset = str(data.get("preset")) if data.get("preset") else None
        elif kind == "goal" and not self.pitch:
            self.pitch = _text(data.get("pitch", ""))
        elif kind == "build":
            self.rounds += 1
        if kind in ("spec", "research.plan", "research.evidence", "build", "judge.score", "effect.failed"):
            self.totals.add(meta)
        if kind == "effect.started" and data.get("kind") == "run_actor" and isinstance(effect_id, str):
            interrupted = self.runs.pop(effect_id, None)
            if interrupted is not None:  # the daemon restarted mid-run and ran it again
                out.append(self._run_span(interrupted, now, None, "interrupted"))
            issued = self.issued.pop(effect_id, None)  # popped: the run holds what it needs of it
            binding = issued[0].binding if issued is not None and isinstance(issued[0], RunActor) else \
                interrupted.binding if interrupted is not None else {}
            self.runs[effect_id] = _Run(started=event, start_ns=now, actor=str(data.get("actor")),
                                        binding=dict(binding))
        elif kind == "progress" and isinstance(effect_id, str) and effect_id in self.runs:
            run = self.runs[effect_id]
            if len(run.progress) < MAX_SPAN_EVENTS:
                run.progress.append(SpanEvent("progress", now, {"crumb.message": _text(data.get("message", "")),
                                                                **({"crumb.tool": str(data["tool"])} if data.get("tool") else {})}))
        elif isinstance(effect_id, str) and effect_id in self.runs and \
                kind in RUN_CLOSES.get(self.runs[effect_id].actor, ()):
            run = self.runs.pop(effect_id)
            out.append(self._run_span(run, now, event, "failed" if kind == "effect.failed" else "result"))
        elif (kind == "qa.result" or (kind == "effect.failed" and data.get("kind") == "qa_check")) and \
                isinstance(effect_id, str) and effect_id not in self.checked:
            # a QA check ends in its result, or in effect.failed when QA could not run at all (no browser);
            # a second result for the same check is ignored, as the reducer does
            self.checked.add(effect_id)
            out.append(self._qa_span(event, now))
        elif kind == "done" and not self.done:
            self.done = True
            for run in self.runs.values():
                out.append(self._run_span(run, now, None, "unfinished"))
            self.runs.clear()
            self.issued.clear()
            out.append(self._session_span(now, event))
        return out

    def still_open(self) -> list[SpanRecord]:
        """The spans not finished yet, ended at the last event's time and marked `crumb.open` (an export
        of a session still running, or stopped without `done`)."""
        out = [self._run_span(run, self.last_ns, None, "open") for run in self.runs.values()]
        if self.root is not None and not self.done:
            out.append(self._session_span(self.last_ns, None))
        return out

    # ------------------------------------------------------------ the three spans

    def _run_span(self, run: _Run, end_ns: int, result: Mapping[str, Any] | None, outcome: str) -> SpanRecord:
        started = run.started
        sdata = started.get("data") or {}
        meta: Mapping[str, Any] = (result.get("meta") or {}) if result is not None else {}
        rdata: Mapping[str, Any] = (result.get("data") or {}) if result is not None else {}
        binding = run.binding
        cost = meta.get("cost_usd")
        attrs = self._attrs({
            GEN_AI_OPERATION_NAME: INVOKE_AGENT,
            GEN_AI_AGENT_NAME: run.actor,
            GEN_AI_PROVIDER_NAME: _provider(meta.get("provider") or binding.get("provider")),
            GEN_AI_REQUEST_MODEL: binding.get("model") or None,
            GEN_AI_RESPONSE_MODEL: meta.get("model") or None,
            GEN_AI_USAGE_INPUT_TOKENS: _count(meta.get("tokens_in")),
            GEN_AI_USAGE_OUTPUT_TOKENS: _count(meta.get("tokens_out")),
            GEN_AI_RESPONSE_FINISH_REASONS: [str(meta["finish_reason"])] if meta.get("finish_reason") else None,
            "crumb.harness": str(meta.get("harness") or sdata.get("adapter") or binding.get("harness") or "") or None,
            "crumb.cost_usd": float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else None,
            "crumb.cost_estimated": bool(meta.get("cost_estimated")) if cost is not None else None,
            "crumb.duration_ms": _count(meta.get("duration_ms")),
            "crumb.effect.id": str(started.get("effect")),
            "crumb.event.id": str(started.get("id")),
            "crumb.attempt": _count(sdata.get("attempt")),
            "crumb.log": str(sdata["log"]) if sdata.get("log") else None,
            "crumb.outcome": outcome,
            "crumb.open": True if outcome == "open" else None,
            "crumb.result.kind": str(result.get("kind")) if result is not None else None,
            "crumb.result.event.id": str(result.get("id")) if result is not None else None,
        })
        if result is not None and result.get("kind") == "judge.score":
            attrs["crumb.judge.verdict"] = str(rdata.get("verdict"))
            if isinstance(rdata.get("total"), int | float):
                attrs["crumb.judge.total"] = float(rdata["total"])
        status: StatusCode = "unset"
        message = ""
        if outcome == "result":
            status = "ok"
        elif outcome == "failed":
            status, message = "error", _text(rdata.get("error") or "the run failed")
            attrs[ERROR_TYPE] = "effect.failed"
        elif outcome == "interrupted":
            status, message = "error", "the daemon stopped during the run; it ran again"
            attrs[ERROR_TYPE] = "interrupted"
        return SpanRecord(name=f"{INVOKE_AGENT} {run.actor}", trace_id=self.trace, span_id=span_id(str(started["id"])),
                          parent_id=self.root, start_ns=run.start_ns, end_ns=max(end_ns, run.start_ns),
                          attributes=attrs, events=tuple(run.progress), status=status, status_message=message)

    def _qa_span(self, event: Mapping[str, Any], end_ns: int) -> SpanRecord:
        data: Mapping[str, Any] = event.get("data") or {}
        meta: Mapping[str, Any] = event.get("meta") or {}
        effect_id = str(event.get("effect"))
        issued = self.issued.pop(effect_id, None)
        check = issued[0] if issued is not None and isinstance(issued[0], QACheck) else None
        failed = event.get("kind") == "effect.failed"
        took = _count(meta.get("duration_ms")) or _count(data.get("duration_ms"))
        start = issued[1] if issued is not None else end_ns - (took or 0) * 1_000_000
        probes = [p for p in data.get("probes") or [] if isinstance(p, Mapping)]
        findings = [f for f in data.get("findings") or [] if isinstance(f, Mapping)]
        attrs = self._attrs({
            "crumb.effect.id": effect_id,
            "crumb.event.id": str(event.get("id")),
            "crumb.build.id": str(data.get("build") or event.get("parent") or (check.build if check else "")) or None,
            "crumb.outcome": "failed" if failed else "result",
            "crumb.attempt": check.attempt if check is not None else None,
            ERROR_TYPE: "effect.failed" if failed else None,
            "crumb.harness": str(meta.get("harness")) if meta.get("harness") else None,
            "crumb.duration_ms": took,
            "crumb.qa.ok": bool(data.get("ok")),
            "crumb.qa.loaded": None if failed else bool(data.get("loaded")),
            "crumb.qa.probes": None if failed else len(probes),
            "crumb.qa.probes_failed": None if failed else sum(1 for p in probes if not p.get("ok")),
            "crumb.qa.fps": float(data["fps"]) if isinstance(data.get("fps"), int | float) else None,
            "crumb.qa.findings": [str(f.get("code")) for f in findings] or None,
            "crumb.qa.error": _text(data["error"]) if data.get("error") else None,
        })
        for name in ("canvas_nonblank", "canvas_animates", "input_responds"):
            if isinstance(data.get(name), bool):
                attrs[f"crumb.qa.{name}"] = data[name]
        events = tuple(SpanEvent("qa.probe", end_ns, {"crumb.probe.id": str(p.get("id")), "crumb.probe.ok": bool(p.get("ok")),
                                                      "crumb.probe.detail": _text(p.get("detail", ""))})
                       for p in probes[:MAX_SPAN_EVENTS])
        ok = bool(data.get("ok"))
        message = "" if ok else _text(data.get("error") or "; ".join(str(f.get("message")) for f in findings[:2])
                                     or "QA failed")
        return SpanRecord(name="qa_check", trace_id=self.trace, span_id=span_id(str(event["id"])), parent_id=self.root,
                          start_ns=min(start, end_ns), end_ns=end_ns, attributes=attrs, events=events,
                          status="ok" if ok else "error", status_message=message)

    def _session_span(self, end_ns: int, done: Mapping[str, Any] | None) -> SpanRecord:
        data: Mapping[str, Any] = (done.get("data") or {}) if done is not None else {}
        reason = str(data.get("reason")) if done is not None else None
        counted = self.totals.counted
        attrs = self._attrs({
            GEN_AI_OPERATION_NAME: INVOKE_WORKFLOW,
            GEN_AI_WORKFLOW_NAME: SCOPE,
            "crumb.pitch": self.pitch or None,
            "crumb.preset": self.preset,
            "crumb.rounds": self.rounds,
            "crumb.tokens_in": self.totals.tokens_in if counted else None,
            "crumb.tokens_out": self.totals.tokens_out if counted else None,
            "crumb.cost_usd": round(self.totals.cost_usd, 6) if counted else None,
            "crumb.done.reason": reason,
            "crumb.done.event.id": str(done.get("id")) if done is not None else None,
            "crumb.verdict": str(data["verdict"]) if data.get("verdict") else None,
            "crumb.fallback": bool(data.get("fallback")) if done is not None else None,
            "crumb.open": True if done is None else None,
        })
        status: StatusCode = "unset"
        message = ""
        if reason in ("pass", "approved"):
            status = "ok"
        elif reason in ("error", "circuit_open", "budget"):
            status, message = "error", _text(data.get("detail") or reason)
            attrs[ERROR_TYPE] = reason
        assert self.root is not None
        return SpanRecord(name=f"{INVOKE_WORKFLOW} {SCOPE}", trace_id=self.trace, span_id=self.root, parent_id=None,
                          start_ns=self.root_start, end_ns=max(end_ns, self.root_start), attributes=attrs,
                          status=status, status_message=message)


def spans_of(session: str, events: Iterable[Mapping[str, Any]]) -> list[SpanRecord]:
    """Every span of a transcript, replayed with the reducer (for the effects it issued): the session span
    last. Spans still open at the end are included, marked `crumb.open`."""
    state = initial_state(session)
    builder = SpanBuilder(session)
    out: list[SpanRecord] = []
    for event in events:
        effects = apply(state, dict(event))
        out.extend(builder.feed(event, effects))
    out.extend(builder.still_open())
    return out


# ---------------------------------------------------------------- OTLP/JSON


def _value(value: AttrValue) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}  # int64 is a string in protobuf's JSON mapping
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [{"stringValue": v} for v in value]}}
    return {"stringValue": value}


def _attributes(attrs: Mapping[str, AttrValue]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in attrs.items()]


def span_json(span: SpanRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "traceId": span.trace_id, "spanId": span.span_id, "name": span.name, "kind": KIND_NUMBER[span.kind],
        "startTimeUnixNano": str(span.start_ns), "endTimeUnixNano": str(span.end_ns),
        "attributes": _attributes(span.attributes),
    }
    if span.parent_id:
        out["parentSpanId"] = span.parent_id
    if span.events:
        out["events"] = [{"timeUnixNano": str(e.time_ns), "name": e.name, "attributes": _attributes(e.attributes)}
                         for e in span.events]
    status: dict[str, Any] = {}
    if span.status != "unset":
        status["code"] = STATUS_NUMBER[span.status]
    if span.status_message:
        status["message"] = span.status_message
    out["status"] = status
    return out


def otlp_json(spans: Sequence[SpanRecord], *, version: str) -> dict[str, Any]:
    """An OTLP ExportTraceServiceRequest in OTLP/JSON (protobuf's JSON mapping, ids in hex, times as
    strings of Unix nanoseconds): what a collector's /v1/traces takes and what `crumb export --otel` writes."""
    resource = {"service.name": SCOPE, "service.version": version}
    return {"resourceSpans": [{
        "resource": {"attributes": _attributes(resource)},
        "scopeSpans": [{"scope": {"name": SCOPE, "version": version}, "spans": [span_json(s) for s in spans]}],
    }]}
