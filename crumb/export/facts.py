"""What a session's transcript says about its game, gathered once for export, the report and release.

Pure: events and the replayed state in, typed records out (no files, no clock). The rounds pair each
build with the QA run, the judge's score and the validator's audit that followed it; the scorecard says
for every dimension whether its score is QA's measurement or a model's judgement, and which corrections
the validator made, so nothing built on it claims more than the transcript does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from crumb.protocol.names import ROLES
from crumb.reducer.state import SessionState

#: the dimensions the validator sets from QA's facts (rule exec_from_qa); the others are a model's judgement
QA_DIMENSIONS = ("runs", "controls", "rules", "performance")
RESULTS = frozenset({"spec", "research.plan", "research.evidence", "build", "qa.result", "judge.score", "audit", "done"})


@dataclass(frozen=True)
class ScoreRow:
    dimension: str
    score: float | None
    note: str
    source: str  # "QA" (measured) or "model" (judged)
    corrected: str = ""  # "4.0 → 5.0 (exec_from_qa)" when the validator changed it


@dataclass
class Round:
    """One build and what was made of it."""

    number: int
    build_id: str
    build_ts: str
    manifest: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    qa_id: str | None = None
    qa: dict[str, Any] | None = None
    judge_id: str | None = None
    judge: dict[str, Any] | None = None
    audit_id: str | None = None
    audit: dict[str, Any] | None = None

    @property
    def verdict(self) -> str | None:
        """The corrected verdict (the audit's), else the judge's, else None before a judgement."""
        if self.audit is not None:
            return self.audit.get("verdict")
        return self.judge.get("verdict") if self.judge is not None else None

    @property
    def total(self) -> float | None:
        source = self.audit or self.judge or {}
        value = source.get("total")
        return float(value) if isinstance(value, int | float) else None

    def scorecard(self) -> list[ScoreRow]:
        """Each dimension's final score (after corrections), its note and where it came from."""
        scores: dict[str, Any] = dict((self.judge or {}).get("scores") or {})
        changed: dict[str, str] = {}
        for c in (self.audit or {}).get("corrections") or []:
            dim = str(c.get("field", "")).removeprefix("scores.")
            if str(c.get("field", "")).startswith("scores."):
                changed[dim] = f"{c.get('before')} → {c.get('after')} ({c.get('rule')})"
                if isinstance(c.get("after"), int | float):
                    scores[dim] = {**(scores.get(dim) or {}), "score": c["after"]}
        rows = []
        for dim, value in scores.items():
            value = value if isinstance(value, dict) else {"score": value}
            score = value.get("score")
            rows.append(ScoreRow(dim, float(score) if isinstance(score, int | float) else None, str(value.get("note") or ""),
                                 "QA" if dim in QA_DIMENSIONS and self.qa is not None else "model", changed.get(dim, "")))
        return rows

    def corrections(self) -> list[dict[str, Any]]:
        return list((self.audit or {}).get("corrections") or [])


@dataclass(frozen=True)
class Usage:
    """What one role's results cost, summed over its events' `meta`."""

    role: str
    runs: int
    tokens_in: int
    tokens_out: int
    cost_usd: float
    estimated: bool
    duration_ms: int
    models: tuple[str, ...]  # harness:model as the adapters reported them


@dataclass(frozen=True)
class SessionFacts:
    session: str
    pitch: str
    title: str
    genre: str
    phase: str
    spec: dict[str, Any]
    rounds: list[Round]
    played: dict[str, dict[str, Any]]
    fallbacks: list[dict[str, Any]]
    fallback: bool
    done: dict[str, Any] | None
    done_id: str | None
    waiting_for: str | None
    feedback: str | None
    settled: bool
    usage: list[Usage]
    tokens: int
    cost_usd: float
    started: str | None
    last_ts: str | None
    last_seq: int
    events: list[dict[str, Any]]

    @property
    def build(self) -> Round | None:
        """The round of the game in force (the latest build)."""
        return self.rounds[-1] if self.rounds else None

    @property
    def verdict(self) -> str | None:
        """The session's verdict: the done event's, else the latest round's (PARTIAL while it waits)."""
        if self.done is not None and self.done.get("verdict"):
            return str(self.done["verdict"])
        for r in reversed(self.rounds):
            if r.verdict:
                return r.verdict
        return None

    @property
    def outcome(self) -> str:
        """One line: `done (pass) PASS at round 1 with total 5.0`, or where it stands."""
        if self.done is not None:
            mark = ", fallback" if self.fallback else ""
            return f"done ({self.done.get('reason')}{mark}) {self.done.get('detail', '')}".rstrip()
        if self.waiting_for:
            return f"waiting for a person ({self.waiting_for}): {self.feedback or ''}".rstrip(": ")
        return f"not finished ({self.phase})"


def settled_state(state: SessionState) -> bool:
    """Nothing more will happen without a person: done, or waiting for an approval (cli/verdict.settled)."""
    return state.done is not None or (state.waiting_for == "approval" and not state.pending)


def gather(events: Iterable[dict[str, Any]], state: SessionState) -> SessionFacts:
    """The facts of one session from its events (in seq order) and the state replayed from them."""
    seen: set[tuple[str, str]] = set()
    kept: list[dict[str, Any]] = []
    rounds: list[Round] = []
    done: dict[str, Any] | None = None
    done_id: str | None = None
    usage: dict[str, dict[str, Any]] = {}
    for event in events:
        kept.append(event)
        kind, effect, data = event.get("kind", ""), event.get("effect"), event.get("data") or {}
        if effect and kind in RESULTS:
            if (effect, kind) in seen:
                continue  # a second result for one effect: the reducer ignored it, so do we
            seen.add((effect, kind))
        who, meta = event.get("from", ""), event.get("meta") or {}
        if who in ROLES and kind in RESULTS:
            u = usage.setdefault(who, {"runs": 0, "in": 0, "out": 0, "cost": 0.0, "est": False, "ms": 0, "models": []})
            u["runs"] += 1
            u["in"] += int(meta.get("tokens_in") or 0)
            u["out"] += int(meta.get("tokens_out") or 0)
            u["cost"] += float(meta.get("cost_usd") or 0.0)
            u["est"] = u["est"] or bool(meta.get("cost_estimated"))
            u["ms"] += int(meta.get("duration_ms") or 0)
            model = ":".join(x for x in (meta.get("harness"), meta.get("model")) if x)
            if model and model not in u["models"]:
                u["models"].append(model)
        if kind == "build":
            rounds.append(Round(len(rounds) + 1, event["id"], event.get("ts", ""), dict(data.get("manifest") or {}),
                                list(data.get("notes") or [])))
        elif kind == "qa.result" and rounds:
            rounds[-1].qa_id, rounds[-1].qa = event["id"], data
        elif kind == "judge.score" and rounds:
            rounds[-1].judge_id, rounds[-1].judge = event["id"], data
        elif kind == "audit" and rounds:
            rounds[-1].audit_id, rounds[-1].audit = event["id"], data
        elif kind == "done":
            done, done_id = data, event["id"]
    spec = state.spec_data
    return SessionFacts(
        session=state.session,
        pitch=state.pitch,
        title=str(spec.get("title") or ""),
        genre=str(spec.get("genre") or ""),
        phase=state.phase,
        spec=spec,
        rounds=rounds,
        played={role: dict(p) for role, p in ((done or {}).get("played") or state.played).items()},
        fallbacks=[dict(f) for f in ((done or {}).get("fallbacks") or state.fallbacks)],
        fallback=bool((done or {}).get("fallback")) or any(p.get("fallback") for p in state.played.values()),
        done=done if state.done is not None else None,  # a /redo reopened it: that done no longer holds
        done_id=done_id if state.done is not None else None,
        waiting_for=state.waiting_for,
        feedback=state.feedback,
        settled=settled_state(state),
        usage=[Usage(role, u["runs"], u["in"], u["out"], round(u["cost"], 6), u["est"], u["ms"], tuple(u["models"]))
               for role, u in usage.items()],
        tokens=state.tokens,
        cost_usd=round(state.cost_usd, 6),
        started=state.started_at,
        last_ts=state.last_ts,
        last_seq=state.last_seq,
        events=kept,
    )


def verdict_record(facts: SessionFacts) -> dict[str, Any]:
    """The verdict and scorecard as `verdict.json` beside an export or a release says it."""
    return {
        "session": facts.session,
        "title": facts.title,
        "genre": facts.genre,
        "pitch": facts.pitch,
        "verdict": facts.verdict,
        "outcome": facts.outcome,
        "done": facts.done,
        "played": facts.played,
        "fallbacks": facts.fallbacks,
        "fallback": facts.fallback,
        "rounds": [{
            "round": r.number, "build": r.build_id, "verdict": r.verdict, "total": r.total,
            "severity": (r.audit or {}).get("severity"),
            "qa": None if r.qa is None else {k: r.qa.get(k) for k in (
                "ok", "loaded", "canvas_nonblank", "canvas_animates", "input_responds", "fps", "errors")}
            | {"probes": [{"id": p.get("id"), "ok": p.get("ok")} for p in r.qa.get("probes") or []]},
            "scorecard": [{"dimension": s.dimension, "score": s.score, "source": s.source, "note": s.note,
                           "corrected": s.corrected or None} for s in r.scorecard()],
            "corrections": r.corrections(),
            "feedback": (r.audit or {}).get("feedback") or (r.judge or {}).get("feedback"),
        } for r in facts.rounds],
        "tokens": facts.tokens,
        "cost_usd": facts.cost_usd,
        "as_of": {"seq": facts.last_seq, "ts": facts.last_ts},
    }


def verdict_markdown(facts: SessionFacts) -> str:
    """The same record for people: VERDICT.md."""
    lines = [f"# {facts.title or 'Untitled'} — {facts.verdict or 'no verdict'}", "",
             f"- pitch: {facts.pitch}", f"- session: {facts.session}", f"- outcome: {facts.outcome}"]
    for role, p in facts.played.items():
        lines.append(f"- {role}: {played_text(p)}")
    lines.append(f"- tokens: {facts.tokens}, cost: ${facts.cost_usd:.4f}")
    for r in facts.rounds:
        lines += ["", f"## Round {r.number}: {r.verdict or 'not judged'}"
                  + (f" (total {r.total:g})" if r.total is not None else ""), "",
                  "| dimension | score | from | note |", "|---|---|---|---|"]
        for s in r.scorecard():
            score = "-" if s.score is None else f"{s.score:g}"
            lines.append(f"| {s.dimension} | {score} | {s.source} | {s.note}{' — corrected ' + s.corrected if s.corrected else ''} |")
        for c in r.corrections():
            lines.append(f"\n- correction `{c.get('rule')}`: {c.get('reason')}")
    return "\n".join(lines) + "\n"


def played_text(p: dict[str, Any]) -> str:
    """`local:crumb-local-1 (bound local)`, with the fallback or a person's swap named."""
    who = ":".join(str(x) for x in (p.get("harness"), p.get("model")) if x)
    if p.get("fallback"):
        return f"{who} (fallback; bound {p.get('bound')})"
    if p.get("origin") == "user":
        return f"{who} (a person's /swap)"
    return f"{who} (bound {p.get('bound') or p.get('harness')})"


def slug(title: str, session: str) -> str:
    """A file name for a game: `snake-F71R69` (the title in ASCII, the session's last six characters)."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")[:40].strip("-")
    return f"{words or 'game'}-{session[-6:]}"
