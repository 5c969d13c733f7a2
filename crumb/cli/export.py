"""`crumb export` (the game as a zip, one HTML file, an itch.io zip, or the one-file session report) and
`crumb open` (the game, or its Studio page, in the user's browser).

What is built is pure (crumb/export/archive.py, inline.py, report.py); this module reads the
session, writes the one output file (never over another unless --force) and talks to the browser.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
import webbrowser
from pathlib import Path

import click

from crumb import __version__
from crumb.cli.common import echo_json, one_line, root_of, session_arg
from crumb.cli.complete import complete_session
from crumb.export import gamefiles
from crumb.export.archive import canvas_size, game_zip, itch_files, stamp, zip_bytes
from crumb.export.facts import SessionFacts, slug
from crumb.export.gamefiles import GameFilesError
from crumb.export.inline import InlineError, inline_game
from crumb.export.report import render_report
from crumb.store import paths

SUFFIX = {"zip": ".zip", "html": ".html", "itch": "-itch.zip", "report": "-report.html", "otel": "-otel.json"}


def default_output(facts: SessionFacts, form: str) -> Path:
    """In the current folder, named after the game: snake-F71R69.zip, snake-F71R69-report.html, ..."""
    return Path.cwd() / f"{slug(facts.title, facts.session)}{SUFFIX[form]}"


def one_file(files: dict[str, bytes], entry: str) -> str:
    try:
        page = inline_game(files, entry)
    except InlineError as err:
        raise click.ClickException(str(err)) from None
    if page.missing:
        click.echo(f"warning: the game names files it does not have, left as they were: {', '.join(page.missing)}",
                   err=True)
    return page.html


@click.command("export")
@click.argument("session", shell_complete=complete_session)
@click.option("--zip", "form", flag_value="zip", default=True,
              help="The game folder in a zip, with spec.md, verdict.json and README.md beside it (the default).")
@click.option("--html", "form", flag_value="html", help="One self-contained HTML file: scripts, styles and assets inlined.")
@click.option("--itch", "form", flag_value="itch", help="A zip for itch.io's HTML5 upload: index.html at its root.")
@click.option("--report", "form", flag_value="report",
              help="One self-contained HTML report: pitch, verdict per round, scorecard, cast, cost, spec, QA "
                   "screenshots, the game, the timeline.")
@click.option("--otel", "form", flag_value="otel",
              help="The session's spans as OTLP/JSON (OpenTelemetry, GenAI conventions), from the transcript alone.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write it (default: the current folder, named after the game and session).")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@click.option("--json", "as_json", is_flag=True, help="Print {session, form, path, bytes, files} as JSON (--otel: spans too).")
@click.pass_context
def export(ctx: click.Context, session: str, form: str, output: Path | None, force: bool, as_json: bool) -> None:
    """Export a session's game: a zip (default), one HTML file, an itch.io zip, a one-file report, or its
    OpenTelemetry spans (--otel)."""
    root = root_of(ctx)
    with one_line(GameFilesError):
        sid = session_arg(ctx, session)
        events = gamefiles.events_of(root, sid)
        facts = gamefiles.load(root, sid, events)
        out = (output or default_output(facts, form)).resolve()
        gamefiles.refuse_existing(out, force)  # before any work: the answer does not depend on it
        files: dict[str, bytes] = {}
        if form == "otel":  # the transcript alone: no game, no disk but the one file written
            from crumb.export.otel import otlp_json, spans_of

            spans = spans_of(sid, events)
            data = (json.dumps(otlp_json(spans, version=__version__), indent=1) + "\n").encode()
        elif form == "report":  # a report is worth having for a session that never built a game, too
            try:
                files, entry = gamefiles.game_files(root, facts)
                game: str | None = one_file(files, entry)
            except (GameFilesError, click.ClickException):  # no game, or one that cannot be made one file
                files, game = {}, None
            data = render_report(facts, spec_md=gamefiles.spec_text(root, facts), game_html=game,
                                 screenshots=gamefiles.screenshots(root, facts), version=__version__).encode()
        else:
            files, entry = gamefiles.game_files(root, facts)
            if form == "html":
                data = one_file(files, entry).encode()
            elif form == "itch":
                try:
                    data = zip_bytes(itch_files(files, entry), stamp(facts.build.build_ts if facts.build else None))
                except ValueError as err:
                    raise click.ClickException(str(err)) from None
            else:
                data = game_zip(facts, files, entry, gamefiles.spec_text(root, facts), slug(facts.title, facts.session))
        gamefiles.write_new(out, data, force=force)
    if as_json:
        extra = {"spans": len(spans)} if form == "otel" else {}
        echo_json({"session": facts.session, "form": form, "path": str(out), "bytes": len(data), "files": len(files),
                   **extra})
        return
    click.echo(str(out))
    if form == "itch":
        size = canvas_size(files.get(entry, b"").decode("utf-8", errors="replace"))
        click.echo("upload it on itch.io as Kind of project: HTML, and tick 'This file will be played in the browser'"
                   + (f"; viewport {size[0]}×{size[1]}" if size else ""), err=True)
    elif form == "html":
        click.echo(f"check it: crumb qa {out}  (QA reads the whole folder the file is in)", err=True)


# ---------------------------------------------------------------- open


def has_display() -> bool:
    """Whether a graphical browser can show anything here: a macOS or Windows desktop, an X or Wayland
    display, or a browser the user named in $BROWSER. Over ssh without one, webbrowser would start a
    text browser in the terminal (or nothing), so the path is printed instead."""
    if os.environ.get("BROWSER"):
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def show(target: str, printed: bool) -> None:
    """Open `target` in the browser, or print it (asked to, no display, or no browser found)."""
    if printed or not has_display():
        click.echo(target)
        return
    try:
        opened = webbrowser.open(target)
    except webbrowser.Error:
        opened = False
    if not opened:
        click.echo(f"no browser could be started here; open it yourself: {target}", err=True)
        click.echo(target)
    else:
        click.echo(f"opened {target}", err=True)


def studio_answers(port: int, session: str) -> bool:
    """A Studio on this machine's loopback `port` that has this session (so it serves this root: one of
    another root answers `pending` for any id, waiting for a daemon to create it)."""
    url = f"http://127.0.0.1:{port}/api/sessions/{session}"
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            body = json.loads(reply.read())
            return bool(reply.status == 200 and body.get("session") == session and body.get("pending") is False)
    except (OSError, ValueError, urllib.error.URLError):
        return False


@click.command("open")
@click.argument("session", shell_complete=complete_session)
@click.option("--studio", is_flag=True, help="Open the session's page in the Studio (started here when none answers).")
@click.option("--port", default=7321, show_default=True, type=click.IntRange(0, 65535),
              help="With --studio: the Studio's port (0: start one on any free port).")
@click.option("--print", "printed", is_flag=True, help="Print the path or URL instead of opening a browser (e.g. over ssh).")
@click.pass_context
def open_(ctx: click.Context, session: str, studio: bool, port: int, printed: bool) -> None:
    """Open a session's game in the browser (or its Studio page with --studio); prints it when there is no display."""
    root = root_of(ctx)
    sid = session_arg(ctx, session)
    if not studio:
        game = paths.game_dir(root, sid) / "index.html"
        if not game.is_file():
            with one_line(GameFilesError):  # the one-line reason and what to do
                gamefiles.game_files(root, gamefiles.load(root, sid))
        show(game.resolve().as_uri(), printed)
        return
    if port and studio_answers(port, sid):
        show(f"http://127.0.0.1:{port}/s/{sid}", printed)
        return
    from crumb.studio.server import Studio

    try:
        app = Studio(root, port=port)
    except (OSError, ValueError) as err:
        raise click.ClickException(f"{err} (no Studio answered on port {port} for this root)") from None
    url = f"{app.url}s/{sid}"
    click.echo(f"CRUMB Studio for {app.root} on {app.url} (no Studio was answering on port {port}); Ctrl-C to stop.",
               err=True)
    show(url, printed)
    sys.stdout.flush()
    import asyncio

    asyncio.run(app.serve())


COMMANDS = [export, open_]
