"""The `crumb` command line. Each module in this package adds its commands through `COMMANDS`."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import click

from crumb import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="crumb")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    envvar="CRUMB_ROOT",
    show_default=True,
    help="The working folder holding inbox/, sessions/ and presets/.",
)
@click.pass_context
def main(ctx: click.Context, root: Path) -> None:
    """Turn a one-line game pitch into a playable browser game."""
    from crumb.genres import configure, registry

    ctx.obj = {"root": root.resolve()}
    configure(ctx.obj["root"])  # the root's crumb.toml may add genre folders ([genres] paths)
    if ctx.invoked_subcommand in ("watch", "run"):
        registry()  # found now, so a broken genre folder's warning comes at start, not at the first pitch


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for command in getattr(module, "COMMANDS", ()):
            main.add_command(command)


_register()
