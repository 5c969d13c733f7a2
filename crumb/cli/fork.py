"""`crumb fork SESSION`: a new session that starts as SESSION stood at a point, then goes on with other
bindings. The CLI checks the point and the bindings and drops a pitch file with `fork: SESSION@AT` into
inbox/ (invariant 4: the inbox is the only way in); the daemon makes the fork (crumb/daemon/fork.py says
how and why), so `--wait` needs a running `crumb watch`, and `--run` runs the daemon in this process.
"""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path

import click
from ulid import ULID

from crumb.actors.harness import local_only
from crumb.cli.common import drop, echo_json, rel, root_of, session_arg
from crumb.cli.complete import complete_session
from crumb.cli.pitch import check_preset, check_runnable, parse_role_flags, pitch_options, wait_for
from crumb.cli.verdict import describe, exit_code, outcome, settled
from crumb.daemon import pitch_file
from crumb.daemon.fork import ForkProblem, cut, game_problem, parse_fork
from crumb.daemon.lock import daemon_status
from crumb.reducer.state import SessionState
from crumb.store import paths


@click.command()
@click.argument("session", shell_complete=complete_session)
@click.option("--at", "at", default="spec", show_default=True, metavar="SEQ|spec|build",
              help="Where to cut: a line's seq, the last spec, or the last build (its game is copied).")
@pitch_options
@click.option("--wait", "wait_", is_flag=True, help="Wait until the fork is done (needs a running daemon).")
@click.option("--run", "run_", is_flag=True, help="Run the daemon in this process until the fork is done (as `crumb run`).")
@click.option("--timeout", type=float, default=600, show_default=True, help="With --wait or --run: give up after this many seconds.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: session, from, at (with --wait/--run: `crumb wait --json`'s).")
@click.pass_context
def fork(ctx: click.Context, session: str, at: str, preset: str | None, seed: int | None, fault: str | None,
         roles: tuple[str, ...], allow_fallback: bool, wait_: bool, run_: bool, timeout: float, as_json: bool) -> None:
    """Fork a session at a point (--at SEQ, spec or build) and go on with other bindings (--role, --preset)."""
    root = root_of(ctx)
    original = session_arg(ctx, session)
    try:
        _, point = parse_fork(f"{original}@{at}")
        c = cut(root, original, point)
        problem = game_problem(root, c)
    except ForkProblem as err:
        raise click.ClickException(str(err)) from None
    if problem:
        raise click.ClickException(problem)
    bindings = parse_role_flags(roles)
    check_preset(root, preset)
    check_runnable(root, preset, bindings, allow_fallback)
    new = str(ULID())
    body = pitch_file.pitch_text(f"fork of {original} at #{c.seq} ({point})", session=new, preset=preset, seed=seed,
                                 fault=fault, bindings=bindings, fallback="allow" if allow_fallback else None,
                                 fork=f"{original}@{c.seq}")
    local_only.grant(root, new, bindings)
    path = drop(paths.inbox_dir(root), body, stem="fork")
    if not as_json:
        click.echo(new)
    if not (wait_ or run_):
        if as_json:
            echo_json({"session": new, "from": original, "at": c.seq, "file": rel(root, path)})
        return
    if run_ and not daemon_status(root)["running"]:
        state = _run_daemon(root, new, timeout)
    else:
        state = wait_for(root, new, timeout=timeout)
    if settled(state):
        click.echo(describe(root, state), err=True)
    else:
        click.echo(f"{new}: not done after {timeout:g}s (phase {state.phase})", err=True)
    if as_json:
        echo_json(outcome(root, state))
    ctx.exit(exit_code(state))


def _run_daemon(root: Path, session: str, timeout: float) -> SessionState:
    from crumb.cli.pitch import check_refused, progress_printer, settled_or_refused
    from crumb.cli.sessions import follow
    from crumb.daemon.daemon import Daemon

    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    until = settled_or_refused(root, session)
    daemon = Daemon(root, echo=False, stop_when=lambda live: session in live and settled(live[session].state))
    worker = threading.Thread(target=daemon.run, name="crumb-daemon", daemon=True)
    worker.start()
    state = follow(root, session, timeout=timeout, on_event=progress_printer(sys.stderr), until=until)
    daemon.stop()
    worker.join(timeout=60)
    check_refused(root, session, state)
    return state


COMMANDS = [fork]
