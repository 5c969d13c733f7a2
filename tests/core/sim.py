"""A scripted stand-in for the dispatcher, for driving the pure reducer through whole sessions.

Events are made exactly as the writer would make them (validated envelopes with seq, ULID, ts), so
reducer tests see what replay sees. Effects come back in their JSON form (crumb.reducer.effects.to_data),
so a test reads them by path; sim.state.pending holds the typed structs themselves.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from ulid import ULID

from crumb.protocol.events import parse_event
from crumb.reducer.effects import to_data
from crumb.reducer.reduce import apply, initial_state
from crumb.settings import Settings

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def spec_data(genre: str = "snake", criteria: int = 3) -> dict[str, Any]:
    return {
        "title": "Test Snake",
        "genre": genre,
        "criteria": [
            {"id": f"c{i}", "text": f"criterion {i}",
             "probe": {"steps": [], "expect": [{"path": "phase", "op": "==", "value": "title"}]}}
            for i in range(criteria)
        ],
    }


def manifest(files: int = 1) -> dict[str, Any]:
    return {"dir": "artifacts/game", "entry": "index.html",
            "files": [{"path": f"f{i}.html", "sha256": "0" * 64, "bytes": 10} for i in range(files)]}


def qa_data(ok: bool = True, probes_ok: bool | None = None, **kw: Any) -> dict[str, Any]:
    probes_ok = ok if probes_ok is None else probes_ok
    base = {"ok": ok, "exec_ok": ok, "static_ok": True, "loaded": True, "hook": True,
            "canvas_nonblank": True, "canvas_animates": True, "input_responds": ok,
            "probes": [{"id": "c0", "ok": probes_ok}, {"id": "c1", "ok": True}], "fps": 60.0}
    base.update(kw)
    return base


def judge_data(verdict: str = "PASS", severity: str | None = None, total: float = 4.5,
               evidence: list[str] | None = None) -> dict[str, Any]:
    return {"verdict": verdict, "severity": severity, "total": total, "feedback": f"{verdict} feedback",
            "evidence": evidence or []}


class Sim:
    """Feeds events to the reducer and keeps what a dispatcher would see."""

    def __init__(self, settings: dict[str, Any] | None = None, bindings: dict[str, Any] | None = None,
                 fault: str | None = None, writer: Any = None, unrunnable: list[str] | None = None) -> None:
        self.writer = writer
        self.state = initial_state("01JSESSION0000000000000000")
        self.seq = 0
        self.now = T0
        self.events: list[dict[str, Any]] = []
        self.last_effects: list[dict[str, Any]] = []
        merged = Settings().merged(settings or {}).to_data()
        start: dict[str, Any] = {"settings": merged, "bindings": bindings or {}, "fault": fault}
        if unrunnable:  # as the daemon records a bound harness that cannot run here, with fallback allowed
            start["unrunnable"] = {role: {"binding": "claude", "origin": "flag", "reason": "not on PATH"} for role in unrunnable}
        self.send("session.start", start, from_="daemon")

    def send(self, kind: str, data: dict[str, Any] | None = None, *, effect: str | None = None, from_: str = "user",
             advance_s: float = 1.0, meta: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        self.seq += 1
        self.now += timedelta(seconds=advance_s)
        event = {
            "v": 1, "seq": self.seq, "id": str(ULID.from_datetime(self.now)), "ts": self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "session": self.state.session or "01JSESSION0000000000000000", "kind": kind, "from": from_,
            "effect": effect, "body": "", "data": data or {}, "meta": meta or {},
        }
        parse_event(event)  # every scripted event is a valid event
        if self.writer is not None:  # the real thing: ids and times from the writer
            event = self.writer.append(kind, data or {}, from_=from_, effect=effect, meta=meta, now=self.now)
        self.events.append(event)
        self.last_effects = [to_data(e) for e in apply(self.state, event)]
        return self.last_effects

    def pending(self, kind: str | None = None, actor: str | None = None) -> dict[str, Any]:
        """The one pending effect matching kind/actor (fails loudly when there is not exactly one)."""
        found = [e for e in map(to_data, self.state.pending.values())
                 if (kind is None or e["kind"] == kind) and (actor is None or e.get("actor") == actor)]
        assert len(found) == 1, f"expected one pending {kind} {actor}, got {found}"
        return found[0]

    def answer(self, actor: str, kind: str, data: dict[str, Any], **kw: Any) -> list[dict[str, Any]]:
        effect = self.pending("qa_check" if actor == "qa" else "run_actor", actor)
        return self.send(kind, data, effect=effect["id"], from_=actor if actor != "qa" else "qa", **kw)

    def record(self, kind: str) -> list[dict[str, Any]]:
        """Let the dispatcher append the pending record effect of this kind."""
        found = [e for e in map(to_data, self.state.pending.values()) if e["kind"] == "record" and e["event"]["kind"] == kind]
        assert found, f"no pending record of {kind}: {list(self.state.pending.values())}"
        ev = found[0]
        return self.send(kind, ev["event"]["data"], effect=ev["id"], from_="dispatcher")

    # whole stretches of a session

    def to_spec(self, pitch: str = "60-second snake", genre: str = "snake") -> None:
        self.send("goal", {"pitch": pitch})
        self.answer("planner", "spec", spec_data(genre))

    def to_qa(self, ok: bool = True, **kw: Any) -> None:
        self.answer("builder", "build", {"manifest": manifest()})
        self.answer("qa", "qa.result", qa_data(ok, **kw))

    def judge(self, verdict: str = "PASS", severity: str | None = None, total: float = 4.5) -> None:
        self.answer("verifier", "judge.score", judge_data(verdict, severity, total))
        self.record("audit")

    def finish(self) -> None:
        self.record("done")
