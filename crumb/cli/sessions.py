"""Commands about sessions: pitch, steer (and its shortcuts), ls, status, tail, wait, replay, schema.

Everything they write goes through inbox files, like any other tool; everything they read comes
from transcripts. Exit codes: 0 ok, 1 an error (one line on stderr) or a session that did not pass,
2 a usage error or a timeout (`wait`); `wait` and `pitch --wait` add 3 (waits for a person) and 4
(passed, but a role fell back): see crumb/cli/verdict.py.
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from ulid import ULID

from crumb.actors.harness import local_only
from crumb.cli.verdict import describe, exit_code, next_commands, outcome, settled
from crumb.daemon import pitch_file, rejected
from crumb.daemon.files import InboxWriteError, drop_inbox_file
from crumb.daemon.lock import daemon_status
from crumb.protocol.events import ROLES
from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.replay import replay_file
from crumb.reducer.state import SessionState
from crumb.store import paths
from crumb.store.follow import Follower
from crumb.store.reader import TranscriptError, read_events
from crumb.terminal import safe


def root_of(ctx: click.Context) -> Path:
    root: Path = ctx.obj["root"]  # click's ctx.obj is untyped; cli/__init__.py puts the resolved root there
    return root


def session_arg(ctx: click.Context, ref: str, *, future: bool = False) -> str:
    """Resolve a session id, prefix or suffix. With `future`, a full id the daemon has not created yet
    is accepted too (`crumb pitch` prints the id before the daemon takes the pitch)."""
    try:
        return paths.resolve_session(root_of(ctx), ref)
    except LookupError as err:
        if future and paths.SESSION_ID.match(ref.strip().upper()):
            return ref.strip().upper()
        raise click.ClickException(str(err)) from None


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
    try:
        pitch_file.check_bindings(bindings)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--role") from None


def check_fault(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A fault the embedded studio knows; a typo would otherwise only show as a failing Builder."""
    from crumb.actors.embedded.adapter import faults

    if value is not None and value not in faults():
        raise click.BadParameter(f"unknown fault {value!r}: use one of {', '.join(faults())}")
    return value


def pitch_options(fn: Any) -> Any:
    for option in reversed([
        click.option("--preset", help="Preset from presets/*.toml (local, claude, codex, gemini, cross, ollama)."),
        click.option("--seed", type=int, help="Seed for the embedded studio (same pitch + seed → same game)."),
        click.option("--fault", callback=check_fault,
                     help="Break the first build on purpose: syntax, blank, throws, noinput, wrongtimer, wronggenre, wrongnumbers; "
                          "crash makes the offline Builder itself fail (tests the circuit breaker)."),
        click.option("--role", "roles", multiple=True, metavar="ROLE=HARNESS[:MODEL]",
                     help="Bind one role, or all (repeatable); e.g. builder=claude:sonnet, builder='command:./tool --fast'."),
        click.option("--allow-fallback", is_flag=True,
                     help="Start even when a bound harness cannot run here (CLI not on PATH, model server not "
                          "answering): the role falls back along its chain, in the end to local."),
    ]):
        fn = option(fn)
    return fn


def check_preset(root: Path, preset: str | None) -> None:
    """pitch_file.check_preset, said as a usage error of --preset."""
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
               roles: tuple[str, ...], allow_fallback: bool = False) -> tuple[str, Path]:
    """Check every choice, then drop the pitch file: (the new session id, the file written)."""
    if not text.strip():
        raise click.BadParameter("the pitch is empty: describe the game in one line, e.g. '60-second snake'")
    bindings = parse_role_flags(roles)
    check_preset(root, preset)
    check_runnable(root, preset, bindings, allow_fallback)
    session = str(ULID())
    body = pitch_file.pitch_text(text, session=session, preset=preset, seed=seed, fault=fault, bindings=bindings,
                                 fallback="allow" if allow_fallback else None)
    local_only.grant(root, session, bindings)  # a person at the machine chose these commands
    return session, drop(paths.inbox_dir(root), body, stem="pitch")


def drop(folder: Path, text: str, *, stem: str) -> Path:
    """drop_inbox_file for the CLI: a folder that cannot take the file is one `Error:` line, not a traceback."""
    try:
        return drop_inbox_file(folder, text, stem=stem)
    except InboxWriteError as err:
        raise click.ClickException(str(err)) from None


# ------------------------------------------------------------------ waiting and following


def is_done(state: SessionState) -> bool:
    return state.done is not None


def follow(root: Path, session: str, *, timeout: float | None, on_event: Any = None,
           until: Callable[[SessionState], bool] | None = is_done) -> SessionState:
    """Reduce a session's transcript as it grows, until `until` holds (or the timeout passes)."""
    state = initial_state(session)
    follower = Follower(paths.transcript_path(root, session))
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        for event in follower.read_new():  # one stat while nothing is new
            apply(state, event)
            if on_event is not None:
                on_event(event, state)
        if until is not None and until(state):
            return state
        if deadline is not None and time.monotonic() >= deadline:
            return state
        time.sleep(0.05)  # polling a file a person waits on; not test synchronisation


def settled_or_refused(root: Path, session: str) -> Callable[[SessionState], bool]:
    """follow()'s stop: the session settled, or the daemon refused the pitch that would have started it
    (it then never gets a transcript, and waiting could only time out)."""
    return lambda state: settled(state) or (not state.events and rejected.find(root, session) is not None)


def check_refused(root: Path, session: str, state: SessionState) -> None:
    """One `Error:` line with the daemon's reason when it refused this session's pitch."""
    refusal = None if state.events else rejected.find(root, session)
    if refusal is not None:
        raise click.ClickException(safe(f"the daemon refused the pitch of {session}: {refusal.reason or 'no reason yet'} "
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


def echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


# ------------------------------------------------------------------ commands


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


def json_option() -> click.Option:
    return click.Option(["--json", "as_json"], is_flag=True, help="One JSON object: session and file (the steering file dropped).")


def _drop_steer(ctx: click.Context, ref: str, text: str, as_json: bool) -> None:
    root = root_of(ctx)
    session = session_arg(ctx, ref)
    if not text.strip():
        raise click.BadParameter("nothing to send: give a message, a /command or @actor text")
    path = drop(paths.session_inbox(root, session), text.strip() + "\n", stem="steer")
    if as_json:
        echo_json({"session": session, "file": rel(root, path)})
    else:
        click.echo(rel(root, path))


@click.command(params=[json_option()])
@click.argument("session")
@click.argument("text", nargs=-1, required=True)
@click.pass_context
def steer(ctx: click.Context, session: str, text: tuple[str, ...], as_json: bool) -> None:
    """Steer a session: plain text, a /command or '@actor text' (see README: How to steer)."""
    _drop_steer(ctx, session, " ".join(text), as_json)


def _shortcut(name: str, command: str, arg: str | None, help_text: str) -> click.Command:
    @click.pass_context
    def run(ctx: click.Context, session: str, as_json: bool, rest: tuple[str, ...] = ()) -> None:
        extra = " ".join(rest).strip()
        if arg == "actor" and extra:
            extra = "@" + extra.lstrip("@")
        _drop_steer(ctx, session, f"/{command} {extra}".strip(), as_json)

    params: list[click.Parameter] = [click.Argument(["session"]), json_option()]
    if arg:
        params.append(click.Argument(["rest"], nargs=-1))
    return click.Command(name, callback=run, params=params, help=help_text)


@click.command("ls")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per session.")
@click.pass_context
def ls(ctx: click.Context, as_json: bool) -> None:
    """List sessions, newest first."""
    root = root_of(ctx)
    for session in paths.list_sessions(root):
        try:
            s = replay_file(paths.transcript_path(root, session)).summary()
        except TranscriptError as err:
            s = {"session": session, "phase": "damaged", "error": str(err)}
        if as_json:
            click.echo(json.dumps(s, ensure_ascii=False))
            continue
        verdict = (s.get("verdicts") or [{}])[-1].get("verdict", "-") if s.get("verdicts") else "-"
        done = (s.get("done") or {}).get("reason", "")
        click.echo(safe(f"{session}  {s.get('phase', '?'):<11} {verdict:<8} {done:<12} {cast_mark(s):<18} "
                        f"{s.get('genre') or '-':<10} {(s.get('pitch') or '')[:50]}"))


def cast_mark(s: dict[str, Any]) -> str:
    """`crumb ls`'s played column: `bound`, `fallback:builder`, `swap:builder`, or `-` before any role played."""
    played = s.get("played") or {}
    if not played:
        return "-"
    fell = [r for r in ROLES if (played.get(r) or {}).get("fallback")]
    if fell:
        return "fallback:" + ",".join(fell)
    swapped = [r for r in ROLES if (played.get(r) or {}).get("origin") == "user"]
    return "swap:" + ",".join(swapped) if swapped else "bound"


@click.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx: click.Context, session: str, as_json: bool) -> None:
    """Where a session stands: phase, round, verdicts, pending effects, budgets."""
    root = root_of(ctx)
    sid = session_arg(ctx, session)
    try:
        state = replay_file(paths.transcript_path(root, sid))
    except TranscriptError as err:
        raise click.ClickException(str(err)) from None
    print_summary(state.summary(), as_json, root)


def print_summary(s: dict[str, Any], as_json: bool, root: Path) -> None:
    if as_json:
        click.echo(json.dumps(s, ensure_ascii=False, indent=2))
        return
    click.echo(f"session   {s['session']}")
    click.echo(safe(f"pitch     {s.get('pitch') or '-'}"))  # what a pitch, spec or agent wrote is shown, not obeyed
    click.echo(f"phase     {s['phase']}" + (f" (waiting for {s['waiting_for']})" if s.get("waiting_for") else "")
               + (" [paused]" if s.get("paused") else ""))
    click.echo(safe(f"game      {s.get('title') or '-'} ({s.get('genre') or '-'}), round {s['round']}"))
    for v in s.get("verdicts") or []:
        click.echo(f"verdict   round {v['round']}: {v['verdict']} {v.get('severity') or ''} total {v.get('total')}"
                   f" ({v.get('corrections', 0)} corrections)")
    if s.get("done"):
        click.echo(safe(f"done      {s['done']['reason']}" + (" (fallback)" if s.get("fallback") else "")
                        + f": {s['done'].get('detail', '')}"))
    elif s.get("waiting_for") == "approval":
        click.echo(safe(f"reason    {s.get('feedback') or 'the verifier gave no reason'}"))
        click.echo(f"next      {'  |  '.join(next_commands(root, s['session']))}")
    for role, text in (s.get("played_text") or {}).items():
        click.echo(f"played    {role:<10} {text}")
    for e in s.get("pending") or []:
        click.echo(f"pending   {e['kind']} {e.get('actor') or ''} (attempt {e.get('attempt', 1)}) {e['id']}")
    used = ", ".join(f"{k} {v['used']:g}/{v['limit']:g}" for k, v in (s.get("budgets") or {}).items())
    click.echo(f"budgets   {used}")
    click.echo(f"events    {s['events']} (last seq {s['last_seq']}), state {s['state_hash'][:16]}")


@click.command()
@click.argument("session")
@click.option("-f", "--follow", "follow_", is_flag=True, help="Keep printing new events until the session is done.")
@click.option("-n", "--lines", type=int, default=20, show_default=True, help="How many past events to show.")
@click.option("--json", "as_json", is_flag=True, help="Print each event as its JSON line.")
@click.pass_context
def tail(ctx: click.Context, session: str, follow_: bool, lines: int, as_json: bool) -> None:
    """Show a session's latest events."""
    root = root_of(ctx)
    sid = session_arg(ctx, session)
    path = paths.transcript_path(root, sid)

    def show(event: dict[str, Any], state: SessionState | None = None) -> None:
        if as_json:
            click.echo(json.dumps(event, ensure_ascii=False))
        else:
            click.echo(safe(f"{event['seq']:>5} {event['ts'][11:19]} {event['from']:<10} {event['kind']:<16} {event.get('body', '')}"))

    try:
        recent: deque[dict[str, Any]] = deque(maxlen=max(lines, 0))
        last = 0
        for event in read_events(path):
            recent.append(event)
            last = event["seq"]
        for event in recent:
            show(event)
        if follow_:
            follow(root, sid, timeout=None, on_event=lambda e, s: show(e) if e["seq"] > last else None)
    except TranscriptError as err:
        raise click.ClickException(str(err)) from None


@click.command()
@click.argument("session")
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


@click.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="The whole rebuilt state as JSON.")
@click.option("--strict", is_flag=True, help="Validate every line's data in full, not only the envelope.")
@click.pass_context
def replay(ctx: click.Context, session: str, as_json: bool, strict: bool) -> None:
    """Rebuild a session's state from its transcript (a session id, or a path to a .jsonl), running no effect."""
    target = Path(session)
    if target.suffix == ".jsonl":
        if not target.is_file():
            raise click.ClickException(f"no transcript at {target}: give an existing .jsonl file, "
                                       "or a session id (`crumb ls` lists them)")
        path = target
    else:
        path = paths.transcript_path(root_of(ctx), session_arg(ctx, session))
    try:
        state = replay_file(path, validate=strict)
    except TranscriptError as err:
        raise click.ClickException(str(err)) from None
    if state.events == 0:
        click.echo(f"{path} is empty: no events to replay", err=True)
    if as_json:
        click.echo(json.dumps({**state.to_dict(), "state_hash": state.state_hash()}, ensure_ascii=False, indent=2, default=str))
    else:
        print_summary(state.summary(), False, root_of(ctx))


@click.command()
@click.option("--check", type=click.Path(dir_okay=False, path_type=Path),
              help="Exit 1 if this committed schema file differs from the code's schema.")
def schema(check: Path | None) -> None:
    """Print the JSON Schema of a transcript line."""
    from crumb.protocol.events import json_schema

    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if check is None:
        click.echo(text, nl=False)
        return
    if not check.exists() or check.read_text(encoding="utf-8") != text:
        raise click.ClickException(f"{check} is out of date: run `crumb schema > {check}`")


COMMANDS = [
    pitch, steer, ls, status, tail, wait, replay, schema,
    _shortcut("approve", "approve", None, "Approve a PARTIAL verdict: the session ends as approved."),
    _shortcut("veto", "veto", "reason", "Veto a PARTIAL verdict, with a reason the Builder gets as feedback."),
    _shortcut("pause", "pause", "actor", "Pause the session, or one actor (e.g. `crumb pause S builder`)."),
    _shortcut("resume", "resume", "actor", "Resume the session, or one actor."),
    _shortcut("cancel", "cancel", None, "Cancel the session: running actors are stopped."),
]
