"""The daemon's live OpenTelemetry stream (`[settings.otel] endpoint`): each session's spans sent through the
OpenTelemetry SDK's OTLP/HTTP exporter as the daemon reduces the events that end them.

An observer beside the loop, never part of it: the spans come from the pure mapping `crumb export --otel`
uses (crumb/export/otel.py), with the ids and times the transcript gives; the SDK's batch processor sends
them from a thread of its own, so a slow or absent collector never holds up a session. When delivery
fails the daemon says so in one line (and once more when it works again), then goes on; the transcript
keeps everything, so `crumb export --otel SESSION` can send a session again at any time.

The SDK is imported only here, and only when an endpoint is set (the `otel` extra).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from crumb import __version__
from crumb.export.otel import SCOPE, SpanBuilder, SpanRecord
from crumb.reducer.effects import Effect

log = logging.getLogger("crumb.otel")  # warnings: printed by `crumb watch` also with --quiet

TRACES_PATH = "/v1/traces"
EXPORT_TIMEOUT_S = 5.0
CLOSE_TIMEOUT_S = 3.0
INSTALL_HINT = "install it with: pip install 'crumb-games[otel]' (or pipx inject crumb-games opentelemetry-sdk " \
               "opentelemetry-exporter-otlp-proto-http)"


def traces_url(endpoint: str) -> str:
    """The collector's traces URL: a base URL (`http://127.0.0.1:4318`) gets OTLP's `/v1/traces`, as
    OTEL_EXPORTER_OTLP_ENDPOINT does; a URL with a path is used as it is."""
    endpoint = endpoint.strip()
    return endpoint.rstrip("/") + TRACES_PATH if urlsplit(endpoint).path in ("", "/") else endpoint


def check_endpoint(endpoint: str) -> str | None:
    """Why an endpoint cannot be used (one line naming the fix), or None."""
    parts = urlsplit(endpoint.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return (f"[settings.otel] endpoint {endpoint!r} is not an http(s) URL: write the collector's OTLP/HTTP "
                "address, e.g. endpoint = \"http://127.0.0.1:4318\"")
    return None


class OtelStream:
    """Spans per session from the events the daemon reduces; `feed` is called on the daemon's loop."""

    def __init__(self, exporter: Any, *, where: str, batch: bool = True) -> None:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

        self._ids = _preset_ids()
        self.provider = TracerProvider(resource=Resource.create({"service.name": SCOPE, "service.version": __version__}),
                                       id_generator=self._ids, shutdown_on_exit=False)  # close() bounds it
        self.reporting = _reporting_exporter(exporter, where)
        self.provider.add_span_processor(BatchSpanProcessor(self.reporting, schedule_delay_millis=500) if batch
                                         else SimpleSpanProcessor(self.reporting))
        self.tracer = self.provider.get_tracer(SCOPE, __version__)
        self.builders: dict[str, SpanBuilder] = {}
        self._broken = False

    def feed(self, session: str, event: Mapping[str, Any], effects: Sequence[Effect], *, live: bool) -> None:
        """Follow one reduced event; send the spans it ends when `live` (not while the daemon replays a
        session at start-up: those events were there before it ran). Never raises."""
        try:
            builder = self.builders.get(session)
            if builder is None:
                builder = self.builders[session] = SpanBuilder(session)
            spans = builder.feed(event, effects)
            if live:
                for span in spans:
                    self._send(span)
        except Exception as err:  # an observer: whatever goes wrong here, the session goes on
            if not self._broken:
                self._broken = True
                log.warning(f"otel: a span could not be made ({type(err).__name__}: {err}); the daemon goes on")

    def _send(self, record: SpanRecord) -> None:
        from opentelemetry import trace
        from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, Status, StatusCode, TraceFlags

        context = None
        if record.parent_id is not None:
            parent = SpanContext(int(record.trace_id, 16), int(record.parent_id, 16), is_remote=False,
                                 trace_flags=TraceFlags(TraceFlags.SAMPLED))
            context = trace.set_span_in_context(NonRecordingSpan(parent))
        with self._ids.preset(int(record.trace_id, 16), int(record.span_id, 16)):
            span = self.tracer.start_span(record.name, context=context, start_time=record.start_ns,
                                          kind=SpanKind.CLIENT if record.kind == "client" else SpanKind.INTERNAL,
                                          attributes=dict(record.attributes))
        for ev in record.events:
            span.add_event(ev.name, attributes=dict(ev.attributes), timestamp=ev.time_ns)
        if record.status != "unset":
            span.set_status(Status(StatusCode.OK if record.status == "ok" else StatusCode.ERROR,
                                   record.status_message or None))
        span.end(end_time=record.end_ns)

    def close(self) -> None:
        """Send what is queued, waiting at most CLOSE_TIMEOUT_S; not at all while deliveries fail (a
        collector that is down never holds up the daemon's stop)."""
        done = threading.Thread(target=self.provider.shutdown, name="crumb-otel-close", daemon=True)
        done.start()
        done.join(0 if self.reporting.failing else CLOSE_TIMEOUT_S)


def _preset_ids() -> Any:
    """The SDK's id generator, told the ids to use: the transcript's, so the live spans are the export's."""
    from opentelemetry.sdk.trace.id_generator import IdGenerator

    class PresetIds(IdGenerator):
        def __init__(self) -> None:
            self.lock = threading.Lock()
            self.trace = self.span = 0

        @contextmanager
        def preset(self, trace_id: int, span_id: int) -> Iterator[None]:
            with self.lock:
                self.trace, self.span = trace_id, span_id
                try:
                    yield
                finally:
                    self.trace = self.span = 0

        def generate_trace_id(self) -> int:
            return self.trace

        def generate_span_id(self) -> int:
            return self.span

        def is_trace_id_random(self) -> bool:
            return False  # derived from the session id (W3C's random flag stays off)

    return PresetIds()


def _reporting_exporter(inner: Any, where: str) -> Any:
    """`inner` wrapped so that failed deliveries are one line from the daemon, not the SDK's log per batch."""
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    class Reporting(SpanExporter):
        def __init__(self) -> None:
            self.failing = False

        def export(self, spans: Any) -> SpanExportResult:
            try:
                result = inner.export(spans)
            except Exception:
                result = SpanExportResult.FAILURE
            if result is SpanExportResult.FAILURE and not self.failing:
                self.failing = True
                log.warning(f"otel: spans not delivered to {where} (is the collector running?); the daemon goes on "
                    "without them, and `crumb export --otel SESSION` writes any session's spans from its transcript")
            elif result is SpanExportResult.SUCCESS and self.failing:
                self.failing = False
                log.warning(f"otel: delivering spans to {where} again")
            return result

        def shutdown(self) -> None:
            inner.shutdown()

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return bool(inner.force_flush(timeout_millis))

    return Reporting()


def start(endpoint: str, say: Callable[[str], None]) -> OtelStream | None:
    """The stream to `endpoint` through the SDK's OTLP/HTTP exporter, or None (said in one line) when the
    endpoint is not a URL or the `otel` extra is not installed: the daemon runs on without it."""
    if not endpoint.strip():
        return None
    problem = check_endpoint(endpoint)
    if problem is not None:
        log.warning(f"otel: {problem}; not streaming")
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        log.warning(f"otel: [settings.otel] endpoint is set but the OpenTelemetry SDK is not installed: {INSTALL_HINT}; "
            "not streaming")
        return None
    for name in ("opentelemetry.exporter.otlp", "opentelemetry.sdk.trace.export"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # the stream's own line says it, once
    url = traces_url(endpoint)
    stream = OtelStream(OTLPSpanExporter(endpoint=url, timeout=EXPORT_TIMEOUT_S), where=url)
    say(f"otel: streaming spans to {url}")
    return stream
