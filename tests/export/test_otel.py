"""`crumb export --otel`: a real session's spans as OTLP/JSON, read back with opentelemetry-proto's
ExportTraceServiceRequest; the GenAI names are the semantic-conventions package's; usage the transcript
did not record is left out, never written as zero."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as semconv
from opentelemetry.semconv.attributes import error_attributes

from crumb.export import otel
from crumb.reducer.effects import RunActor
from crumb.store import paths
from crumb.store.reader import read_events
from tests.export.conftest import Made, crumb

ROLE_KINDS = {"planner": "spec", "builder": "build", "verifier": "judge.score"}


def read_otlp(path: Path) -> ExportTraceServiceRequest:
    """An OTLP/JSON file as a collector reads it: ids are hex in OTLP/JSON (bytes are base64 in protobuf's
    plain JSON mapping), then protobuf's json_format into the request message."""
    doc = json.loads(path.read_text())
    for rs in doc["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for span in ss["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.Parse(json.dumps(doc), ExportTraceServiceRequest())


def attrs(span: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kv in span.attributes:
        which = kv.value.WhichOneof("value")
        value = getattr(kv.value, which)
        out[kv.key] = list(v.string_value for v in value.values) if which == "array_value" else value
    return out


def test_the_names_are_the_semantic_conventions_packages() -> None:
    assert otel.GEN_AI_OPERATION_NAME == semconv.GEN_AI_OPERATION_NAME
    assert otel.GEN_AI_PROVIDER_NAME == semconv.GEN_AI_PROVIDER_NAME
    assert otel.GEN_AI_REQUEST_MODEL == semconv.GEN_AI_REQUEST_MODEL
    assert otel.GEN_AI_RESPONSE_MODEL == semconv.GEN_AI_RESPONSE_MODEL
    assert otel.GEN_AI_USAGE_INPUT_TOKENS == semconv.GEN_AI_USAGE_INPUT_TOKENS
    assert otel.GEN_AI_USAGE_OUTPUT_TOKENS == semconv.GEN_AI_USAGE_OUTPUT_TOKENS
    assert otel.GEN_AI_RESPONSE_FINISH_REASONS == semconv.GEN_AI_RESPONSE_FINISH_REASONS
    assert otel.GEN_AI_AGENT_NAME == semconv.GEN_AI_AGENT_NAME
    assert otel.GEN_AI_CONVERSATION_ID == semconv.GEN_AI_CONVERSATION_ID
    assert otel.GEN_AI_WORKFLOW_NAME == semconv.GEN_AI_WORKFLOW_NAME
    assert otel.ERROR_TYPE == error_attributes.ERROR_TYPE
    values = {v.value for v in semconv.GenAiOperationNameValues}
    assert {otel.INVOKE_AGENT, otel.INVOKE_WORKFLOW} <= values
    providers = {v.value for v in semconv.GenAiProviderNameValues}
    assert set(otel.PROVIDER_NAMES.values()) <= providers and {"anthropic", "openai"} <= providers  # claude, codex


@pytest.mark.browser
def test_a_real_session_exports_as_an_otlp_request_with_its_ids_times_and_usage(made: Made, tmp_path: Path) -> None:
    transcript = paths.transcript_path(made.root, made.session)
    before = (transcript.read_bytes(), sorted(p.name for p in transcript.parent.rglob("*")))
    out = tmp_path / "spans.json"
    run = crumb("--root", str(made.root), "export", made.session[-6:], "--otel", "-o", str(out), "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["spans"] == 5
    assert (transcript.read_bytes(), sorted(p.name for p in transcript.parent.rglob("*"))) == before  # ran nothing

    request = read_otlp(out)
    (resource,) = request.resource_spans
    assert attrs(resource.resource)["service.name"] == "crumb"
    (scope,) = resource.scope_spans
    spans = {s.name: s for s in scope.spans}
    assert sorted(spans) == ["invoke_agent builder", "invoke_agent planner", "invoke_agent verifier",
                             "invoke_workflow crumb", "qa_check"]
    events = list(read_events(transcript))
    root = spans["invoke_workflow crumb"]
    assert {s.trace_id for s in scope.spans} == {bytes.fromhex(otel.trace_id(made.session))}
    assert root.span_id == bytes.fromhex(otel.span_id(events[0]["id"])) and root.parent_span_id == b""
    assert all(s.parent_span_id == root.span_id for s in scope.spans if s is not root)
    done = next(e for e in events if e["kind"] == "done")
    assert (root.start_time_unix_nano, root.end_time_unix_nano) == (otel.ts_ns(events[0]["ts"]), otel.ts_ns(done["ts"]))
    top = attrs(root)
    assert top["gen_ai.operation.name"] == "invoke_workflow" and top["gen_ai.conversation.id"] == made.session
    assert top["crumb.done.reason"] == "pass" and top["crumb.verdict"] == "PASS" and top["crumb.pitch"] == "60-second snake"
    assert root.status.code == root.status.STATUS_CODE_OK

    for role, kind in ROLE_KINDS.items():
        span = spans[f"invoke_agent {role}"]
        started = next(e for e in events if e["kind"] == "effect.started" and e["data"]["actor"] == role)
        result = next(e for e in events if e["kind"] == kind)
        assert span.span_id == bytes.fromhex(otel.span_id(started["id"]))
        assert (span.start_time_unix_nano, span.end_time_unix_nano) == (otel.ts_ns(started["ts"]), otel.ts_ns(result["ts"]))
        a = attrs(span)
        assert a["gen_ai.operation.name"] == "invoke_agent" and a["gen_ai.agent.name"] == role
        assert a["gen_ai.provider.name"] == result["meta"]["provider"] == "crumb"
        assert a["gen_ai.response.model"] == result["meta"]["model"]
        assert a["gen_ai.usage.input_tokens"] == result["meta"]["tokens_in"]  # the embedded studio's true 0
        assert a["crumb.effect.id"] == started["effect"] and a["crumb.result.event.id"] == result["id"]
        assert a["crumb.harness"] == "local" and a["crumb.outcome"] == "result"
        assert "gen_ai.request.model" not in a  # the local binding names no model: none is claimed
        assert [e.name for e in span.events] == ["progress"] * sum(
            1 for e in events if e["kind"] == "progress" and e["effect"] == started["effect"])
    assert attrs(spans["invoke_agent verifier"])["crumb.judge.verdict"] == "PASS"

    qa = spans["qa_check"]
    result = next(e for e in events if e["kind"] == "qa.result")
    build = next(e for e in events if e["kind"] == "build")
    assert (qa.start_time_unix_nano, qa.end_time_unix_nano) == (otel.ts_ns(build["ts"]), otel.ts_ns(result["ts"]))
    a = attrs(qa)
    assert a["crumb.qa.ok"] is True and a["crumb.build.id"] == build["id"] and a["crumb.event.id"] == result["id"]
    assert a["crumb.qa.probes"] == len(result["data"]["probes"]) > 0 and a["crumb.qa.probes_failed"] == 0
    assert [(e.name, attrs(e)["crumb.probe.id"]) for e in qa.events] == [("qa.probe", p["id"]) for p in result["data"]["probes"]]

    again = crumb("--root", str(made.root), "export", made.session, "--otel", "-o", str(out))
    assert again.returncode == 1 and "--force" in again.stderr  # never over a file unless asked
    forced = crumb("--root", str(made.root), "export", made.session, "--otel", "-o", str(out), "--force")
    assert forced.returncode == 0 and read_otlp(out) == request  # the same transcript, the same spans


# ---------------------------------------------------------------- the pure mapping on usage a harness reports


def ev(seq: int, kind: str, who: str, data: dict[str, Any], *, effect: str | None = None,
       meta: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"v": 1, "seq": seq, "id": f"01KDVD0000000000000000{seq:04d}", "ts": f"2026-12-01T10:00:{seq:02d}.000000Z",
            "session": "S1", "kind": kind, "from": who, "effect": effect, "data": data, "meta": meta or {}}


def run_actor(effect: str, actor: str, harness: str, provider: str, model: str) -> RunActor:
    return RunActor(id=effect, actor=actor, attempt=1, index=0, input={}, closes=("spec",),
                    binding={"harness": harness, "provider": provider, "model": model})


def test_usage_a_harness_reports_maps_and_usage_it_does_not_is_left_out() -> None:
    claude = run_actor("E1.1", "planner", "claude", "anthropic", "claude-sonnet-4-5")
    codex = run_actor("E2.1", "builder", "codex", "openai", "gpt-5.5")
    builder = otel.SpanBuilder("S1")
    got = []
    for event, effects in [
        (ev(1, "session.start", "daemon", {"preset": "cross"}), ()),
        (ev(2, "goal", "user", {"pitch": "snake"}), (claude,)),
        (ev(3, "effect.started", "dispatcher", {"kind": "run_actor", "actor": "planner", "adapter": "claude"},
            effect="E1.1"), ()),
        (ev(4, "spec", "planner", {}, effect="E1.1", meta={
            "harness": "claude", "provider": "anthropic", "model": "claude-sonnet-4-5-20250929", "tokens_in": 1200,
            "tokens_out": 340, "cost_usd": 0.0087, "cost_estimated": True, "finish_reason": "end_turn"}), (codex,)),
        (ev(5, "effect.started", "dispatcher", {"kind": "run_actor", "actor": "builder", "adapter": "codex"},
            effect="E2.1"), ()),
        (ev(6, "effect.failed", "dispatcher", {"kind": "run_actor", "actor": "builder", "error": "401 Unauthorized"},
            effect="E2.1", meta={"harness": "codex"}), ()),
    ]:
        got += builder.feed(event, effects)
    planner, failed = got
    a = planner.attributes
    assert (a["gen_ai.provider.name"], a["gen_ai.request.model"], a["gen_ai.response.model"]) == (
        "anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929")
    assert (a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"], a["crumb.cost_usd"]) == (1200, 340, 0.0087)
    assert a["crumb.cost_estimated"] is True and planner.status == "ok"
    assert a["gen_ai.response.finish_reasons"] == ["end_turn"]
    b = failed.attributes
    assert not any(k.startswith("gen_ai.usage.") or k == "crumb.cost_usd" for k in b), b  # absent, not 0
    assert (b["gen_ai.provider.name"], b["gen_ai.request.model"], b["error.type"]) == ("openai", "gpt-5.5", "effect.failed")
    assert "gen_ai.response.model" not in b and "gen_ai.response.finish_reasons" not in b
    assert failed.status == "error" and failed.status_message == "401 Unauthorized"
    (session,) = builder.still_open()  # no done yet: the session span is open, ended at the last event
    assert session.attributes["crumb.open"] is True and session.end_ns == otel.ts_ns("2026-12-01T10:00:06.000000Z")
    assert (session.attributes["crumb.tokens_in"], session.attributes["crumb.tokens_out"]) == (1200, 340)


def test_a_run_the_daemon_ran_again_or_done_cut_short_ends_where_the_transcript_says() -> None:
    verifier = run_actor("E1.1", "verifier", "claude", "anthropic", "claude-opus-4-1")
    builder = otel.SpanBuilder("S1")
    feed = [
        (ev(1, "session.start", "daemon", {}), (verifier,)),
        (ev(2, "effect.started", "dispatcher", {"kind": "run_actor", "actor": "verifier", "attempt": 1}, effect="E1.1"), ()),
        (ev(3, "effect.started", "dispatcher", {"kind": "run_actor", "actor": "verifier", "attempt": 1}, effect="E1.1"), ()),
    ]
    got = [span for event, effects in feed for span in builder.feed(event, effects)]
    (interrupted,) = got  # the daemon restarted and dispatched the pending run again
    assert interrupted.attributes["crumb.outcome"] == "interrupted" and interrupted.status == "error"
    assert interrupted.end_ns == otel.ts_ns(feed[2][0]["ts"])
    (still,) = [s for s in builder.still_open() if s.name == "invoke_agent verifier"]
    assert still.attributes["crumb.open"] is True and still.attributes["gen_ai.request.model"] == "claude-opus-4-1"
    run, session = builder.feed(ev(4, "done", "dispatcher", {"reason": "cancelled"}))
    assert run.attributes["crumb.outcome"] == "unfinished" and run.end_ns == session.end_ns
    assert session.status == "unset" and session.attributes["crumb.done.reason"] == "cancelled"
    assert "crumb.open" not in session.attributes and builder.still_open() == []


def test_a_qa_check_that_could_not_run_is_a_failed_qa_span() -> None:
    from crumb.reducer.effects import QACheck

    check = QACheck(id="B3.1", build="01KDVD00000000000000000003", manifest={}, criteria=[], controls=[])
    builder = otel.SpanBuilder("S1")
    builder.feed(ev(1, "session.start", "daemon", {}))
    builder.feed(ev(3, "build", "builder", {}), (check,))
    (span,) = builder.feed(ev(5, "effect.failed", "dispatcher", {
        "effect_id": "B3.1", "kind": "qa_check", "actor": "qa", "adapter": "playwright", "attempt": 1,
        "error": "no Chromium found: apt install chromium-headless-shell"}, effect="B3.1", meta={"harness": "playwright"}))
    a = span.attributes
    assert span.name == "qa_check" and span.status == "error" and "no Chromium" in span.status_message
    assert (span.start_ns, span.end_ns) == (otel.ts_ns(ev(3, "build", "", {})["ts"]), otel.ts_ns(ev(5, "x", "", {})["ts"]))
    assert a["crumb.outcome"] == "failed" and a["error.type"] == "effect.failed" and a["crumb.qa.ok"] is False
    assert a["crumb.build.id"] == check.build and "crumb.qa.probes" not in a  # QA never looked at the game
