"""Side by side in the Studio, as `crumb compare` prints it: two sessions (`/compare?a=ID&b=ID`: the rows as
a table, with each side's QA screenshots and a link to its page), or two set-ups of a batch
(`/b/<id>/compare?a=SETUP&b=SETUP`: the terminal's text). Built on the server, served without script
(the report's CSP); every value is escaped."""

from __future__ import annotations

import html
from pathlib import Path

from crumb.report.compare import compare_sessions, compare_setups, render_setups, rows, setup_named
from crumb.report.digest import SessionDigest, digest
from crumb.store import paths

STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:24px;background:#0f1117;color:#e6e8ee}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #2a2f3a;padding:6px 8px;vertical-align:top;
text-align:left;white-space:pre-wrap}th{color:#9aa3b2;font-weight:500;width:12em}a{color:#7aa2ff}
.shots{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:16px}.shots img{max-width:100%;display:block;
margin-bottom:8px;border:1px solid #2a2f3a}"""


def _side_links(d: SessionDigest) -> str:
    shots = "".join(f'<img alt="QA screenshot {html.escape(s)}" src="/api/sessions/{d.session}/file/{html.escape(s)}">'
                    for s in d.screenshots) or "<p>no QA screenshot</p>"
    return f'<div><p><a href="/s/{d.session}">open {d.session}</a></p>{shots}</div>'


def compare_html(root: Path, a: str, b: str) -> str:
    """The page; FileNotFoundError when either session has no transcript."""
    da, db = (digest(paths.session_dir(root, s)) for s in (a, b))
    body = "".join(f"<tr><th>{html.escape(label)}</th><td>{html.escape(left)}</td><td>{html.escape(right)}</td></tr>"
                   for label, left, right in rows(compare_sessions(da, db)))
    return (f"<!doctype html><meta charset=utf-8><title>compare {a[-6:]} / {b[-6:]}</title><style>{STYLE}</style>"
            f'<p><a href="/">all sessions</a></p><h1>Side by side</h1>'
            f"<table><thead><tr><th></th><th>A</th><th>B</th></tr></thead><tbody>{body}</tbody></table>"
            f'<div class="shots">{_side_links(da)}{_side_links(db)}</div>')


def setups_html(folder: Path, a: str, b: str) -> str:
    """Two set-ups of the batch in `folder` (names, or numbers in batch.toml's order); LookupError naming
    the set-ups there are."""
    from crumb.report.cells import read_batch
    from crumb.report.summary import summarise

    report = summarise(read_batch(folder))
    names = [setup_named(report.setups, ref) for ref in (a, b)]
    text = render_setups(compare_setups(report, *names), width=150)
    return (f"<!doctype html><meta charset=utf-8><title>compare set-ups · {html.escape(folder.name[-6:])}</title>"
            f'<style>{STYLE}</style><p><a href="/b/{html.escape(folder.name)}">the batch</a></p>'
            f"<h1>{html.escape(names[0])} vs {html.escape(names[1])}</h1><pre>{html.escape(text)}</pre>")
