"""`crumb watch` (the daemon) and `crumb run` (one pitch, start to finish, in this process)."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import click

from crumb.cli.common import root_of
from crumb.cli.pitch import drop_pitch, pitch_options
from crumb.cli.verdict import describe, exit_code, game_path, outcome, settled
from crumb.daemon.lock import DaemonRunning, daemon_status


def _install_signals(daemon: Any) -> None:
    def stop(signum: int, frame: Any) -> None:
        daemon.stop()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


def _browser() -> tuple[Path | None, str | None]:
    """QA's Chromium, or why QA could not run here (no Chromium: the one-line fix)."""
    from crumb.qa.browser import BrowserNotFound, find_chromium

    try:
        return find_chromium(), None
    except BrowserNotFound as err:
        return None, str(err)


@click.command()
@click.option("--poll", is_flag=True, help="Poll the folders instead of inotify (network drives, containers).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print each event.")
@click.pass_context
def watch(ctx: click.Context, poll: bool, quiet: bool) -> None:
    """Run the daemon: watch inbox/ and every session, reduce events, dispatch effects."""
    from crumb.config import ConfigError
    from crumb.daemon.daemon import Daemon

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        daemon = Daemon(root_of(ctx), poll=poll, echo=not quiet)
    except ConfigError as err:
        raise click.ClickException(str(err)) from None
    _install_signals(daemon)
    _, missing = _browser()
    if missing:
        click.echo(f"crumb watch: warning: {missing}; until then every session stops at its first QA check", err=True)
    try:
        daemon.run()
    except DaemonRunning as err:
        raise click.ClickException(str(err)) from None
    if daemon.dispatcher.running():
        os._exit(0)  # effects still in flight are pending in their transcripts: the next start resumes them


@click.command()
@click.argument("text")
@pitch_options
@click.option("--timeout", type=float, default=600, show_default=True, help="Give up (exit 2) after this many seconds.")
@click.option("--poll", is_flag=True, help="Poll instead of inotify.")
@click.option("-v", "--verbose", is_flag=True, help="Print every event.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object instead of the game's path: the object `crumb wait --json` prints.")
@click.pass_context
def run(ctx: click.Context, text: str, preset: str | None, seed: int | None, fault: str | None,
        roles: tuple[str, ...], allow_fallback: bool, timeout: float, poll: bool, verbose: bool, as_json: bool) -> None:
    """One shot: pitch, run the daemon in this process until that session is done or waits for a person,
    print the game's path. Exit codes as `crumb wait`: 0 PASS played as bound, 1 done otherwise, 2 timeout,
    3 waits for a person (the session stays resumable: `crumb watch`, then approve or veto), 4 PASS with a fallback."""
    from crumb.cli.common import echo_json
    from crumb.cli.pitch import check_refused, progress_printer, settled_or_refused
    from crumb.cli.sessions import follow

    root = root_of(ctx)
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    running = daemon_status(root)["running"]
    chromium, missing = (None, None) if running else _browser()
    if missing:  # refused before a pitch is dropped: no fix rounds spent on a game nobody can check
        click.echo(f"crumb run: {missing}", err=True)
        ctx.exit(2)
    qa = None
    if not running:  # QA's browser starts now, while the pitch is checked, planned and built, not when QA is due;
        from crumb.qa.boot import QAThread  # and Playwright's driver even before the rest of QA is imported

        thread = QAThread(driver=True)
        from crumb.qa import QARunner

        qa = QARunner(chromium=chromium, thread=thread)
    try:
        if qa is not None:  # a broken genre folder is named now (not at the first pitch), while the browser starts;
            from crumb.genres import registry  # a running daemon named its own when it started, and plans with those

            registry()
        session, _ = drop_pitch(root, text, preset=preset, seed=seed, fault=fault, roles=roles,
                                allow_fallback=allow_fallback)
        if qa is not None:
            from crumb.daemon.daemon import Daemon

            daemon = Daemon(root, poll=poll, echo=verbose, qa_runner=qa,
                            stop_when=lambda live: session in live and settled(live[session].state))
    except BaseException:
        if qa is not None:
            qa.close()
        raise
    click.echo(f"session {session}", err=True)
    until = settled_or_refused(root, session)
    if qa is None:
        state = follow(root, session, timeout=timeout, on_event=progress_printer(sys.stderr), until=until)
    else:
        _install_signals(daemon)
        worker = threading.Thread(target=daemon.run, name="crumb-daemon", daemon=True)
        worker.start()
        state = follow(root, session, timeout=timeout, on_event=None if verbose else progress_printer(sys.stderr),
                       until=until)  # a refused pitch stops it too: that session never starts
        daemon.stop()
        worker.join(timeout=60)
    check_refused(root, session, state)
    if not settled(state):
        click.echo(f"{session}: not done after {timeout:g}s (phase {state.phase})", err=True)
    else:
        click.echo(describe(root, state), err=True)
    if as_json:
        echo_json(outcome(root, state))
    elif settled(state):
        click.echo(str(game_path(root, session)))
    ctx.exit(exit_code(state))


COMMANDS = [watch, run]
