"""A Report as terminal tables: one row per set-up, then per set-up and genre, per set-up and language."""

from __future__ import annotations

from crumb.report.summary import GroupRow, Report, Stat
from crumb.terminal import safe

COLUMNS = ("cells", "PASS", "PARTIAL", "FAIL", "fallback", "not run", "rounds→PASS", "wall s", "tokens", "cost $")


def num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def median(stat: Stat, digits: int = 1) -> str:
    return num(stat.median, digits)


def apart(row: GroupRow) -> str:
    """What is counted apart from the rates: `1 failed, 2 unfinished, 1 missing`, or `-`."""
    parts = [f"{n} {what}" for n, what in ((row.failed, "failed"), (row.unfinished, "unfinished"),
                                           (row.missing, "missing")) if n]
    return ", ".join(parts) or "-"


def cells_of(row: GroupRow) -> list[str]:
    fallback = f"{row.fallback}" + (f" ({row.fallback_pass} PASS)" if row.fallback_pass else "")
    return [f"{row.judged}/{row.cells}", row.pass_rate.text(), row.partial_rate.text(), row.fail_rate.text(),
            fallback, apart(row), median(row.rounds_to_pass), median(row.wall_s),
            f"{row.tokens.total:.0f}", f"{row.cost_usd.total:.4f}"]


def table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()  # noqa: E731
    return [line(head), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def render(report: Report) -> str:
    c = report.counts
    lines = [safe(f"batch {report.batch}" + (f" ({report.name})" if report.name else "")
                  + f": {len(report.pitches)} pitches × {len(report.setups)} set-ups × {len(report.seeds)} seeds"
                  + f" = {len(report.cells)} cells"),
             "  " + ", ".join(f"{c.get(k, 0)} {k}" for k in ("PASS", "PARTIAL", "FAIL", "fallback", "failed",
                                                             "unfinished", "missing")),
             "  rates are over the judged cells (PASS + PARTIAL + FAIL) with 95 % Wilson intervals; fallback cells"
             " and cells that did not run are counted apart, never as PASS; rounds→PASS and wall s are medians",
             ""]
    lines += table(["set-up", *COLUMNS], [[safe(r.setup), *cells_of(r)] for r in report.by_setup])
    for title, rows in (("genre", report.by_genre), ("language", report.by_language)):
        lines += ["", f"by {title}:"]
        lines += table(["set-up", title, *COLUMNS], [[safe(r.setup), safe(r.key), *cells_of(r)] for r in rows])
    lines += ["", "QA findings most often hit (cells):"]
    for r in report.by_setup:
        hits = ", ".join(f"{f.key} ×{f.cells}" for f in r.findings) or "none"
        lines.append(safe(f"  {r.setup}: {hits}"))
    lines += ["", "time per role (mean s per settled cell):"]
    for r in report.by_setup:
        lines.append(safe(f"  {r.setup}: " + (", ".join(f"{k} {v:.2f}" for k, v in r.role_s.items()) or "-")))
    lines += ["", "cells:"]
    lines += table(["cell", "state", "verdict", "rounds", "genre", "lang", "session"],
                   [[x.cell, x.bucket, x.verdict or "-", "-" if x.rounds is None else str(x.rounds), safe(x.genre),
                     safe(x.language), x.session or "-"] for x in report.cells])
    return "\n".join(lines)
