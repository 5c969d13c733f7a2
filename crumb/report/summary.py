"""A batch summed up: rates with their intervals, costs and times, per set-up, per genre, per language.

Pure: CellRows in, a Report out, no file read. How a cell counts:
- PASS: settled, done `pass` with a PASS verdict, every role played by the harness it was bound to;
- PARTIAL: settled with a PARTIAL verdict (waiting for a person, or approved by one: not the set-up's PASS);
- FAIL: settled otherwise (FAIL or REJECT, budget, circuit open, error, cancelled);
- fallback: settled, but some role's result came from a fallback adapter — counted apart whatever its
  verdict, never as the set-up's PASS nor in its rates;
- failed (could not run at all), unfinished (started, not settled) and missing (never started) are
  counted apart too. Rates are over the judged cells: PASS + PARTIAL + FAIL.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from crumb.report.cells import BatchView, CellRow, CellState
from crumb.report.digest import ROLE_ORDER
from crumb.report.wilson import Rate, rate

Bucket = Literal["PASS", "PARTIAL", "FAIL", "fallback", "failed", "unfinished", "missing"]
Grouping = Literal["setup", "genre", "language"]
TOP_FINDINGS = 5
UNKNOWN = "?"


@dataclass(frozen=True)
class Stat:
    """A quantity over the cells that have it: how many, median, mean, total (None with none)."""

    n: int
    median: float | None
    mean: float | None
    total: float

    @classmethod
    def of(cls, values: list[float]) -> Stat:
        if not values:
            return cls(n=0, median=None, mean=None, total=0.0)
        return cls(n=len(values), median=float(statistics.median(values)), mean=statistics.fmean(values),
                   total=float(sum(values)))


@dataclass(frozen=True)
class FindingCount:
    key: str  # `probe:start`, `blank_canvas`, ... (crumb.report.digest.finding_keys)
    cells: int  # how many cells hit it at least once


@dataclass(frozen=True)
class CellSummary:
    cell: str
    pitch: int
    pitch_text: str
    setup: str
    seed: int
    state: CellState
    bucket: Bucket
    session: str | None
    verdict: str | None
    done: str | None
    rounds: int | None
    fallback: bool
    wall_s: float | None
    tokens: int | None
    cost_usd: float | None
    total: float | None  # the corrected total of the latest verdict (0–5)
    title: str | None
    genre: str
    language: str
    findings: list[str]
    role_s: dict[str, float]
    screenshot: str | None  # path relative to the session folder
    game: str | None  # path relative to the session folder
    error: str | None


@dataclass(frozen=True)
class GroupRow:
    by: Grouping
    setup: str
    key: str  # the set-up itself, a genre or a language
    cells: int  # planned
    judged: int  # PASS + PARTIAL + FAIL, the rates' n
    pass_rate: Rate
    partial_rate: Rate
    fail_rate: Rate
    fallback: int
    fallback_pass: int  # fallback cells whose verdict was PASS: shown, never counted as PASS
    failed: int
    unfinished: int
    missing: int
    rounds_to_pass: Stat
    wall_s: Stat  # every settled cell (fallbacks too: it is what running the set-up took)
    tokens: Stat
    cost_usd: Stat
    role_s: dict[str, float]  # role → mean seconds per settled cell
    findings: list[FindingCount]  # the most often hit, most first


@dataclass(frozen=True)
class Report:
    batch: str
    name: str
    pitches: list[str]
    setups: list[str]
    seeds: list[int]
    counts: dict[str, int]  # bucket → cells
    cells: list[CellSummary]
    by_setup: list[GroupRow]
    by_genre: list[GroupRow]
    by_language: list[GroupRow]
    findings: list[FindingCount] = field(default_factory=list)  # over the whole batch


def bucket(row: CellRow) -> Bucket:
    if row.state == "failed" or row.state == "unfinished" or row.state == "missing":
        return row.state
    out = row.outcome
    if out is None:
        return "FAIL"
    if out.fallback:
        return "fallback"
    if out.verdict == "PASS" and out.done == "pass":
        return "PASS"
    if out.verdict == "PARTIAL":
        return "PARTIAL"
    return "FAIL"


def _pitch_readings(rows: list[CellRow]) -> dict[int, tuple[str, str]]:
    """pitch → (genre, language) as most of its cells' sessions read it: a cell that has no session yet
    is grouped with its pitch's siblings."""
    out = {}
    for pitch in {r.pitch for r in rows}:
        genres = Counter(r.digest.genre for r in rows if r.pitch == pitch and r.digest and r.digest.genre)
        langs = Counter(r.digest.language for r in rows if r.pitch == pitch and r.digest and r.digest.language)
        out[pitch] = (genres.most_common(1)[0][0] if genres else UNKNOWN,
                      langs.most_common(1)[0][0] if langs else UNKNOWN)
    return out


def summarise_cell(row: CellRow, reading: tuple[str, str]) -> CellSummary:
    d, out = row.digest, row.outcome
    return CellSummary(
        cell=row.cell, pitch=row.pitch, pitch_text=row.pitch_text, setup=row.setup, seed=row.seed, state=row.state,
        bucket=bucket(row), session=row.session, verdict=out.verdict if out else None, done=out.done if out else None,
        rounds=out.rounds if out else None, fallback=bool(out and out.fallback), wall_s=out.wall_s if out else None,
        tokens=out.tokens if out else None, cost_usd=out.cost_usd if out else None,
        total=d.total if d else None, title=d.title if d else None,
        genre=(d.genre if d and d.genre else reading[0]), language=(d.language if d and d.language else reading[1]),
        findings=list(d.findings) if d else [], role_s=dict(d.role_s) if d else {},
        screenshot=d.screenshot if d else None, game=d.game if d else None, error=row.error)


def top_findings(cells: list[CellSummary], limit: int = TOP_FINDINGS) -> list[FindingCount]:
    counts = Counter(key for c in cells for key in c.findings)
    return [FindingCount(key=k, cells=n) for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]


def group(by: Grouping, setup: str, key: str, cells: list[CellSummary]) -> GroupRow:
    count = Counter(c.bucket for c in cells)
    judged = count["PASS"] + count["PARTIAL"] + count["FAIL"]
    settled = [c for c in cells if c.state == "settled"]
    roles = {role: round(sum(c.role_s.get(role, 0.0) for c in settled) / len(settled), 3)
             for role in ROLE_ORDER if any(role in c.role_s for c in settled)}
    return GroupRow(
        by=by, setup=setup, key=key, cells=len(cells), judged=judged,
        pass_rate=rate(count["PASS"], judged), partial_rate=rate(count["PARTIAL"], judged),
        fail_rate=rate(count["FAIL"], judged), fallback=count["fallback"],
        fallback_pass=sum(1 for c in cells if c.bucket == "fallback" and c.verdict == "PASS"),
        failed=count["failed"], unfinished=count["unfinished"], missing=count["missing"],
        rounds_to_pass=Stat.of([float(c.rounds) for c in cells if c.bucket == "PASS" and c.rounds is not None]),
        wall_s=Stat.of([c.wall_s for c in settled if c.wall_s is not None]),
        tokens=Stat.of([float(c.tokens) for c in settled if c.tokens is not None]),
        cost_usd=Stat.of([c.cost_usd for c in settled if c.cost_usd is not None]),
        role_s=roles, findings=top_findings(cells))


def summarise(view: BatchView) -> Report:
    readings = _pitch_readings(view.cells)
    cells = [summarise_cell(r, readings[r.pitch]) for r in view.cells]
    setups = [s.name for s in view.plan.setups]

    def by(grouping: Literal["genre", "language"]) -> list[GroupRow]:
        rows = []
        for setup in setups:
            mine = [c for c in cells if c.setup == setup]
            for key in sorted({getattr(c, grouping) for c in mine}):
                rows.append(group(grouping, setup, key, [c for c in mine if getattr(c, grouping) == key]))
        return rows

    return Report(
        batch=view.id, name=view.plan.name, pitches=list(view.plan.pitches), setups=setups,
        seeds=list(view.plan.seeds), counts=dict(Counter(c.bucket for c in cells)), cells=cells,
        by_setup=[group("setup", s, s, [c for c in cells if c.setup == s]) for s in setups],
        by_genre=by("genre"), by_language=by("language"), findings=top_findings(cells, 10))
