"""What every command module shares: the root, a session argument, one inbox file written, JSON out.

Light on purpose (click and the store's paths): `crumb steer` needs nothing more, and starts in a
fraction of what a module that reads transcripts costs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from crumb.store import paths


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


def drop(folder: Path, text: str, *, stem: str) -> Path:
    """drop_inbox_file for the CLI: a folder that cannot take the file is one `Error:` line, not a traceback.
    Imported here: it needs ulid, which the commands that only read sessions (ls, status) never load."""
    from crumb.daemon.drop import InboxWriteError, drop_inbox_file

    try:
        return drop_inbox_file(folder, text, stem=stem)
    except InboxWriteError as err:
        raise click.ClickException(str(err)) from None


@contextmanager
def one_line(*errors: type[Exception]) -> Iterator[None]:
    """A lower layer's expected refusal (its message names the problem and the fix), said as click's one
    `Error:` line instead of a traceback."""
    try:
        yield
    except errors as err:
        raise click.ClickException(str(err)) from None


def echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()
