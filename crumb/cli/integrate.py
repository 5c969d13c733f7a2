"""`crumb integrate claude|codex|gemini [--project DIR] [--remove]`: write (or take out) what each agent CLI
reads to start `crumb mcp` and offer CRUMB's slash commands. Prints one line per file part it touched."""

from __future__ import annotations

import os
from pathlib import Path

import click

from crumb.integrate.files import IntegrateError, apply, remove
from crumb.integrate.hosts import HOSTS, entries


@click.command("integrate")
@click.argument("host", type=click.Choice(HOSTS))
@click.option("--project", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The CRUMB folder the server drives (default: --root; for gemini, the folder Gemini CLI runs in). "
                   "Claude Code's files go into it.")
@click.option("--remove", "remove_", is_flag=True, help="Take out what an earlier run wrote (files changed since are kept).")
@click.pass_context
def integrate(ctx: click.Context, host: str, project: Path | None, remove_: bool) -> None:
    """Write (or --remove) what Claude Code, Codex or Gemini CLI reads to drive CRUMB through `crumb mcp`."""
    root: Path = ctx.obj["root"]
    explicit = ctx.find_root().params.get("root") not in (None, Path("."))
    folder = project.resolve() if project is not None else (root if explicit or host != "gemini" else None)
    if folder is not None and not folder.is_dir():
        raise click.ClickException(f"{folder} is not a folder: create it, or pass --project an existing CRUMB folder")
    step = remove if remove_ else apply
    try:
        for entry in entries(host, folder, os.environ):
            done = step(entry)
            click.echo(f"{done.action:<9} {done.path}" + (f" ({done.what})" if done.what else ""))
    except (IntegrateError, OSError) as err:
        raise click.ClickException(str(err)) from None


COMMANDS = [integrate]
