"""Build real transcripts for Studio tests: the real writer appends, the real reducer says what is
pending, and each pending effect gets the result a dispatcher would record. No daemon needed."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ulid import ULID

from crumb.reducer.effects import to_data
from crumb.reducer.reduce import apply, initial_state
from crumb.settings import Settings
from crumb.store.paths import artifacts_dir, session_dir, transcript_path
from crumb.store.writer import TranscriptWriter

GAME = (Path(__file__).parent / "game.html").read_text()

SPEC = {
    "title": "Neon Snake", "genre": "snake", "pitch": "", "core_loop": "eat fruit, grow, avoid walls",
    "criteria": [
        {"id": "starts", "text": "Enter starts the round",
         "probe": {"steps": [{"do": "start"}], "expect": [{"path": "phase", "op": "==", "value": "playing"}]}},
        {"id": "moves", "text": "Arrow keys change the score",
         "probe": {"steps": [{"do": "start"}, {"do": "key", "key": "ArrowUp"}],
                   "expect": [{"path": "score", "op": "increased"}]}},
    ],
}


class Scripted:
    """One session written event by event, with the reducer's state alongside."""

    def __init__(self, root: Path, session: str | None = None) -> None:
        self.root = root
        self.session = session or str(ULID())
        self.writer = TranscriptWriter(transcript_path(root, self.session), self.session, fsync="never")
        self.state = initial_state(self.session)

    @property
    def dir(self) -> Path:
        return session_dir(self.root, self.session)

    def append(self, kind: str, data: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        ev = self.writer.append(kind, data or {}, **kw)
        apply(self.state, ev)
        return ev

    def pending(self, kind: str, actor: str | None = None) -> dict[str, Any]:
        for eff in map(to_data, self.state.pending.values()):
            if eff["kind"] == kind and (actor is None or eff.get("actor") == actor):
                return eff
        raise AssertionError(f"no pending {kind} {actor or ''}; pending: {list(self.state.pending.values())}")

    # ---- the usual steps of a session

    def start(self, pitch: str = "a neon snake game, 60 second rounds",
              bindings: dict[str, list[dict[str, Any]]] | None = None) -> Scripted:
        self.append("session.start", {"settings": Settings().to_data(), "preset": "local",
                                      "bindings": bindings or {}}, from_="daemon", body="session started")
        self.append("goal", {"pitch": pitch}, from_="user", body=pitch)
        return self

    def plan(self, title: str = "Neon Snake") -> dict[str, Any]:
        eff = self.pending("run_actor", "planner")
        self.append("effect.started", {"effect_id": eff["id"], "kind": "run_actor", "actor": "planner",
                                       "adapter": "local", "log": "logs/planner-1.log"}, effect=eff["id"])
        logs = self.dir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        (logs / "planner-1.log").write_text("planner: reading the pitch\nplanner: wrote 2 criteria\n")
        spec = {**SPEC, "title": title}
        art = artifacts_dir(self.root, self.session)
        art.mkdir(parents=True, exist_ok=True)
        (art / "spec.md").write_text(f"# {title}\n\nGenre: snake\n\n## Acceptance\n- starts\n- moves\n")
        return self.append("spec", spec, from_="planner", effect=eff["id"], body=f"spec: {title}")

    def fail(self, actor: str, error: str) -> dict[str, Any]:
        """The pending run of `actor` fails, as the dispatcher records it; then the records it causes
        (circuit.opened, adapter.swapped once the failures reach the circuit's threshold)."""
        eff = self.pending("run_actor", actor)
        ev = self.append("effect.failed", {"effect_id": eff["id"], "kind": "run_actor", "actor": actor,
                                           "adapter": eff["binding"].get("harness"), "error": error},
                         effect=eff["id"], body=f"{actor} failed: {error}")
        self.flush_records()
        return ev

    def build(self, html: str = GAME) -> dict[str, Any]:
        eff = self.pending("run_actor", "builder")
        game = artifacts_dir(self.root, self.session) / "game"
        game.mkdir(parents=True, exist_ok=True)
        (game / "index.html").write_text(html)
        data = (game / "index.html").read_bytes()
        manifest = {"dir": "artifacts/game", "entry": "index.html",
                    "files": [{"path": "index.html", "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}]}
        return self.append("build", {"manifest": manifest, "notes": ["first build"]}, effect=eff["id"],
                           body="built 1 file")

    def qa(self, ok: bool = True, **extra: Any) -> dict[str, Any]:
        eff = self.pending("qa_check")
        shots = artifacts_dir(self.root, self.session) / "qa"
        shots.mkdir(parents=True, exist_ok=True)
        (shots / "start.png").write_bytes(_PNG)
        return self.append("qa.result", {
            "build": eff.get("build"), "ok": ok, "exec_ok": True, "static_ok": True, "loaded": True, "hook": True,
            "canvas_nonblank": True, "canvas_animates": True, "input_responds": ok,
            "probes": [{"id": "starts", "ok": True, "detail": "phase playing"},
                       {"id": "moves", "ok": ok, "detail": "score 0 → 1" if ok else "score stayed 0"}],
            "fps": 60.0, "screenshots": ["artifacts/qa/start.png"], "duration_ms": 2300, **extra,
        }, from_="qa", effect=eff["id"], body="QA ok" if ok else "QA: a probe failed")

    def judge(self, verdict: str = "PARTIAL", total: float = 3.2, score: float = 3.0) -> dict[str, Any]:
        eff = self.pending("run_actor", "verifier")
        scores = {d: {"score": score if d != "runs" else 4.0, "evidence": ["qa"], "note": f"{d} ok"}
                  for d in ("goal_fit", "runs", "controls", "rules", "visuals", "performance")}
        ev = self.append("judge.score", {"verdict": verdict, "severity": "Minor", "scores": scores, "total": total,
                                         "feedback": "Playable; the fruit is hard to see."},
                         from_="verifier", effect=eff["id"], meta={"model": "local-judge"})
        self.flush_records()
        return ev

    def flush_records(self) -> None:
        """Append what the reducer asked to record (audit, done...), as the dispatcher would."""
        while True:
            recs = [to_data(e) for e in self.state.pending.values() if e.kind == "record"]
            if not recs:
                return
            for eff in recs:
                ev = eff["event"]
                self.append(ev["kind"], ev["data"], body=ev.get("body", ""), effect=eff["id"],
                            from_="validator" if ev["kind"] == "audit" else "dispatcher")

    def to_partial(self) -> Scripted:
        self.start()
        self.plan()
        self.build()
        self.qa()
        self.judge("PARTIAL")
        return self


def _png(w: int = 48, h: int = 32) -> bytes:
    """A small real PNG (a dark frame with a green bar), so <img> tags load."""
    import struct
    import zlib

    rows = b"".join(b"\x00" + b"".join(
        (b"\x3e\xcf\x8e" if h // 3 < y < h // 2 and 6 < x < w - 6 else b"\x10\x12\x1a") for x in range(w))
        for y in range(h))

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


_PNG = _png()
