"""A Report as JSON (everything, typed as the dataclasses say) and as CSV (one row per group row)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from typing import Any

from crumb.report.summary import GroupRow, Report
from crumb.report.wilson import Rate

CSV_COLUMNS = ["by", "setup", "key", "cells", "judged",
               "pass", "pass_rate", "pass_low", "pass_high",
               "partial", "partial_rate", "partial_low", "partial_high",
               "fail", "fail_rate", "fail_low", "fail_high",
               "fallback", "fallback_pass", "failed", "unfinished", "missing",
               "rounds_to_pass_median", "wall_s_median", "wall_s_total", "tokens_total", "cost_usd_total",
               "top_findings"]


def as_data(report: Report) -> dict[str, Any]:
    data: dict[str, Any] = dataclasses.asdict(report)
    return data


def to_json(report: Report) -> str:
    return json.dumps(as_data(report), ensure_ascii=False, indent=2)


def _rate(name: str, r: Rate) -> dict[str, Any]:
    return {name: r.k, f"{name}_rate": r.rate, f"{name}_low": r.low, f"{name}_high": r.high}


def csv_row(row: GroupRow) -> dict[str, Any]:
    return {"by": row.by, "setup": row.setup, "key": row.key, "cells": row.cells, "judged": row.judged,
            **_rate("pass", row.pass_rate), **_rate("partial", row.partial_rate), **_rate("fail", row.fail_rate),
            "fallback": row.fallback, "fallback_pass": row.fallback_pass, "failed": row.failed,
            "unfinished": row.unfinished, "missing": row.missing,
            "rounds_to_pass_median": row.rounds_to_pass.median, "wall_s_median": row.wall_s.median,
            "wall_s_total": row.wall_s.total, "tokens_total": row.tokens.total, "cost_usd_total": row.cost_usd.total,
            "top_findings": "; ".join(f"{f.key}={f.cells}" for f in row.findings)}


def to_csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in [*report.by_setup, *report.by_genre, *report.by_language]:
        writer.writerow({k: "" if v is None else v for k, v in csv_row(row).items()})
    return out.getvalue()
