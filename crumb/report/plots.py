"""The report's plots, drawn with matplotlib as SVG text (no JavaScript, no network: the page opens offline).

Each plot marks every set-up with an element whose id names it (`pass-<slug>`, `cost-<slug>`,
`rounds-<slug>`, `role-<slug>-<role>`), so a reader or a test finds a set-up's marks in the SVG; text stays
text (svg.fonttype none). matplotlib is imported here only, when a report is drawn.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from crumb.batch.plan import slug
from crumb.report.digest import ROLE_ORDER
from crumb.report.summary import Report

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOTS = ("pass_rate", "cost_quality", "rounds", "role_time")
TITLES = {"pass_rate": "PASS rate by set-up (95 % Wilson interval)", "cost_quality": "Cost vs quality",
          "rounds": "Rounds per settled cell", "role_time": "Time per role (mean s per settled cell)"}


def _figure(name: str, width: float = 6.4, height: float = 3.6) -> Figure:
    import matplotlib

    matplotlib.use("Agg")  # no display: the file is the output
    from matplotlib.figure import Figure

    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = f"crumb-{name}"  # distinct ids per plot: several share one page
    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})  # no date: the same report gives the same file
    text = out.getvalue()
    return text[text.index("<svg"):]


def _labels(report: Report) -> list[str]:
    return [s if len(s) <= 24 else s[:23] + "…" for s in report.setups]


def pass_rate(report: Report) -> str:
    fig = _figure("pass_rate")
    ax = fig.add_subplot()
    xs = list(range(len(report.by_setup)))
    rates = [(r.pass_rate.rate or 0.0) for r in report.by_setup]
    lows = [(r.pass_rate.rate or 0.0) - (r.pass_rate.low or 0.0) for r in report.by_setup]
    highs = [(r.pass_rate.high or 0.0) - (r.pass_rate.rate or 0.0) for r in report.by_setup]
    bars = ax.bar(xs, rates, color="#3b82f6", width=0.6)
    for x, row, bar in zip(xs, report.by_setup, bars, strict=True):
        bar.set_gid(f"pass-{slug(row.setup)}")
        if row.judged == 0:
            ax.annotate("no judged cell", (x, 0.02), ha="center", fontsize=8, color="#6b7280")
            continue
        err = ax.errorbar([x], [rates[x]], yerr=[[lows[x]], [highs[x]]], fmt="none", ecolor="#111827", capsize=6)
        for line in err.lines[2]:  # the vertical bar of the interval
            line.set_gid(f"ci-{slug(row.setup)}")
        ax.annotate(f"{row.pass_rate.k}/{row.judged}", (x, rates[x]), xytext=(8, 4), textcoords="offset points",
                    fontsize=8)
    ax.set_xticks(xs, _labels(report), rotation=15, ha="right", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("PASS rate")
    ax.set_title(TITLES["pass_rate"], fontsize=10)
    return _svg(fig)


def cost_quality(report: Report) -> str:
    fig = _figure("cost_quality")
    ax = fig.add_subplot()
    costs = [c.cost_usd for c in report.cells if c.cost_usd is not None]
    free = not costs or max(costs) == 0
    for i, setup in enumerate(report.setups):
        mine = [c for c in report.cells if c.setup == setup and c.state == "settled"]
        xs = [c.cost_usd or 0.0 for c in mine]
        ys = [c.total if c.total is not None else 0.0 for c in mine]
        colours = [f"C{i % 10}" if not c.fallback else "none" for c in mine]
        points = ax.scatter(xs, ys, c=colours, edgecolors=f"C{i % 10}", s=48, label=setup, zorder=3)
        points.set_gid(f"cost-{slug(setup)}")
    ax.set_xlabel("cost per cell (USD)" + (" — none recorded: the embedded studio is free" if free else ""))
    ax.set_ylabel("total (0–5, after the validator)")
    ax.set_ylim(-0.2, 5.2)
    ax.legend(fontsize=7, loc="lower right", title="hollow: fallback", title_fontsize=7)
    ax.set_title(TITLES["cost_quality"], fontsize=10)
    return _svg(fig)


def rounds(report: Report) -> str:
    fig = _figure("rounds")
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    settled = [c for c in report.cells if c.state == "settled" and c.rounds is not None]
    values = sorted({c.rounds for c in settled if c.rounds is not None}) or [1]
    n = max(len(report.setups), 1)
    width = 0.8 / n
    for i, setup in enumerate(report.setups):
        counts = [sum(1 for c in settled if c.setup == setup and c.rounds == v) for v in values]
        bars = ax.bar([v + (i - (n - 1) / 2) * width for v in values], counts, width=width, label=setup,
                      color=f"C{i % 10}")
        for bar, v in zip(bars, values, strict=True):
            bar.set_gid(f"rounds-{slug(setup)}-{v}")
    ax.set_xticks(values, [str(v) for v in values])
    ax.set_xlabel("rounds")
    ax.set_ylabel("cells")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7)
    ax.set_title(TITLES["rounds"], fontsize=10)
    return _svg(fig)


def role_time(report: Report) -> str:
    fig = _figure("role_time")
    ax = fig.add_subplot()
    ys = list(range(len(report.by_setup)))
    left = [0.0] * len(ys)
    for j, role in enumerate(ROLE_ORDER):
        widths = [r.role_s.get(role, 0.0) for r in report.by_setup]
        if not any(widths):
            continue
        bars = ax.barh(ys, widths, left=left, label=role, color=f"C{j}")
        for bar, row in zip(bars, report.by_setup, strict=True):
            bar.set_gid(f"role-{slug(row.setup)}-{role}")
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(ys, _labels(report), fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds")
    ax.legend(fontsize=7)
    ax.set_title(TITLES["role_time"], fontsize=10)
    return _svg(fig)


def draw(report: Report) -> dict[str, str]:
    """Every plot: name → SVG text."""
    return {"pass_rate": pass_rate(report), "cost_quality": cost_quality(report), "rounds": rounds(report),
            "role_time": role_time(report)}
