"""The stdio MCP server: tools.py's functions and resources.py's reads, bound to the official SDK's
MCPServer with the names and descriptions an agent sees. Nothing here decides anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from pydantic import Field

from crumb import __version__
from crumb.daemon.grammar import COMMANDS
from crumb.mcp import resources, tools

NAME = "crumb"
T = TypeVar("T")

INSTRUCTIONS = (
    "CRUMB turns a one-line game pitch into a playable browser game (Planner, Builder, QA in a real browser, "
    "Verifier). Pitch with `pitch`, steer the running session with `steer` (plain text for the Builder, "
    "/commands, @actor text), block on `wait` until it is done or waits for a person, then read `verdict`, "
    "`status`, `spec` or `events`. A PARTIAL verdict waits for a person: steer '/approve' or '/veto why'."
)
STEERING = ", ".join(sorted(COMMANDS))


def _one_line(fn: Callable[[], T]) -> T:
    """Run a tool body; a refusal becomes the SDK's ToolError, which the client shows as one error line."""
    try:
        return fn()
    except tools.ToolRefused as err:
        raise ToolError(str(err)) from None


def _read(fn: Callable[[], str]) -> str:
    try:
        return fn()
    except tools.ToolRefused as err:
        raise ResourceError(str(err)) from None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


Session = Annotated[str, Field(description="a session id, or a unique prefix or suffix of one (as `crumb ls` lists)")]


def build(root: Path) -> MCPServer[Any]:
    """The server for one CRUMB root (where inbox/ and sessions/ are)."""
    server: MCPServer[Any] = MCPServer(NAME, version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(description="Pitch a game: CRUMB plans, builds, tests and judges it. Checks the preset and "
                             "bindings as `crumb pitch` does, starts `crumb watch` for the root when none runs, and "
                             "returns once the daemon took the pitch: {session, file, phase, daemon_started}.",
                 structured_output=False)
    def pitch(
        text: Annotated[str, Field(description="the game in a line, e.g. 'a 60-second snake game with three lives'")],
        preset: Annotated[str | None, Field(description="presets/*.toml name: local (offline, default), claude, codex, "
                                                        "gemini, cross, ollama")] = None,
        bindings: Annotated[dict[str, str] | None, Field(description="role (planner, researcher, builder, verifier, "
                                                                     "or all) -> 'harness[:model]', e.g. "
                                                                     "{'builder': 'claude:sonnet'}; no command: "
                                                                     "bindings unless crumb.toml allow-lists them")] = None,
        seed: Annotated[int | None, Field(description="seed of the offline studio (same pitch + seed, same game)")] = None,
        allow_fallback: Annotated[bool, Field(description="start even when a bound harness cannot run here")] = False,
    ) -> str:
        return _json(_one_line(lambda: tools.pitch(root, text, preset=preset, bindings=bindings, seed=seed,
                                                   allow_fallback=allow_fallback)))

    @server.tool(description="Steer a session: one message into its inbox, read by the daemon as a person's. Plain "
                             "text goes to the Builder's next build; '@planner|@builder|@verifier text' to that role; "
                             f"commands: {STEERING} (e.g. '/pause', '/resume', '/approve', '/veto too slow', "
                             "'/redo builder', '/swap builder=claude:sonnet', '/budget fixes=5').",
                 structured_output=False)
    def steer(session: Session,
              text: Annotated[str, Field(description="plain text, a /command or '@actor text'")]) -> str:
        return _json(_one_line(lambda: tools.steer(root, session, text)))

    @server.tool(description="Wait until a session is done or waits for a person (a PARTIAL verdict), at most "
                             f"timeout_s seconds (capped at {tools.MAX_WAIT_S:g}); returns `crumb wait --json`'s "
                             "object (phase, done, verdict, game, played, feedback, next...) plus timed_out.",
                 structured_output=False)
    def wait(session: Session,
             timeout_s: Annotated[float, Field(description="seconds to wait at most")] = 120.0) -> str:
        return _json(_one_line(lambda: tools.wait(root, session, timeout_s)))

    @server.tool(description="Where a session stands (`crumb status --json`): phase, round, verdicts, who played "
                             "each role, what it waits for, pending effects, budgets.", structured_output=False)
    def status(session: Session) -> str:
        return _json(_one_line(lambda: tools.status(root, session)))

    @server.tool(description="A session's verdict as `crumb wait --json` gives it, without waiting: done (reason), "
                             "verdict, round, game path, who played, fallback, what a person is asked.",
                 structured_output=False)
    def verdict(session: Session) -> str:
        return _json(_one_line(lambda: tools.verdict(root, session)))

    @server.tool(description="A session's spec (artifacts/spec.md): the Planner's reading of the pitch with its "
                             "acceptance criteria.", structured_output=False)
    def spec(session: Session) -> str:
        return _one_line(lambda: tools.spec(root, session))

    @server.tool(description="A session's latest events (`crumb tail`): seq, time, source, kind, readable line.",
                 structured_output=False)
    def events(session: Session,
               last: Annotated[int, Field(description=f"how many, at most {tools.MAX_EVENTS}")] = 20) -> str:
        return _json(_one_line(lambda: tools.events(root, session, last)))

    @server.tool(description="Every session, newest first (`crumb ls`): id, phase, verdict, done reason, pitch.",
                 structured_output=False)
    def sessions() -> str:
        return _json(_one_line(lambda: tools.sessions(root)))

    @server.tool(description="Run CRUMB's QA (headless Chromium, network blocked) on a game folder or .html file "
                             "inside the CRUMB root; returns `crumb qa --json`'s result (ok, findings, probes).",
                 structured_output=False)
    def qa(path: Annotated[str, Field(description="a game folder (with index.html) or an .html file, relative to "
                                                  "the root or absolute inside it")],
           timeout_s: Annotated[float | None, Field(description="overall limit in seconds")] = None) -> str:
        return _json(_one_line(lambda: tools.qa(root, path, timeout_s)))

    @server.resource("crumb://sessions/{session}/spec", name="spec", mime_type="text/markdown",
                     description="The session's artifacts/spec.md.")
    def spec_resource(session: str) -> str:
        return _read(lambda: resources.spec_text(root, session))

    @server.resource("crumb://sessions/{session}/transcript", name="transcript", mime_type="application/jsonl",
                     description=f"The last {resources.TAIL_LINES} lines of the session's transcript.jsonl.")
    def transcript_resource(session: str) -> str:
        return _read(lambda: resources.transcript_tail(root, session))

    @server.resource("crumb://sessions/{session}/game", name="game", mime_type="text/plain",
                     description="The absolute path of the session's game (index.html).")
    def game_resource(session: str) -> str:
        return _read(lambda: resources.game(root, session))

    return server


def serve(root: Path) -> None:
    """Serve the root's tools on stdin/stdout until the client closes them."""
    build(root).run("stdio")
