"""Steering a session: `crumb steer` and its shortcuts (approve, veto, pause, resume, cancel).

Each drops one file into the session's inbox/ and prints its path, like any other tool; the daemon
reads it. Nothing here reads a transcript, so these commands start without the reducer or pydantic.
"""

from __future__ import annotations

import click

from crumb.cli.common import drop, echo_json, rel, root_of, session_arg
from crumb.cli.complete import complete_role, complete_session
from crumb.store import paths


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
@click.argument("session", shell_complete=complete_session)
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

    params: list[click.Parameter] = [click.Argument(["session"], shell_complete=complete_session), json_option()]
    if arg:
        params.append(click.Argument(["rest"], nargs=-1, shell_complete=complete_role if arg == "actor" else None))
    return click.Command(name, callback=run, params=params, help=help_text)


COMMANDS = [
    steer,
    _shortcut("approve", "approve", None, "Approve a PARTIAL verdict: the session ends as approved."),
    _shortcut("veto", "veto", "reason", "Veto a PARTIAL verdict, with a reason the Builder gets as feedback."),
    _shortcut("pause", "pause", "actor", "Pause the session, or one actor: `crumb pause S builder`."),
    _shortcut("resume", "resume", "actor", "Resume the session, or one actor: `crumb resume S builder`."),
    _shortcut("cancel", "cancel", None, "Cancel the session: running actors are stopped."),
]
