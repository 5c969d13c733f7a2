"""One session read for a report: its outcome (as runs.jsonl records it), its spec, its scores, what QA
found, where its time went and its final screenshot. One pass over the transcript, reducer included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from crumb.batch.runs import CellOutcome
from crumb.reducer.reduce import apply, initial_state
from crumb.store import paths
from crumb.store.reader import read_events

#: who spends a session's time, in pipeline order (the sources that produce a role's result)
ROLE_ORDER = ("planner", "researcher", "builder", "qa", "verifier")
GAME_REL = f"{paths.GAME_REL}/index.html"


@dataclass(frozen=True)
class CriterionText:
    id: str
    text: str


@dataclass(frozen=True)
class Score:
    """One dimension of the Verifier's latest judgement, with the evidence ids it rests on."""

    score: float
    evidence: list[str]
    note: str


@dataclass(frozen=True)
class CorrectionLine:
    rule: str
    reason: str


@dataclass
class SessionDigest:
    session: str
    folder: Path  # the session folder as it was reached (a batch's link, or sessions/<id>)
    pitch: str = ""
    title: str | None = None
    genre: str | None = None  # the genre the pitch asks for (the spec's reading), else the genre built
    built: str | None = None  # the genre built
    language: str | None = None  # the pitch's language as the spec's reading detected it
    criteria: list[CriterionText] = field(default_factory=list)
    outcome: CellOutcome | None = None  # None while the session is neither done nor waiting for a person
    phase: str = "new"
    played: str = ""  # `planner=local builder=local (fallback; bound claude:sonnet) ...`
    scores: dict[str, Score] = field(default_factory=dict)  # the latest judge.score's
    judged_total: float | None = None  # the Verifier's own total
    total: float | None = None  # after the validator's corrections (the latest audit)
    corrections: list[CorrectionLine] = field(default_factory=list)
    feedback: str = ""
    findings: list[str] = field(default_factory=list)  # every QA finding hit in any round, once each, first first
    final_findings: list[str] = field(default_factory=list)  # those of the latest QA run
    role_s: dict[str, float] = field(default_factory=dict)  # role → seconds its runs took (failed attempts too)
    screenshot: str | None = None  # the latest QA run's last screenshot, relative to the session folder
    screenshots: list[str] = field(default_factory=list)
    game: str | None = None  # artifacts/game/index.html when it exists


def finding_keys(qa: dict[str, Any]) -> list[str]:
    """What a QA run found, as keys to count across cells: a failed acceptance probe by its id
    (`probe:start`), every other finding by its code (`blank_canvas`), QA's own failure as `qa_error`."""
    keys = [f"probe:{p.get('id')}" for p in qa.get("probes") or [] if not p.get("ok")]
    keys += [str(f.get("code")) for f in qa.get("findings") or [] if f.get("code") != "probe_failed"]
    if qa.get("error"):
        keys.append("qa_error")
    return list(dict.fromkeys(keys))


def _ts(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(event["ts"]).replace("Z", "+00:00"))


def digest(folder: Path) -> SessionDigest:
    """Read sessions/<id>/ (or a link to it): raises TranscriptError for a damaged transcript."""
    from crumb.batch.cell import outcome_of
    from crumb.cli.verdict import cast_line, settled

    state = initial_state(folder.name)
    d = SessionDigest(session=folder.name, folder=folder)
    started: dict[str, datetime] = {}
    findings: dict[str, None] = {}
    latest_qa: dict[str, Any] | None = None
    for event in read_events(folder / paths.TRANSCRIPT):
        apply(state, event)
        kind, who, data = event.get("kind"), event.get("from"), event.get("data") or {}
        effect = event.get("effect")
        if kind == "effect.started" and effect:
            started[effect] = _ts(event)
        elif kind == "effect.failed" and effect in started:
            actor = str(data.get("actor") or "")
            if actor:
                d.role_s[actor] = d.role_s.get(actor, 0.0) + (_ts(event) - started[effect]).total_seconds()
        elif effect and who in ROLE_ORDER and kind != "progress":
            ms = (event.get("meta") or {}).get("duration_ms")
            took = ms / 1000 if isinstance(ms, int | float) else \
                (_ts(event) - started[effect]).total_seconds() if effect in started else 0.0
            d.role_s[str(who)] = d.role_s.get(str(who), 0.0) + took
        if kind == "qa.result":
            latest_qa = data
            findings.update(dict.fromkeys(finding_keys(data)))
        elif kind == "judge.score":
            d.scores = {name: Score(score=float(s.get("score", 0)), evidence=list(s.get("evidence") or []),
                                    note=str(s.get("note") or ""))
                        for name, s in (data.get("scores") or {}).items()}
            d.judged_total = data.get("total")
        elif kind == "audit":
            d.total = data.get("total")
            d.corrections = [CorrectionLine(rule=str(c.get("rule")), reason=str(c.get("reason") or ""))
                             for c in data.get("corrections") or []]
            d.feedback = str(data.get("feedback") or "")
    spec = state.spec_data
    reading = spec.get("reading") or {}
    d.pitch = state.pitch
    d.title, d.built = spec.get("title"), spec.get("genre")
    d.genre = (reading.get("genre") or {}).get("asked") or d.built
    d.language = (reading.get("language") or {}).get("language") or spec.get("language")
    d.criteria = [CriterionText(id=str(c.get("id")), text=str(c.get("text"))) for c in spec.get("criteria") or []]
    d.phase = state.phase
    d.played = cast_line(state)
    d.findings = list(findings)
    if latest_qa is not None:
        d.final_findings = finding_keys(latest_qa)
        d.screenshots = [s for s in latest_qa.get("screenshots") or [] if (folder / s).is_file()]
        d.screenshot = d.screenshots[-1] if d.screenshots else None
    d.game = GAME_REL if (folder / GAME_REL).is_file() else None
    d.outcome = outcome_of(state) if settled(state) else None
    return d
