"""Two sessions, or two set-ups of a batch, side by side: `crumb compare`.

Sessions: spec (title, genre, language, criteria), verdict and total, the Verifier's scores with the
evidence each rests on and the validator's corrections, rounds, cost, time, who played, QA findings and
screenshots (paths). Set-ups: their rows of the batch report, then every pitch and seed the two share,
cell against cell.
"""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

from crumb.report.digest import SessionDigest
from crumb.report.summary import CellSummary, GroupRow, Report
from crumb.report.text import COLUMNS, cells_of
from crumb.terminal import safe


@dataclass(frozen=True)
class ScoreText:
    score: float
    evidence: list[str]
    note: str


@dataclass(frozen=True)
class SessionSide:
    session: str
    folder: str
    pitch: str
    title: str | None
    genre: str | None
    built: str | None
    language: str | None
    criteria: list[str]
    phase: str
    verdict: str | None
    done: str | None
    total: float | None
    judged_total: float | None
    scores: dict[str, ScoreText]
    corrections: list[str]
    rounds: int | None
    fallback: bool
    played: str
    wall_s: float | None
    tokens: int | None
    cost_usd: float | None
    findings: list[str]
    screenshots: list[str]  # absolute paths, the latest QA run's
    game: str | None  # absolute path


@dataclass(frozen=True)
class SessionComparison:
    a: SessionSide
    b: SessionSide


@dataclass(frozen=True)
class CellPair:
    pitch: int
    pitch_text: str
    seed: int
    a: CellSummary
    b: CellSummary


@dataclass(frozen=True)
class SetupComparison:
    batch: str
    a: GroupRow
    b: GroupRow
    pairs: list[CellPair]


def side(d: SessionDigest) -> SessionSide:
    out = d.outcome
    return SessionSide(
        session=d.session, folder=str(d.folder), pitch=d.pitch, title=d.title, genre=d.genre, built=d.built,
        language=d.language, criteria=[f"{c.id}: {c.text}" for c in d.criteria], phase=d.phase,
        verdict=out.verdict if out else None, done=out.done if out else None, total=d.total,
        judged_total=d.judged_total,
        scores={k: ScoreText(score=s.score, evidence=s.evidence, note=s.note) for k, s in d.scores.items()},
        corrections=[f"{c.rule}: {c.reason}" for c in d.corrections], rounds=out.rounds if out else None,
        fallback=bool(out and out.fallback), played=d.played, wall_s=out.wall_s if out else None,
        tokens=out.tokens if out else None, cost_usd=out.cost_usd if out else None, findings=list(d.findings),
        screenshots=[str(d.folder / s) for s in d.screenshots],
        game=str(d.folder / d.game) if d.game else None)


def compare_sessions(a: SessionDigest, b: SessionDigest) -> SessionComparison:
    return SessionComparison(a=side(a), b=side(b))


class NoSuchSetup(LookupError):
    """str() is the one line naming the set-ups there are."""

    def __str__(self) -> str:
        return str(self.args[0])


def setup_named(setups: list[str], ref: str) -> str:
    """A set-up by its name as batch.toml writes it, or by its number (1-based, in batch.toml's order)."""
    if ref in setups:
        return ref
    if ref.isdigit() and 1 <= int(ref) <= len(setups):
        return setups[int(ref) - 1]
    raise NoSuchSetup(f"no set-up {ref!r} in this batch: give one of {', '.join(map(repr, setups))} "
                      f"or its number 1-{len(setups)}")


def compare_setups(report: Report, a: str, b: str) -> SetupComparison:
    rows = {r.setup: r for r in report.by_setup}
    pairs = []
    for pitch in range(1, len(report.pitches) + 1):
        for seed in report.seeds:
            ca = next(c for c in report.cells if c.setup == a and c.pitch == pitch and c.seed == seed)
            cb = next(c for c in report.cells if c.setup == b and c.pitch == pitch and c.seed == seed)
            pairs.append(CellPair(pitch=pitch, pitch_text=report.pitches[pitch - 1], seed=seed, a=ca, b=cb))
    return SetupComparison(batch=report.batch, a=rows[a], b=rows[b], pairs=pairs)


def _verdict(s: SessionSide) -> str:
    if s.verdict is None and s.done is None:
        return f"not settled ({s.phase})"
    text = f"{s.verdict or '-'}" + (f" (done: {s.done})" if s.done else " (waiting for a person)")
    return text + (" — FALLBACK: not the bound harness's verdict" if s.fallback else "")


def _num(v: float | int | None, fmt: str = "g") -> str:
    return "-" if v is None else format(v, fmt)


def _score(x: ScoreText | None) -> str:
    if x is None:
        return "-"
    return f"{x.score:g} — {x.note}" + (f"\nevidence: {', '.join(x.evidence)}" if x.evidence else "")


def rows(c: SessionComparison) -> list[tuple[str, str, str]]:
    """The comparison as (label, A, B) rows: what the terminal shows side by side, and the Studio as a table."""
    a, b = c.a, c.b
    rows = [("session", a.session, b.session), ("pitch", a.pitch, b.pitch),
            ("title", a.title or "-", b.title or "-"),
            ("genre", f"{a.genre} (built {a.built})", f"{b.genre} (built {b.built})"),
            ("language", a.language or "-", b.language or "-"),
            ("criteria", "\n".join(a.criteria) or "-", "\n".join(b.criteria) or "-"),
            ("verdict", _verdict(a), _verdict(b)),
            ("total", f"{_num(a.total)} (judge said {_num(a.judged_total)})",
             f"{_num(b.total)} (judge said {_num(b.judged_total)})")]
    for name in dict.fromkeys([*a.scores, *b.scores]):
        rows.append((f"score {name}", _score(a.scores.get(name)), _score(b.scores.get(name))))
    rows += [("corrections", "\n".join(a.corrections) or "none", "\n".join(b.corrections) or "none"),
             ("rounds", _num(a.rounds), _num(b.rounds)),
             ("cost", f"${_num(a.cost_usd, '.4f')}, {_num(a.tokens)} tokens",
              f"${_num(b.cost_usd, '.4f')}, {_num(b.tokens)} tokens"),
             ("wall time", f"{_num(a.wall_s, '.1f')} s", f"{_num(b.wall_s, '.1f')} s"),
             ("played", a.played or "-", b.played or "-"),
             ("QA findings", ", ".join(a.findings) or "none", ", ".join(b.findings) or "none")]
    return rows


def _files(c: SessionComparison) -> list[str]:
    """Screenshots and games as whole paths, one a line (a wrapped path cannot be copied)."""
    lines = []
    for name, s in (("A", c.a), ("B", c.b)):
        lines.append(f"{name} game         {safe(s.game or 'none')}")
        lines += [f"{name} screenshot   {safe(p)}" for p in s.screenshots] or [f"{name} screenshot   none"]
    return lines


def _wrap(text: str, width: int) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):  # each line shown, never obeyed (crumb.terminal)
        out += textwrap.wrap(safe(line), width, break_long_words=True, break_on_hyphens=False) or [""]
    return out


def side_by_side(rows: list[tuple[str, str, str]], width: int | None = None) -> str:
    total = width or shutil.get_terminal_size((160, 40)).columns
    label = max(len(r[0]) for r in rows)
    col = max(24, (total - label - 6) // 2)
    lines = []
    for name, a, b in rows:
        wa, wb = _wrap(a, col), _wrap(b, col)
        for i in range(max(len(wa), len(wb))):
            left = wa[i] if i < len(wa) else ""
            right = wb[i] if i < len(wb) else ""
            lines.append(f"{name if i == 0 else '':<{label}}  {left:<{col}}  │ {right}".rstrip())
    return "\n".join(lines)


def render_sessions(c: SessionComparison, width: int | None = None) -> str:
    return side_by_side([("", "A", "B"), *rows(c)], width) + "\n\n" + "\n".join(_files(c))


def _cell(c: CellSummary) -> str:
    if c.state != "settled":
        return c.bucket
    extra = [f"round {c.rounds}" if c.rounds is not None else "", f"total {c.total:g}" if c.total is not None else ""]
    return f"{c.bucket}" + (f" ({c.verdict})" if c.bucket == "fallback" else "") + \
        f" {' '.join(x for x in extra if x)}".rstrip() + f"\n{c.session}"


def render_setups(c: SetupComparison, width: int | None = None) -> str:
    head = [("", f"A: {c.a.setup}", f"B: {c.b.setup}")]
    stats = [(name, va, vb) for name, va, vb in zip(COLUMNS, cells_of(c.a), cells_of(c.b), strict=True)]
    stats.append(("role s", ", ".join(f"{k} {v:.2f}" for k, v in c.a.role_s.items()) or "-",
                  ", ".join(f"{k} {v:.2f}" for k, v in c.b.role_s.items()) or "-"))
    stats.append(("findings", ", ".join(f"{f.key} ×{f.cells}" for f in c.a.findings) or "none",
                  ", ".join(f"{f.key} ×{f.cells}" for f in c.b.findings) or "none"))
    cells = [(f"p{p.pitch} s{p.seed}", f"{p.pitch_text}\n{_cell(p.a)}", _cell(p.b)) for p in c.pairs]
    return side_by_side([*head, *stats, ("", "", ""), *cells], width)


def screenshot_paths(c: SessionComparison) -> list[Path]:
    return [Path(p) for p in (*c.a.screenshots, *c.b.screenshots)]
