"""`crumb mcp`: CRUMB's tools over the Model Context Protocol on stdio, for an agent CLI to start
(`crumb integrate` writes the entries that do). The SDK is imported only when the server runs."""

from __future__ import annotations

import click

from crumb.cli.common import root_of


@click.command("mcp")
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve CRUMB's tools (pitch, steer, wait, status, verdict, spec, events, sessions, qa) to an agent CLI over MCP on stdio."""
    try:
        from crumb.mcp.server import serve
    except ImportError as err:
        raise click.ClickException(f"the MCP server needs the `mcp` package ({err}): pip install 'crumb-games[mcp]'") from None
    serve(root_of(ctx))


COMMANDS = [mcp]
