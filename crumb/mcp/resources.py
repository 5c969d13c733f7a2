"""What each MCP resource reads: a session's spec, the tail of its transcript, and where its game is."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from crumb.cli.verdict import game_path
from crumb.mcp.tools import ToolRefused, session_of, spec
from crumb.store import paths

TAIL_LINES = 50


def spec_text(root: Path, session: str) -> str:
    return spec(root, session)


def transcript_tail(root: Path, session: str, lines: int = TAIL_LINES) -> str:
    """The last transcript lines as written (JSONL): the record itself, not a rendering of it."""
    sid = session_of(root, session)
    try:
        with open(paths.transcript_path(root, sid), encoding="utf-8") as fh:
            return "".join(deque(fh, maxlen=lines))
    except FileNotFoundError:
        raise ToolRefused(f"{sid} has no transcript yet: the daemon has not taken its pitch") from None


def game(root: Path, session: str) -> str:
    """The absolute path of the session's game entry (index.html), to open or to run `crumb qa` on."""
    sid = session_of(root, session)
    entry = game_path(root, sid)
    if not entry.is_file():
        raise ToolRefused(f"{sid} has no game yet: wait until its first build")
    return str(entry)
