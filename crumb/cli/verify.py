"""`crumb verify` and `crumb seal`: is this session's record as it was written?

Light on purpose (click, msgspec, hashlib): verifying needs neither the reducer nor any model.
Exit codes: 0 intact (or unsealed: written before the chain, nothing to check it against), 1 broken.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from crumb.cli.common import root_of, session_arg
from crumb.cli.complete import complete_session
from crumb.store import paths
from crumb.store.seal import Seal, check_chain, verify_session


def target_of(ctx: click.Context, session: str) -> tuple[Path, Path | None]:
    """(transcript, session folder) for a session id or prefix, or (file, None) for a path to a .jsonl."""
    given = Path(session)
    if given.suffix == ".jsonl":
        if not given.is_file():
            raise click.ClickException(f"no transcript at {given}: give an existing .jsonl file, "
                                       "or a session id (`crumb ls` lists them)")
        return given, None
    folder = paths.session_dir(root_of(ctx), session_arg(ctx, session))
    return folder / paths.TRANSCRIPT, folder


def seal_of(ctx: click.Context, session: str, *, published: str | None = None,
            artifacts: bool = True) -> tuple[Path, Seal]:
    path, folder = target_of(ctx, session)
    if folder is None or not artifacts:
        return path, check_chain(path, published=published)
    return path, verify_session(root_of(ctx), folder, published=published)


def broken_lines(path: Path, seal: Seal) -> list[str]:
    """One line per problem, each naming the file (and line) and what it suggests."""
    out: list[str] = []
    if seal.broken is not None:
        out.append(f"{path}:{seal.broken.line}: hash chain broken: {seal.broken.message()}")
    if seal.seal_found is False:
        out.append(f"{path}: the published seal is not the hash of any line: the transcript was rewritten "
                   "(or the seal is another session's)")
    out += [f"{path.parent}/{a}" for a in seal.artifacts]
    return out


@click.command()
@click.argument("session", shell_complete=complete_session)
@click.option("--seal", "published", metavar="HASH", help="A head hash `crumb seal` printed earlier: it must be one "
              "of this transcript's lines.")
@click.option("--json", "as_json", is_flag=True, help="The result as one JSON object.")
@click.pass_context
def verify(ctx: click.Context, session: str, published: str | None, as_json: bool) -> None:
    """Check a session's hash chain and the artifacts its transcript recorded; name the first break, exit 1."""
    path, seal = seal_of(ctx, session, published=published)
    if as_json:
        click.echo(json.dumps({"transcript": str(path), **seal.to_dict()}, ensure_ascii=False))
    else:
        click.echo(f"{path}: {seal.summary()}" + (f", head {seal.head}" if seal.head and seal.broken is None else ""))
        if seal.status == "unsealed" and seal.lines:
            click.echo("unsealed: written before the hash chain, so nothing shows whether it was changed "
                       "(new lines appended to it seal it from then on)")
        for line in broken_lines(path, seal):
            click.echo(line, err=True)
    if not seal.ok:
        ctx.exit(1)


@click.command("seal")
@click.argument("session", shell_complete=complete_session)
@click.pass_context
def seal_cmd(ctx: click.Context, session: str) -> None:
    """Print the head hash of a session's transcript (its last line's sha256) to publish, e.g. in a commit."""
    path, seal = seal_of(ctx, session, artifacts=False)  # the head vouches for the transcript; verify checks files
    problems = broken_lines(path, seal)
    if problems:
        raise click.ClickException(problems[0] + " — a broken chain is not sealed")
    if seal.head is None:
        raise click.ClickException(f"{path} is empty: nothing to seal")
    if seal.status == "unsealed":
        raise click.ClickException(f"{path} is unsealed (written before the hash chain): its head would vouch for "
                                   "nothing; a new line appended to the session seals it")
    click.echo(seal.head)


COMMANDS = [verify, seal_cmd]
