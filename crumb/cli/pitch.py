"""Pitching and waiting: `crumb pitch` and `crumb wait`, and the checks `crumb run` shares with them.

A pitch goes through an inbox file, like any other tool's; waiting reads the session's transcript.
Exit codes: 0 ok, 1 an error (one line on stderr) or a session that did not pass, 2 a usage error or
a timeout (`wait`); `wait` and `pitch --wait` add 3 (waits for a person) and 4 (passed, but a role
fell back): see crumb/cli/verdict.py.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from crumb.actors.harness import local_only
from crumb.cli.common import drop, echo_json, rel, root_of, session_arg
from crumb.cli.complete import complete_fault, complete_preset, complete_role_binding, complete_session
from crumb.cli.sessions import follow
from crumb.cli.verdict import describe, exit_code, outcome, settled
from crumb.daemon.lock import daemon_status
from crumb.protocol.names import FAULTS, ROLES
from crumb.reducer.state import SessionState
from crumb.store import paths
from crumb.terminal import safe


def parse_role_flags(values: tuple[str, ...]) -> dict[str, str]:
    """`--role builder=claude:sonnet` → {"builder": "claude:sonnet"}, checked the way the daemon will
    read it (bindings.check_flags, the front matter grammar), so a pitch never starts on a binding the
    daemon would refuse or ignore. `all=...` binds every role not named on its own."""
    from crumb.actors.harness.bindings import ALL

    out: dict[str, str] = {}
    for value in values:
        role, eq, binding = value.partition("=")
        role, binding = role.strip().lower(), binding.strip()
        role = "all" if role in ALL else role
        if not eq or role not in (*ROLES, "all") or not binding:
            raise click.BadParameter(f"{value!r}: write ROLE=HARNESS[:MODEL] with ROLE one of {', '.join(ROLES)} or all",
                                     param_hint="--role")
        out[role] = binding
    check_bindings(out)
    return out


def check_bindings(bindings: dict[str, str]) -> None:
    """pitch_file.check_bindings, said as a usage error of --role."""
    from crumb.daemon import pitch_file

    try:
        pitch_file.check_bindings(bindings)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--role") from None


def check_fault(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A fault the embedded studio knows; a typo would otherwise only show as a failing Builder."""
    if value is not None and value not in FAULTS:
        raise click.BadParameter(f"unknown fault {value!r}: use one of {', '.join(FAULTS)}")
    return value


def pitch_options(fn: Any) -> Any:
    for option in reversed([
        click.option("--preset", shell_complete=complete_preset, help="Preset from presets/*.toml (local, claude, codex, gemini, cross, ollama)."),
        click.option("--seed", type=int, help="Seed for the embedded studio (same pitch + seed → same game)."),
        click.option("--fault", callback=check_fault, shell_complete=complete_fault,
                     help="Break the first build on purpose: syntax, blank, throws, noinput, wrongtimer, wronggenre, wrongnumbers; "
                          "crash makes the offline Builder itself fail (tests the circuit breaker)."),
        click.option("--role", "roles", multiple=True, metavar="ROLE=HARNESS[:MODEL]", shell_complete=complete_role_binding,
                     help="Bind one role, or all (repeatable); e.g. builder=claude:sonnet, builder='command:./tool --fast'."),
        click.option("--allow-fallback", is_flag=True,
                     help="Start even when a bound harness cannot run here (CLI not on PATH, model server not "
                          "answering): the role falls back along its chain, in the end to local."),
    ]):
        fn = option(fn)
    return fn


def check_preset(root: Path, preset: str | None) -> None:
    """pitch_file.check_preset, said as a usage error of --preset."""
    from crumb.daemon import pitch_file

    try:
        pitch_file.check_preset(root, preset)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--preset") from None


class Unrunnable(click.ClickException):
    """A bound harness cannot run here: one `Error:` line and exit 2 (a usage error), nothing written."""

    exit_code = 2


def check_runnable(root: Path, preset: str | None, bindings: dict[str, str], allow_fallback: bool) -> None:
    """session_start.check_runnable for the CLI: exit 2 naming the role, the harness and the fix; a
    crumb.toml or preset that cannot be read is an error (exit 1), since what would run is unknown."""
    from crumb.actors.harness.preflight import CLI_HINT
    from crumb.daemon.session_start import HarnessUnavailable
    from crumb.daemon.session_start import check_runnable as check

    try:
        check(root, preset=preset, bindings=bindings, fallback="allow" if allow_fallback else None, hint=CLI_HINT)
    except HarnessUnavailable as err:
        raise Unrunnable(str(err)) from None
    except ValueError as err:
        raise click.ClickException(str(err)) from None


def drop_pitch(root: Path, text: str, *, preset: str | None, seed: int | None, fault: str | None,
               roles: tuple[str, ...], allow_fallback: bool = False, session: str | None = None) -> tuple[str, Path]:
    """Check every choice, then drop the pitch file: (the new session id, the file written). `session`:
    the id to start, chosen by the caller (a batch records it before pitching, so a retried cell resumes the same session);
    default a new ULID."""
    from ulid import ULID

    from crumb.daemon import pitch_file

    if not text.strip():
        raise click.BadParameter("the pitch is empty: describe the game in one line, e.g. '60-second snake'")
    bindings = parse_role_flags(roles)
    check_preset(root, preset)
    check_runnable(root, preset, bindings, allow_fallback)
    if session is None:
        session = str(ULID())
    elif not paths.SESSION_ID.match(session):
        raise click.BadParameter(f"session {session[:40]!r} is not a ULID (26 characters, as `crumb pitch` makes)")
    body = pitch_file.pitch_text(text, session=session, preset=preset, seed=seed, fault=fault, bindings=bindings,
                                 fallback="allow" if allow_fallback else None)
    local_only.grant(root, session, bindings)  # a person at the machine chose these commands
    return session, drop(paths.inbox_dir(root), body, stem="pitch")


def settled_or_refused(root: Path, session: str) -> Callable[[SessionState], bool]:
    """follow()'s stop: the session settled, or the daemon refused the pitch that would have started it
    (it then never gets a transcript, and waiting could only time out)."""
    from crumb.daemon import rejected

    return lambda state: settled(state) or (not state.events and rejected.find(root, session) is not None)


def check_refused(root: Path, session: str, state: SessionState) -> None:
    """One `Error:` line with the daemon's reason when it refused this session's pitch."""
    from crumb.daemon import rejected

    refusal = None if state.events else rejected.find(root, session)
    if refusal is not None:
        raise click.ClickException(safe(f"the daemon refused the pitch of {session}: {refusal.reason or 'no reason given'} "
                                        f"(the file is kept as {refusal.file})"))


def wait_for(root: Path, session: str, *, timeout: float) -> SessionState:
    """follow() until the session is settled (done, or waiting for a person), with progress; says first
    when no daemon is watching, or the wait could only time out, and stops at once on a refused pitch."""
    until = settled_or_refused(root, session)
    state = follow(root, session, timeout=0, until=until)
    if not until(state) and not daemon_status(root)["running"]:
        click.echo(f"no crumb daemon is watching {root}, so nothing will run this session: start `crumb --root {root} "
                   f"watch` in another terminal (or use `crumb run`); waiting up to {timeout:g}s", err=True)
    state = follow(root, session, timeout=timeout, on_event=progress_printer(sys.stderr), until=until)
    check_refused(root, session, state)
    return state


def progress_printer(stream: Any) -> Any:
    """Show stage changes on a terminal; stay quiet when piped."""
    if not stream.isatty():
        return None
    last = [""]

    def show(event: dict[str, Any], state: SessionState) -> None:
        line = f"{state.phase}" + (f" · round {state.round}" if state.round else "")
        if line != last[0]:
            last[0] = line
            click.echo(f"  {time.strftime('%H:%M:%S')} {line}", err=True)

    return show


@click.command()
@click.argument("text")
@pitch_options
@click.option("--wait", "wait_", is_flag=True, help="Wait until the session is done (needs a running daemon).")
@click.option("--timeout", type=float, default=600, show_default=True, help="With --wait: give up after this many seconds.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object: session and file (the pitch file dropped); with --wait instead "
                   "the object `crumb wait --json` prints.")
@click.pass_context
def pitch(ctx: click.Context, text: str, preset: str | None, seed: int | None, fault: str | None,
          roles: tuple[str, ...], allow_fallback: bool, wait_: bool, timeout: float, as_json: bool) -> None:
    """Pitch a game: drops a pitch file into inbox/ and prints the new session id."""
    root = root_of(ctx)
    session, path = drop_pitch(root, text, preset=preset, seed=seed, fault=fault, roles=roles,
                               allow_fallback=allow_fallback)
    if not as_json:
        click.echo(session)
    if not wait_:
        if as_json:
            echo_json({"session": session, "file": rel(root, path)})
        return
    state = wait_for(root, session, timeout=timeout)
    if settled(state):
        click.echo(describe(root, state), err=True)
    if as_json:
        echo_json(outcome(root, state))
    ctx.exit(exit_code(state))


@click.command()
@click.argument("session", shell_complete=complete_session)
@click.option("--timeout", type=float, default=600, show_default=True, help="Seconds to wait before exit 2.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object: session, phase, done, detail, verdict, round, game, played, fallback, "
                   "fallbacks, waiting_for, feedback, next, exit.")
@click.pass_context
def wait(ctx: click.Context, session: str, timeout: float, as_json: bool) -> None:
    """Wait until a session is done or waits for a person. Exit 0 PASS (or approved) with every role
    played as bound, 1 done otherwise, 2 timeout, 3 waits for a person (approve or veto it), 4 PASS
    (or approved) but a role fell back."""
    root = root_of(ctx)
    sid = session_arg(ctx, session, future=True)
    state = wait_for(root, sid, timeout=timeout)
    if not settled(state):
        click.echo(f"{sid}: still {state.phase} after {timeout:g}s", err=True)
    else:
        click.echo(describe(root, state), err=True)
    if as_json:
        echo_json(outcome(root, state))
    ctx.exit(exit_code(state))


COMMANDS = [pitch, wait]
