"""A Report as one HTML page: the tables, the plots (inline SVG) and a gallery of every cell's final QA
screenshot linking to its game. No script, no network: every link is relative, so the batch folder can
be copied and opened offline. The Studio serves the same page with its own links (crumb/studio/batches.py).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from crumb.report.cells import BatchView
from crumb.report.plots import PLOTS, TITLES
from crumb.report.summary import CellSummary, GroupRow, Report
from crumb.report.text import COLUMNS, apart, median

LinkKind = Literal["shot", "game"]
#: (cell, what) → the address of its final screenshot or its game, or None when there is none
Links = Callable[[CellSummary, LinkKind], str | None]

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #111827; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { margin-top: 2em; border-bottom: 1px solid #e5e7eb; }
.dim { color: #6b7280; } table { border-collapse: collapse; margin: .5em 0; font-size: 13px; }
th, td { border: 1px solid #e5e7eb; padding: 3px 8px; text-align: left; vertical-align: top; } th { background: #f9fafb; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1em; }
.plot svg { width: 100%; height: auto; }
.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 1em; }
figure.cell { margin: 0; border: 1px solid #e5e7eb; border-radius: 6px; padding: 6px; }
figure.cell img { width: 100%; height: auto; display: block; background: #000; }
figure.cell .none { height: 120px; display: flex; align-items: center; justify-content: center; background: #f3f4f6; color: #6b7280; }
.b { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; font-weight: 600; }
.PASS { background: #dcfce7; color: #166534; } .PARTIAL { background: #fef9c3; color: #854d0e; }
.FAIL { background: #fee2e2; color: #991b1b; } .fallback { background: #ede9fe; color: #5b21b6; }
.failed, .unfinished, .missing { background: #f3f4f6; color: #374151; }
"""


def e(text: object) -> str:
    return html.escape(str(text), quote=True)


def offline_links(view: BatchView, out: Path) -> Links:
    """Addresses relative to the report's folder, through the batch's links to its sessions."""
    folders = {c.cell: c.digest.folder for c in view.cells if c.digest is not None}
    base = out.resolve().parent

    def link(cell: CellSummary, kind: LinkKind) -> str | None:
        rel = cell.screenshot if kind == "shot" else cell.game
        folder = folders.get(cell.cell)
        if rel is None or folder is None:
            return None
        return Path(os.path.relpath(folder.absolute() / rel, base)).as_posix()

    return link


def _table(head: list[str], rows: list[list[str]]) -> str:
    return ("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows) + "</table>")


def _row(r: GroupRow) -> list[str]:
    fallback = f"{r.fallback}" + (f" ({r.fallback_pass} PASS, not counted)" if r.fallback_pass else "")
    return [f"{r.judged}/{r.cells}", r.pass_rate.text(), r.partial_rate.text(), r.fail_rate.text(), fallback,
            apart(r), median(r.rounds_to_pass), median(r.wall_s), f"{r.tokens.total:.0f}",
            f"{r.cost_usd.total:.4f}"]


def _card(cell: CellSummary, links: Links) -> str:
    shot, game = links(cell, "shot"), links(cell, "game")
    if shot is not None:
        picture = f'<img src="{e(shot)}" alt="final QA screenshot of {e(cell.cell)}" loading="lazy">'
    else:
        picture = f'<div class="none">{e("no screenshot" if cell.state == "settled" else cell.bucket)}</div>'
    if game is not None:
        picture = f'<a class="game" href="{e(game)}">{picture}</a>'
    label = cell.verdict if cell.bucket == "fallback" and cell.verdict else ""
    lines = [f'<span class="b {e(cell.bucket)}">{e(cell.bucket)}</span> {e(label)}',
             f"<b>{e(cell.title or cell.pitch_text)}</b>",
             f'<span class="dim">{e(cell.cell)}' + (f" · round {cell.rounds}" if cell.rounds else "")
             + (f" · total {cell.total:g}" if cell.total is not None else "") + "</span>"]
    if cell.error:
        lines.append(f'<span class="dim">{e(cell.error)}</span>')
    return (f'<figure class="cell" data-cell="{e(cell.cell)}" data-bucket="{e(cell.bucket)}">{picture}'
            f"<figcaption>{'<br>'.join(lines)}</figcaption></figure>")


def render(report: Report, svgs: dict[str, str], links: Links) -> str:
    c = report.counts
    counts = ", ".join(f'<span class="b {k}">{c.get(k, 0)} {k}</span>'
                       for k in ("PASS", "PARTIAL", "FAIL", "fallback", "failed", "unfinished", "missing"))
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>CRUMB batch {e(report.batch)}</title><style>{CSS}</style></head><body>",
        f"<h1>Batch {e(report.batch)} <span class='dim'>{e(report.name)}</span></h1>",
        f"<p>{len(report.pitches)} pitches × {len(report.setups)} set-ups × {len(report.seeds)} seeds = "
        f"{len(report.cells)} cells: {counts}</p>",
        "<p class='dim'>Rates are over the judged cells (PASS + PARTIAL + FAIL) with 95 % Wilson score intervals. "
        "A cell where some role was played by a fallback adapter is counted apart, whatever its verdict, never as "
        "the set-up's PASS; so are cells that could not run (failed), did not finish or never started (missing). "
        "rounds→PASS and wall s are medians.</p>",
        "<h2>By set-up</h2>", _table(["set-up", *COLUMNS], [[r.setup, *_row(r)] for r in report.by_setup]),
        "<h2 id='plots'>Plots</h2><div class='plots'>",
        *(f"<figure class='plot' id='plot-{name}' data-plot='{name}' aria-label='{e(TITLES[name])}'>{svgs[name]}"
          "</figure>" for name in PLOTS if name in svgs),
        "</div>",
        "<h2>By genre</h2>", _table(["set-up", "genre", *COLUMNS], [[r.setup, r.key, *_row(r)] for r in report.by_genre]),
        "<h2>By language</h2>",
        _table(["set-up", "language", *COLUMNS], [[r.setup, r.key, *_row(r)] for r in report.by_language]),
        "<h2>QA findings most often hit</h2>",
        _table(["set-up", "finding (cells)"], [[r.setup, ", ".join(f"{f.key} ×{f.cells}" for f in r.findings) or "none"]
                                               for r in report.by_setup]),
        "<h2>Pitches</h2>", _table(["#", "pitch"], [[str(i), p] for i, p in enumerate(report.pitches, 1)]),
        "<h2 id='gallery'>Gallery</h2><p class='dim'>Each cell's final QA screenshot; click it to open the game.</p>",
        "<div class='gallery'>", *(_card(cell, links) for cell in report.cells), "</div>",
        "</body></html>",
    ]
    return "\n".join(parts)
