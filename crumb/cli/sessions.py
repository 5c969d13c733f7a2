"""Commands that read sessions: ls, status, tail, replay, schema; and follow(), which `crumb wait`
and `crumb run` wait with.

Everything they read comes from transcripts. Exit codes: 0 ok, 1 an error (one line on stderr),
2 a usage error.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from crumb.cli.common import root_of, session_arg
from crumb.cli.complete import complete_session
from crumb.cli.verdict import next_commands
from crumb.protocol.names import ROLES
from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.replay import replay_file
from crumb.reducer.state import SessionState
from crumb.store import paths
from crumb.store.follow import Follower
from crumb.store.reader import TranscriptError, read_events
from crumb.terminal import safe

#: how often follow() looks at a transcript (one stat while nothing is new), as the Studio's tail does:
#: the wait for a session to settle ends within this of its last line (`crumb run`, `crumb wait`)
FOLLOW_POLL_S = 0.02


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
        time.sleep(FOLLOW_POLL_S)  # polling a file a person waits on; not test synchronisation


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
@click.argument("session", shell_complete=complete_session)
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
@click.argument("session", shell_complete=complete_session)
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
@click.argument("session", shell_complete=complete_session)
@click.option("--json", "as_json", is_flag=True, help="The whole rebuilt state as JSON.")
@click.option("--strict", is_flag=True, help="Validate every line's data in full, not only the envelope.")
@click.option("--verify", "verify_", is_flag=True, help="First check the hash chain and artifacts as `crumb verify` does; "
              "a break is named and nothing is replayed (exit 1).")
@click.pass_context
def replay(ctx: click.Context, session: str, as_json: bool, strict: bool, verify_: bool) -> None:
    """Rebuild a session's state from its transcript (a session id, or a path to a .jsonl), running no effect."""
    from crumb.cli.verify import broken_lines, seal_of, target_of

    path = target_of(ctx, session)[0]
    if verify_:
        _, seal = seal_of(ctx, session)
        problems = broken_lines(path, seal)
        if problems:
            for line in problems[1:]:
                click.echo(line, err=True)
            raise click.ClickException(problems[0])
        click.echo(f"{path}: {seal.summary()}", err=True)
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


COMMANDS = [ls, status, tail, replay, schema]
