"""`crumb watch` (the daemon) and `crumb run` (one pitch, start to finish, in this process)."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from typing import Any

import click

from crumb.cli.sessions import describe_done, drop_pitch, pitch_options, root_of
from crumb.daemon.lock import DaemonRunning, daemon_status


def _install_signals(daemon: Any) -> None:
    def stop(signum: int, frame: Any) -> None:
        daemon.stop()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


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
              help="One JSON object instead of the game's path: session, phase, done, detail, verdict, round, game, exit.")
@click.pass_context
def run(ctx: click.Context, text: str, preset: str | None, seed: int | None, fault: str | None,
        roles: tuple[str, ...], allow_fallback: bool, timeout: float, poll: bool, verbose: bool, as_json: bool) -> None:
    """One shot: pitch, run the daemon in this process until that session is done, print the game's path."""
    from crumb.cli.sessions import echo_json, follow, game_path, outcome, progress_printer, wait_exit
    from crumb.daemon.daemon import Daemon

    root = root_of(ctx)
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    session, _ = drop_pitch(root, text, preset=preset, seed=seed, fault=fault, roles=roles,
                            allow_fallback=allow_fallback)
    click.echo(f"session {session}", err=True)
    if daemon_status(root)["running"]:
        state = follow(root, session, timeout=timeout, on_event=progress_printer(sys.stderr))
    else:
        daemon = Daemon(root, poll=poll, echo=verbose,
                        stop_when=lambda live: session in live and live[session].state.done is not None)
        _install_signals(daemon)
        worker = threading.Thread(target=daemon.run, name="crumb-daemon", daemon=True)
        worker.start()
        state = follow(root, session, timeout=timeout, on_event=None if verbose else progress_printer(sys.stderr))
        daemon.stop()
        worker.join(timeout=60)
    if state.done is None:
        click.echo(f"{session}: not done after {timeout:g}s (phase {state.phase})", err=True)
    else:
        click.echo(describe_done(root, state), err=True)
    if as_json:
        echo_json(outcome(root, state))
    elif state.done is not None:
        click.echo(str(game_path(root, session)))
    ctx.exit(wait_exit(state))


COMMANDS = [watch, run]
