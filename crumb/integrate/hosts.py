"""What each agent CLI gets from `crumb integrate` (pure: paths and texts, nothing written here).

- Claude Code: `.mcp.json`'s `mcpServers.crumb` in the project, the server approved for the project in
  `.claude/settings.local.json` (`enabledMcpjsonServers`, as its approval prompt would record it), a skill
  (`.claude/skills/crumb/SKILL.md`) and slash commands (`.claude/commands/crumb-*.md`).
- Codex: `[mcp_servers.crumb]` in `$CODEX_HOME/config.toml` (default ~/.codex) and prompts
  (`$CODEX_HOME/prompts/crumb-*.md`, `/prompts:crumb-approve`).
- Gemini CLI: an extension, `~/.gemini/extensions/crumb/` (gemini-extension.json with the server, a
  GEMINI.md context file, commands/crumb/*.toml as `/crumb:approve`, ...).

The server is started as `<this python> -m crumb --root ROOT mcp`, so it is the CRUMB that wrote it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from crumb.integrate.files import Entry, JsonKey, JsonListItem, TomlBlock, WholeFile

HOSTS = ("claude", "codex", "gemini")
SERVER = "crumb"  # the MCP server's name: Claude calls its tools mcp__crumb__<tool>


@dataclass(frozen=True)
class Command:
    """A slash command: what it is for, and what the agent is asked to do ({args}: what the person typed)."""

    name: str
    description: str
    prompt: str


COMMANDS: tuple[Command, ...] = (
    Command("pitch", "Pitch a game to CRUMB and follow it to its verdict",
            "Use the crumb MCP tools: call `pitch` with text \"{args}\", then `wait` on the session it returns "
            "(again while timed_out is true), then tell me the verdict, who played each role and where the game is."),
    Command("approve", "Approve a CRUMB session's PARTIAL verdict",
            "Use the crumb MCP tool `steer` on session {args} with text '/approve', then `verdict` on it and tell me how it ended."),
    Command("veto", "Veto a CRUMB session's PARTIAL verdict, with a reason",
            "The first word of \"{args}\" is a CRUMB session, the rest a reason. Call the crumb MCP tool `steer` on that "
            "session with text '/veto ' followed by the reason, then `wait` on it and tell me the verdict."),
    Command("pause", "Pause a CRUMB session (or one role: SESSION @builder)",
            "The first word of \"{args}\" is a CRUMB session; call the crumb MCP tool `steer` on it with text '/pause' "
            "followed by the rest (an @actor, if any)."),
    Command("resume", "Resume a paused CRUMB session (or one role)",
            "The first word of \"{args}\" is a CRUMB session; call the crumb MCP tool `steer` on it with text '/resume' "
            "followed by the rest (an @actor, if any)."),
    Command("redo", "Run a step of a CRUMB session again (SESSION [planner|builder|qa|verifier])",
            "The first word of \"{args}\" is a CRUMB session; call the crumb MCP tool `steer` on it with text '/redo' "
            "followed by the rest (an actor, if any), then `wait` on it and tell me the verdict."),
    Command("cancel", "Cancel a CRUMB session",
            "Call the crumb MCP tool `steer` on session {args} with text '/cancel'."),
    Command("watch", "Follow a CRUMB session until it is done or waits for you",
            "Call the crumb MCP tool `wait` on session {args} (again while timed_out is true), then `events` on it, "
            "and tell me what happened, the verdict and what, if anything, waits for me."),
)

GUIDE = """\
# CRUMB from here

CRUMB turns a one-line game pitch into a playable browser game: a Planner writes a spec with checkable
acceptance criteria, a Builder writes the game, QA plays it in a real browser, a Verifier judges it.
The `crumb` MCP server drives the CRUMB folder {root}.

- `pitch` (text, preset, bindings, seed, allow_fallback): start a session; returns its id. Preset `local`
  is the offline studio; `claude`, `codex`, `gemini`, `cross`, `ollama` use those harnesses.
- `steer` (session, text): plain text for the Builder's next build, `@planner|@builder|@verifier text`,
  or a command: /pause, /resume, /approve, /veto why, /redo [actor], /cancel, /goto actor,
  /swap actor=harness[:model], /append [@actor] text, /note text, /budget name=value, /reset-circuit actor.
- `wait` (session, timeout_s): until done or waiting for a person (a PARTIAL verdict: ask the person,
  then steer '/approve' or '/veto why'); call again while `timed_out` is true.
- `status`, `verdict`, `spec`, `events`, `sessions`: read where things stand; `qa` (path): CRUMB's
  browser QA on a game folder inside the CRUMB folder.

Every write is a file in an inbox that CRUMB's daemon (`crumb watch`, started on the first write when
none runs) reads as a person's; the daemon keeps running after this conversation ends.
"""


def server_argv(root: str) -> list[str]:
    """How every host starts the server: this Python, so it is the CRUMB that wrote the entry."""
    return [sys.executable, "-m", "crumb", "--root", root, "mcp"]


def server_entry(root: str) -> dict[str, str | list[str]]:
    command, *args = server_argv(root)
    return {"command": command, "args": args}


def _claude_command(c: Command) -> str:
    prompt = c.prompt.format(args="$ARGUMENTS")
    return f"---\ndescription: {c.description}\nargument-hint: {_hint(c)}\n---\n\n{prompt}\n"


def _hint(c: Command) -> str:
    return {"pitch": "the game in a line", "veto": "SESSION reason"}.get(c.name, "SESSION")


def claude(project: Path) -> list[Entry]:
    root = str(project)
    skill = ("---\nname: crumb\ndescription: Pitch, steer and read CRUMB game-making sessions (a one-line pitch "
             "becomes a playable browser game) through the crumb MCP tools.\n---\n\n" + GUIDE.format(root=root))
    return [
        JsonKey(project / ".mcp.json", ("mcpServers", SERVER), {"type": "stdio", **server_entry(root)}),
        JsonListItem(project / ".claude" / "settings.local.json", "enabledMcpjsonServers", SERVER),
        WholeFile(project / ".claude" / "skills" / "crumb" / "SKILL.md", skill),
        *(WholeFile(project / ".claude" / "commands" / f"crumb-{c.name}.md", _claude_command(c)) for c in COMMANDS),
    ]


def _toml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def codex(project: Path, env: Mapping[str, str]) -> list[Entry]:
    home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else Path(env.get("HOME", "~")).expanduser() / ".codex"
    command, *argv = server_argv(str(project))
    args = ", ".join(_toml_str(a) for a in argv)
    block = f"[mcp_servers.{SERVER}]\ncommand = {_toml_str(command)}\nargs = [{args}]\n"
    prompts = [WholeFile(home / "prompts" / f"crumb-{c.name}.md",
                         f"---\ndescription: {c.description}\nargument-hint: {_hint(c)}\n---\n\n"
                         f"{c.prompt.format(args='$ARGUMENTS')}\n") for c in COMMANDS]
    return [TomlBlock(home / "config.toml", f"mcp_servers.{SERVER}", block), *prompts]


def gemini(project: Path | None, env: Mapping[str, str]) -> list[Entry]:
    """The extension; without --project the server drives the folder Gemini CLI runs in (${workspacePath})."""
    folder = Path(env.get("HOME", "~")).expanduser() / ".gemini" / "extensions" / SERVER
    root = str(project) if project is not None else "${workspacePath}"
    manifest = {"name": SERVER, "version": "1.0.0",
                "description": "Pitch, steer and read CRUMB game-making sessions through its MCP tools.",
                "mcpServers": {SERVER: server_entry(root)}, "contextFileName": "GEMINI.md"}
    commands = [WholeFile(folder / "commands" / "crumb" / f"{c.name}.toml",
                          f"description = {_toml_str(c.description)}\nprompt = {_toml_str(c.prompt.format(args='{{args}}'))}\n")
                for c in COMMANDS]
    return [WholeFile(folder / "gemini-extension.json", json.dumps(manifest, indent=2) + "\n"),
            WholeFile(folder / "GEMINI.md", GUIDE.format(root=project if project is not None else "you run Gemini CLI in")),
            *commands]


def entries(host: str, project: Path | None, env: Mapping[str, str]) -> list[Entry]:
    """Everything `crumb integrate HOST` puts in place (project: the CRUMB root; None: the current folder,
    or for Gemini CLI the workspace it runs in)."""
    if host == "claude":
        return claude(project or Path.cwd())
    if host == "codex":
        return codex(project or Path.cwd(), env)
    if host == "gemini":
        return gemini(project, env)
    raise ValueError(f"unknown host {host!r}: use one of {', '.join(HOSTS)}")
