"""`crumb studio`: the live web console for the sessions under --root."""

from __future__ import annotations

import webbrowser

import click

from crumb.studio.security import is_loopback


@click.command("studio")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="IPv4 address or host name to listen on. Anything but loopback exposes your sessions to the network.")
@click.option("--port", default=7321, show_default=True, type=click.IntRange(0, 65535),
              help="Studio port (0 = any free port). The game preview uses the next port, the pages' event streams the one after.")
@click.option("--preview-port", default=None, type=click.IntRange(0, 65535),
              help="Port of the game preview (another origin); default --port + 1.")
@click.option("--stream-port", default=None, type=click.IntRange(0, 65535),
              help="Port of the pages' event streams (so open pages never use up the browser's connections to the Studio); default --port + 2.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Extra Host name the Studio answers to (e.g. a LAN name); repeatable.")
@click.option("--expose", is_flag=True,
              help="Required to listen on anything but loopback: everyone who reaches the port can use the Studio.")
@click.option("--no-open", is_flag=True, help="Do not open a browser.")
@click.pass_context
def studio(ctx: click.Context, host: str, port: int, preview_port: int | None, stream_port: int | None,
           allow_hosts: tuple[str, ...], expose: bool, no_open: bool) -> None:
    """Watch, play and steer every session in a browser (reads files, writes only inbox files)."""
    from crumb.studio.server import Studio

    root = ctx.obj["root"]
    if not is_loopback(host) and not expose:
        raise click.UsageError(f"--host {host} is not loopback: every page hands out the Studio's token, so anyone who "
                               "reaches the port could read, steer and start sessions; add --expose if you mean it")
    try:
        app = Studio(root, host=host, port=port, preview_port=preview_port, stream_port=stream_port,
                     allow_hosts=allow_hosts)
    except (OSError, ValueError) as err:
        raise click.ClickException(str(err)) from None
    if not is_loopback(host):
        click.secho(exposure(host, app.port, app.preview_port, app.stream_port, root), fg="red", bold=True, err=True)
    click.echo(f"CRUMB Studio  {app.url}   (game preview on port {app.preview_port}, event streams on port "
               f"{app.stream_port}, root {app.root})", err=False)
    click.echo("Ctrl-C to stop.")
    if not no_open:
        webbrowser.open(app.url)
    import asyncio
    import os

    try:
        os.nice(5)  # the Studio yields the CPU to the daemon: fifty open tabs must not slow a session
    except OSError:
        pass
    asyncio.run(app.serve())


def exposure(host: str, port: int, preview_port: int, stream_port: int, root: object) -> str:
    """What `--expose` hands to everyone who can reach the ports, said before the Studio starts serving."""
    from pathlib import Path

    from crumb.actors.harness.local_only import allowed_commands
    from crumb.config import ConfigError

    try:
        listed = allowed_commands(Path(str(root)))
    except ConfigError:
        listed = []
    commands = ("and the commands crumb.toml allows: " + ", ".join(listed)) if listed else "but no command: bindings"
    return (f"WARNING: the Studio listens on {host} (ports {port}, {preview_port}, {stream_port}), not loopback. Anyone "
            f"who can reach them gets the token from any page and can: read every session under {root} (pitches, "
            f"transcripts, logs, games), steer them, cancel them, start new pitches on the presets and harnesses "
            f"configured here (which may spend your API credits) {commands}, and play the games.")


COMMANDS = [studio]
