"""The daemon's live OpenTelemetry stream: the spans a real session makes go through the SDK (its in-memory
exporter, and its OTLP/HTTP exporter to a real receiver on loopback fed by a real `crumb watch`), and they
are the spans `crumb export --otel` writes from the transcript; a collector that is down costs one line."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from crumb.daemon.otel_stream import traces_url
from crumb.export import otel
from crumb.store import paths
from crumb.store.reader import read_events
from tests.daemon.conftest import RunningDaemon, crumb, start_watch, stop_watch, wait_done
from tests.export.test_otel import read_otlp
from tests.loopback import refusing_port
from tests.wait import wait_until

PITCH = "60-second snake"


def exported(root: Path, session: str, tmp_path: Path) -> dict[bytes, Any]:
    """`crumb export --otel`'s spans of the session, read back as protobuf, by span id."""
    out = tmp_path / f"{session}.json"
    run = crumb(root, "export", session, "--otel", "-o", str(out))
    assert run.returncode == 0, run.stderr
    return {s.span_id: s for rs in read_otlp(out).resource_spans for ss in rs.scope_spans for s in ss.spans}


def same(live: Any, export: Any) -> None:
    """A span as sent and as exported: the same ids, parentage, name, kind, times, attributes, events, status."""
    for field in ("trace_id", "span_id", "parent_span_id", "name", "kind", "start_time_unix_nano",
                  "end_time_unix_nano", "status"):
        assert getattr(live, field) == getattr(export, field), (field, live.name)
    assert list(live.attributes) == list(export.attributes), live.name
    assert list(live.events) == list(export.events), live.name


@pytest.mark.browser
def test_the_sdk_gets_the_spans_the_export_writes(root: Path, qa_runner: Any, tmp_path: Path) -> None:
    memory = InMemorySpanExporter()
    with RunningDaemon(root, qa_runner, span_exporter=memory):
        sid = crumb(root, "pitch", PITCH).stdout.strip()
        wait_done(root, sid, timeout=180)
        wait_until(lambda: any(s.name == "invoke_workflow crumb" for s in memory.get_finished_spans()), 30,
                   "the session span")
    finished = memory.get_finished_spans()
    assert sorted(s.name for s in finished) == ["invoke_agent builder", "invoke_agent planner", "invoke_agent verifier",
                                                "invoke_workflow crumb", "qa_check"]
    sent = {s.span_id: s for rs in encode_spans(finished).resource_spans for ss in rs.scope_spans for s in ss.spans}
    written = exported(root, sid, tmp_path)
    assert set(sent) == set(written)
    for span_id, span in sent.items():
        same(span, written[span_id])
    first = next(read_events(paths.transcript_path(root, sid)))
    root_span = next(s for s in finished if s.parent is None)
    assert root_span.context.span_id == int(otel.span_id(first["id"]), 16)
    assert root_span.context.trace_id == int(otel.trace_id(sid), 16)


class Receiver(BaseHTTPRequestHandler):
    """A collector's OTLP/HTTP traces endpoint: protobuf in, an empty ExportTraceServiceResponse out."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/v1/traces" and self.headers.get("Content-Type") == "application/x-protobuf":
            self.server.got.append(ExportTraceServiceRequest.FromString(body))  # type: ignore[attr-defined]
            reply, code = ExportTraceServiceResponse().SerializeToString(), 200
        else:
            reply, code = b"", 404
        self.send_response(code)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


@pytest.fixture
def collector() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    httpd.got = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def received(httpd: ThreadingHTTPServer) -> dict[bytes, Any]:
    return {s.span_id: s for req in list(httpd.got) for rs in req.resource_spans  # type: ignore[attr-defined]
            for ss in rs.scope_spans for s in ss.spans}


@pytest.mark.browser
def test_crumb_watch_streams_a_session_to_an_otlp_receiver(root: Path, collector: ThreadingHTTPServer,
                                                           tmp_path: Path) -> None:
    port = collector.server_address[1]
    (root / "crumb.toml").write_text(f'[settings.otel]\nendpoint = "http://127.0.0.1:{port}"\n')
    proc = start_watch(root)
    try:
        sid = crumb(root, "pitch", PITCH).stdout.strip()
        wait_done(root, sid, timeout=180)
        wait_until(lambda: len(received(collector)) >= 5, 60, "five spans at the receiver")
    finally:
        stop_watch(proc)
    err = proc.stderr.read() if proc.stderr else ""
    assert "not delivered" not in err, err
    got = received(collector)
    written = exported(root, sid, tmp_path)
    assert set(got) == set(written)  # each span once (by id), and only the session's
    for span_id, span in got.items():
        same(span, written[span_id])
    resource = collector.got[0].resource_spans[0].resource  # type: ignore[attr-defined]
    assert {kv.key: kv.value.string_value for kv in resource.attributes}["service.name"] == "crumb"


@pytest.mark.browser
def test_a_collector_that_is_down_costs_one_line_and_nothing_else(root: Path) -> None:
    with refusing_port() as port:
        (root / "crumb.toml").write_text(f'[settings.otel]\nendpoint = "http://127.0.0.1:{port}"\n')
        proc = start_watch(root)
        try:
            sid = crumb(root, "pitch", PITCH).stdout.strip()
            final = wait_done(root, sid, timeout=180)
        finally:
            stop_watch(proc)
    assert final.done["reason"] == "pass"
    assert proc.returncode == 0
    err = proc.stderr.read() if proc.stderr else ""
    lines = [line for line in err.splitlines() if "otel" in line]
    assert len(lines) == 1 and f"not delivered to http://127.0.0.1:{port}/v1/traces" in lines[0], err
    assert "crumb export --otel" in lines[0]


def test_an_endpoint_that_is_not_a_url_is_one_line_and_the_daemon_runs(root: Path) -> None:
    (root / "crumb.toml").write_text('[settings.otel]\nendpoint = "127.0.0.1:4318"\n')
    proc = start_watch(root)
    stop_watch(proc)
    err = proc.stderr.read() if proc.stderr else ""
    assert proc.returncode == 0 and "is not an http(s) URL" in err and 'endpoint = "http://127.0.0.1:4318"' in err, err


def test_the_traces_url_is_the_collectors_base_plus_the_otlp_path() -> None:
    assert traces_url("http://127.0.0.1:4318") == "http://127.0.0.1:4318/v1/traces"
    assert traces_url("http://127.0.0.1:4318/") == "http://127.0.0.1:4318/v1/traces"
    assert traces_url("https://otel.example/custom/traces") == "https://otel.example/custom/traces"


def test_an_endpoint_without_the_sdk_installed_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    from crumb.daemon import otel_stream

    monkeypatch.setitem(sys.modules, "opentelemetry.exporter.otlp.proto.http.trace_exporter", None)  # not installed
    said: list[str] = []
    with caplog.at_level("WARNING", logger="crumb.otel"):
        assert otel_stream.start("http://127.0.0.1:4318", said.append) is None
    assert said == [] and len(caplog.records) == 1
    assert "pip install 'crumb-games[otel]'" in caplog.records[0].getMessage()
    assert otel_stream.start("", said.append) is None and len(caplog.records) == 1  # no endpoint: nothing said
