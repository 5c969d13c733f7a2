"""`crumb rm` and `crumb gc`: take sessions away, or archive them (one .tar.gz each under archive/).

Which sessions may go is decided in crumb/export/sweep.py; this module measures them (replays each
transcript, asks the daemon lock whether a daemon holds the root), asks before acting when a person is
at the terminal, and removes a session by first renaming it out of sessions/ (so no reader ever sees
half a session), then deleting or archiving it. An archive is written whole before the session goes.
"""

from __future__ import annotations

import os
import shutil
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import click

from crumb.cli.common import echo_json, rel, root_of, session_arg
from crumb.cli.complete import complete_session
from crumb.export.sweep import Candidate, Choice, choose, line, parse_age, rm_refusal, size_text
from crumb.store import paths
from crumb.terminal import safe

ARCHIVE = "archive"  # <root>/archive/<session>.tar.gz


def measure(root: Path, session: str) -> Candidate:
    """A session as the sweep sees it: settled or not, its last event's time, its size."""
    from crumb.cli.verdict import settled
    from crumb.reducer.replay import replay_file
    from crumb.store.reader import TranscriptError

    folder = paths.session_dir(root, session)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    transcript = paths.transcript_path(root, session)
    try:
        state = replay_file(transcript)
    except TranscriptError as err:
        return Candidate(session, None, False, None, "damaged", "", size, damaged=str(err).splitlines()[0][:200])
    when = (datetime.fromisoformat(state.last_ts.replace("Z", "+00:00")) if state.last_ts
            else datetime.fromtimestamp(transcript.stat().st_mtime, UTC))
    return Candidate(session, when, settled(state), state.done["reason"] if state.done else None, state.phase,
                     str(state.spec_data.get("title") or state.pitch or ""), size)


def daemon_running(root: Path) -> bool:
    from crumb.daemon.lock import daemon_status

    return daemon_status(root)["running"]


def confirm(question: str, yes: bool) -> None:
    """Ask when a person is at the terminal (stdin a TTY) and --yes was not given; scripts are not asked."""
    if yes or not sys.stdin.isatty():
        return
    if not click.confirm(question, default=False):
        raise click.ClickException("nothing removed")


def archive_path(root: Path, session: str) -> Path:
    base = root / ARCHIVE
    path = base / f"{session}.tar.gz"
    n = 2
    while path.exists():  # archived before, restored, archived again: keep both
        path = base / f"{session}-{n}.tar.gz"
        n += 1
    return path


def take_away(root: Path, session: str, *, archive: bool) -> Path | None:
    """Remove one session (after archiving it to archive/<id>.tar.gz when asked); the archive's path."""
    folder = paths.session_dir(root, session)
    hidden = folder.with_name(f".removing-{session}")
    os.rename(folder, hidden)  # out of every listing at once
    try:
        target = None
        if archive:
            target = archive_path(root, session)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{session}.", suffix=".tar.gz", dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as fh, tarfile.open(fileobj=fh, mode="w:gz") as tar:
                    tar.add(hidden, arcname=session)  # restore: tar -xzf archive/ID.tar.gz -C sessions/
                os.replace(tmp, target)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        shutil.rmtree(hidden)
        return target
    except BaseException:
        if hidden.exists() and not folder.exists():
            os.rename(hidden, folder)  # put it back as it was: nothing half-removed
        raise


def act(root: Path, chosen: list[Choice], *, archive: bool, as_json: bool, now: datetime) -> None:
    for choice in chosen:
        session = choice.candidate.session
        try:
            target = take_away(root, session, archive=archive)
        except OSError as err:
            raise click.ClickException(f"could not remove {session}: {err}") from None
        if as_json:
            echo_json({"session": session, "removed": True, "archive": str(target) if target else None,
                       "bytes": choice.candidate.bytes})
        else:
            click.echo(f"{'archived' if target else 'removed'} {session}" + (f" → {rel(root, target)}" if target else ""))


@click.command("rm")
@click.argument("sessions", nargs=-1, required=True, shell_complete=complete_session)
@click.option("--archive", is_flag=True, help="Keep each as archive/<id>.tar.gz instead of deleting it.")
@click.option("--dry-run", is_flag=True, help="Say what would be removed, remove nothing.")
@click.option("--force", is_flag=True, help="Also remove a session that is not finished while no daemon runs, or a damaged one.")
@click.option("-y", "--yes", is_flag=True, help="Do not ask (only asked when stdin is a terminal).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per session.")
@click.pass_context
def rm(ctx: click.Context, sessions: tuple[str, ...], archive: bool, dry_run: bool, force: bool, yes: bool,
       as_json: bool) -> None:
    """Remove sessions (or archive them with --archive); a running session is refused."""
    root = root_of(ctx)
    ids = list(dict.fromkeys(session_arg(ctx, s) for s in sessions))
    running = daemon_running(root)
    now = datetime.now(UTC)
    chosen = []
    for sid in ids:
        c = measure(root, sid)
        why = rm_refusal(c, daemon_running=running, force=force)
        if why:
            raise click.ClickException(f"session {sid} not removed: {why}")
        chosen.append(Choice(c, True, "asked for"))
    for choice in chosen:
        if dry_run and not as_json:
            click.echo(safe("would " + ("archive " if archive else "remove ") + line(choice, now=now)))
        elif dry_run:
            echo_json({"session": choice.candidate.session, "removed": False, "would": "archive" if archive else "remove",
                       "bytes": choice.candidate.bytes})
    if dry_run:
        return
    total = size_text(sum(c.candidate.bytes for c in chosen))
    confirm(f"{'Archive' if archive else 'Delete'} {len(chosen)} session(s) ({total})?", yes)
    act(root, chosen, archive=archive, as_json=as_json, now=now)


@click.command("gc")
@click.option("--older-than", "older_than", required=True, metavar="AGE",
              help="Sessions whose last event is older than this: 30d, 12h, 2w, ...")
@click.option("--keep-passed", is_flag=True, help="Keep sessions that passed (or were approved).")
@click.option("--archive", is_flag=True, help="Keep each as archive/<id>.tar.gz instead of deleting it.")
@click.option("--dry-run", is_flag=True, help="List what would go (and what stays, and why), remove nothing.")
@click.option("-y", "--yes", is_flag=True, help="Do not ask (only asked when stdin is a terminal).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per session considered.")
@click.pass_context
def gc(ctx: click.Context, older_than: str, keep_passed: bool, archive: bool, dry_run: bool, yes: bool,
       as_json: bool) -> None:
    """Remove (or --archive) settled sessions older than an age; running ones are never touched."""
    try:
        age = parse_age(older_than)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--older-than") from None
    root = root_of(ctx)
    now = datetime.now(UTC)
    choices = choose([measure(root, s) for s in paths.list_sessions(root)], now=now, older_than=age,
                     keep_passed=keep_passed)
    chosen = [c for c in choices if c.remove]
    if dry_run or not as_json:
        for choice in choices:
            if as_json:
                echo_json({"session": choice.candidate.session, "removed": False,
                           "would": ("archive" if archive else "remove") if choice.remove else "keep",
                           "reason": choice.reason, "bytes": choice.candidate.bytes})
            elif dry_run or choice.remove:
                verb = ("archive" if archive else "remove") if choice.remove else "keep"
                click.echo(safe(f"{'would ' if dry_run else ''}{verb:<7} " + line(choice, now=now)))
    total = size_text(sum(c.candidate.bytes for c in chosen))
    if not as_json:
        click.echo(f"{len(chosen)} of {len(choices)} sessions ({total}) {'would go' if dry_run else 'to go'}"
                   f"{' to archive/' if archive else ''}", err=True)
    if dry_run or not chosen:
        return
    confirm(f"{'Archive' if archive else 'Delete'} {len(chosen)} session(s) ({total})?", yes)
    act(root, chosen, archive=archive, as_json=as_json, now=now)


COMMANDS = [rm, gc]
