"""The one-file session report (`crumb export --report`): pitch, verdict and scorecard per round, who played
each role, cost, spec, QA with its screenshots, the game itself and the timeline, in one HTML file.

Pure: facts and bytes in, a page out. Self-contained so it can be attached to a bug, a PR or a chat:
no script of its own, no CDN, images as data: URIs, the game in a sandboxed `srcdoc` frame, and a
Content-Security-Policy that lets nothing load from the network even if the game tries.
Everything that came from a pitch, a model or a game is escaped: shown, never run (apart from the game,
in its sandbox).
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping
from typing import Any

from crumb.export.facts import Round, SessionFacts, played_text

#: the sections every report has, in order (a test checks each is in the page Chromium shows)
SECTIONS = ("summary", "rounds", "cast", "cost", "spec", "qa", "game", "timeline")

CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline' data:; "
       "font-src data:; media-src data:; connect-src data:; frame-src 'self' about: data:; base-uri 'none'; "
       "form-action 'none'")

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f7fb;color:#1d2030}
header{background:#1b1f3a;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:24px}
main{max-width:1100px;margin:0 auto;padding:8px 28px 40px}section{background:#fff;border-radius:8px;
padding:12px 20px;margin:16px 0;box-shadow:0 1px 3px #0002}h2{font-size:18px;margin:6px 0 10px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-bottom:1px solid #e3e5ee;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f0f1f7}.PASS{color:#0a7d38;font-weight:600}
.FAIL,.REJECT{color:#b3152f;font-weight:600}.PARTIAL{color:#a15c00;font-weight:600}code{font-size:13px;
background:#f0f1f7;padding:0 3px;border-radius:3px}.muted{color:#666}.shots{display:flex;gap:12px;flex-wrap:wrap}
.shots figure{margin:0}.shots img{max-width:320px;border:1px solid #ccd}iframe{width:100%;height:600px;border:0;
background:#000;border-radius:6px}.spec li{margin:2px 0}details{margin:6px 0}
"""


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def verdict_span(verdict: str | None) -> str:
    return f'<span class="{esc(verdict)}">{esc(verdict or "no verdict")}</span>'


def _inline_md(text: str) -> str:
    """`code` and **bold** in an escaped line."""
    out = esc(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


def markdown_html(text: str) -> str:
    """The little markdown spec.md is written in (headings, lists with continuation lines, paragraphs),
    as HTML; HTML comments (the editing note) are dropped and anything else is text, escaped."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    out: list[str] = []
    in_list = False
    para: list[str] = []

    def flush() -> None:
        nonlocal in_list
        if para:
            out.append("<p>" + " ".join(_inline_md(p) for p in para) + "</p>")
            para.clear()
        if in_list:
            out.append("</ul>")
            in_list = False
    for line in text.splitlines():
        heading = re.match(r"^(#{1,4})\s+(.*)$", line)
        if heading:
            flush()
            level = min(len(heading.group(1)) + 2, 6)  # the page's own h1/h2 stay above the spec's
            out.append(f"<h{level}>{_inline_md(heading.group(2))}</h{level}>")
        elif line.startswith("- "):
            if para:
                out.append("<p>" + " ".join(_inline_md(p) for p in para) + "</p>")
                para.clear()
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{_inline_md(line[2:])}")
        elif in_list and line.startswith("  ") and line.strip():
            out.append(f"<br><code>{esc(line.strip())}</code>")
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def _table(head: list[str], rows: list[list[str]]) -> str:
    """A table of cells already in HTML."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _round_html(r: Round) -> str:
    total = "" if r.total is None else f" — total {r.total:g}"
    severity = (r.audit or {}).get("severity")
    parts = [f"<h3>Round {r.number}: {verdict_span(r.verdict)}{esc(total)}{esc(' (' + severity + ')' if severity else '')}</h3>",
             f'<p class="muted">build <code>{esc(r.build_id)}</code> at {esc(r.build_ts)}, '
             f"{len(r.manifest.get('files') or [])} files</p>"]
    card = r.scorecard()
    if card:
        parts.append(_table(["dimension", "score", "from", "note", "corrected"], [
            [esc(s.dimension), esc("-" if s.score is None else f"{s.score:g}"), esc(s.source), esc(s.note), esc(s.corrected)]
            for s in card]))
    else:
        parts.append('<p class="muted">not judged yet</p>')
    corrections = r.corrections()
    if corrections:
        parts.append("<ul>" + "".join(f"<li><code>{esc(c.get('rule'))}</code> {esc(c.get('field'))}: "
                                      f"{esc(c.get('reason'))}</li>" for c in corrections) + "</ul>")
    feedback = (r.audit or {}).get("feedback") or (r.judge or {}).get("feedback")
    if feedback:
        parts.append(f"<p><strong>Feedback:</strong> {esc(feedback)}</p>")
    return "\n".join(parts)


def _cast_html(facts: SessionFacts) -> str:
    if not facts.played:
        return '<p class="muted">no role has produced a result yet</p>'
    rows = [[esc(role), esc(p.get("harness")), esc(p.get("provider")), esc(p.get("model")), esc(p.get("bound")),
             esc(p.get("origin")), "yes" if p.get("fallback") else "no"] for role, p in facts.played.items()]
    out = _table(["role", "harness", "provider", "model", "bound to", "binding from", "fallback"], rows)
    out += "<ul>" + "".join(f"<li>{esc(role)}: {esc(played_text(p))}</li>" for role, p in facts.played.items()) + "</ul>"
    if facts.fallbacks:
        out += "<h3>Fallbacks</h3>" + _table(["role", "failed", "after", "taken over by", "error"], [
            [esc(f.get("actor")), esc(f.get("before")), esc(f"{f.get('failures')}×"), esc(f.get("after") or "nobody (chain exhausted)"),
             esc(f.get("error"))] for f in facts.fallbacks])
    else:
        out += '<p class="muted">no fallback: every role was played by the harness it was bound to</p>'
    return out


def _cost_html(facts: SessionFacts) -> str:
    rows = [[esc(u.role), esc(", ".join(u.models)), str(u.runs), str(u.tokens_in), str(u.tokens_out),
             esc(f"${u.cost_usd:.4f}" + (" (estimated)" if u.estimated else "")), esc(f"{u.duration_ms / 1000:.1f} s")]
            for u in facts.usage]
    rows.append(["<strong>total</strong>", "", "", "", esc(f"{facts.tokens} tokens"), esc(f"${facts.cost_usd:.4f}"),
                 esc(_elapsed(facts))])
    return _table(["role", "harness:model", "results", "tokens in", "tokens out", "cost", "time"], rows)


def _elapsed(facts: SessionFacts) -> str:
    from datetime import datetime

    if not facts.started or not facts.last_ts:
        return ""
    seconds = (datetime.fromisoformat(facts.last_ts) - datetime.fromisoformat(facts.started)).total_seconds()
    return f"{seconds:.1f} s wall"


def _qa_html(facts: SessionFacts, screenshots: Mapping[str, bytes]) -> str:
    if not any(r.qa for r in facts.rounds):
        return '<p class="muted">QA has not run</p>'
    last_naming = {shot: r.number for r in facts.rounds for shot in ((r.qa or {}).get("screenshots") or [])}
    parts = []
    for r in facts.rounds:
        qa = r.qa
        if qa is None:
            continue
        facts_row = [[esc(k), esc(qa.get(k))] for k in ("ok", "loaded", "hook", "canvas_nonblank", "canvas_animates",
                                                         "input_responds", "fps", "duration_ms")]
        probes = [[esc(p.get("id")), "held" if p.get("ok") else "<strong>failed</strong>", esc(p.get("detail"))]
                  for p in qa.get("probes") or []]
        parts.append(f"<h3>Round {r.number}: QA {'passed' if qa.get('ok') else 'failed'}</h3>")
        parts.append(_table(["fact", "value"], facts_row))
        if probes:
            parts.append(_table(["probe", "result", "detail"], probes))
        for what in ("errors", "findings"):
            items = qa.get(what) or []
            if items:
                parts.append(f"<p><strong>{what}</strong></p><ul>" + "".join(
                    f"<li>{esc(json.dumps(i, ensure_ascii=False) if not isinstance(i, str) else i)}</li>" for i in items)
                    + "</ul>")
        shots = [s for s in qa.get("screenshots") or [] if last_naming.get(s) == r.number]
        figures = []
        for shot in shots:
            if shot in screenshots:
                data = base64.b64encode(screenshots[shot]).decode("ascii")
                figures.append(f'<figure><img alt="{esc(shot)}" src="data:image/png;base64,{data}">'
                               f"<figcaption>{esc(shot.rsplit('/', 1)[-1])}</figcaption></figure>")
            else:
                figures.append(f'<figure class="muted">{esc(shot)}: not on disk any more</figure>')
        older = [s for s in qa.get("screenshots") or [] if last_naming.get(s) != r.number]
        if figures:
            parts.append('<div class="shots">' + "".join(figures) + "</div>")
        if older:
            parts.append(f'<p class="muted">{len(older)} screenshot(s) of this round were replaced by a later QA run</p>')
    return "\n".join(parts)


def _timeline_html(facts: SessionFacts) -> str:
    rows = [[str(e.get("seq")), esc(str(e.get("ts", ""))[:23].replace("T", " ")), esc(e.get("from")),
             f"<code>{esc(e.get('kind'))}</code>", esc(e.get("body"))] for e in facts.events]
    return _table(["seq", "time (UTC)", "from", "kind", "what"], rows)


def render_report(facts: SessionFacts, *, spec_md: str | None, game_html: str | None,
                  screenshots: Mapping[str, bytes], version: str) -> str:
    """The whole report page."""
    title = facts.title or "Untitled game"
    spec = markdown_html(spec_md) if spec_md else '<p class="muted">no spec yet</p>'
    if game_html is not None:
        game = (f'<iframe title="{esc(title)}" sandbox="allow-scripts" referrerpolicy="no-referrer" '
                f'srcdoc="{esc(game_html)}"></iframe><p class="muted">the game as built in round '
                f"{facts.build.number if facts.build else '-'}, sandboxed; click it to play</p>")
    else:
        game = '<p class="muted">no game was built in this session</p>'
    sections = {
        "summary": ("Pitch and verdict",
                    f"<p><strong>Pitch:</strong> {esc(facts.pitch)}</p><p><strong>Verdict:</strong> "
                    f"{verdict_span(facts.verdict)} — {esc(facts.outcome)}</p><p class=\"muted\">genre {esc(facts.genre or '-')}, "
                    f"{len(facts.rounds)} round(s), session <code>{esc(facts.session)}</code></p>"),
        "rounds": ("Verdict per round", "\n".join(_round_html(r) for r in facts.rounds)
                   or '<p class="muted">no build yet</p>'),
        "cast": ("Who played each role", _cast_html(facts)),
        "cost": ("Cost and tokens", _cost_html(facts)),
        "spec": ("Spec", f'<div class="spec">{spec}</div>'),
        "qa": ("QA", _qa_html(facts, screenshots)),
        "game": ("The game", game),
        "timeline": ("Timeline", f"<details open><summary>{len(facts.events)} events</summary>{_timeline_html(facts)}</details>"),
    }
    assert tuple(sections) == SECTIONS
    body = "\n".join(f'<section id="{key}"><h2>{esc(head)}</h2>\n{content}\n</section>'
                     for key, (head, content) in sections.items())
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)} — CRUMB session report</title><style>{STYLE}</style></head>\n<body>\n"
            f"<header><h1>{esc(title)} {verdict_span(facts.verdict)}</h1><div>CRUMB session {esc(facts.session)}, "
            f"as of event {facts.last_seq} ({esc(facts.last_ts)}), written by crumb {esc(version)}</div></header>\n"
            f"<main>\n{body}\n</main>\n</body></html>\n")
