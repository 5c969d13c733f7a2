"""Pitches the daemon refused: found in inbox/rejected/ by the session id in their front matter.

A rejected pitch never gets a session folder, so without this a Studio page, `crumb wait` or
`crumb run` would wait for the daemon forever. The daemon keeps the file as inbox/rejected/NAME with its one-line reason in NAME.why.txt.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

from pydantic import BaseModel

from crumb.daemon.files import REJECTED, WHY_SUFFIX, why_name
from crumb.store.filesig import signature_of
from crumb.store.paths import inbox_dir

HEAD_BYTES = 4096  # front matter sits at the top; a pitch rejected for its size is never read whole
_SESSION_LINE = re.compile(r"^\s*session\s*:\s*['\"]?([0-9A-Za-z]{26})['\"]?\s*(?:#.*)?$", re.MULTILINE)


class Rejection(BaseModel):
    """What the session page shows for a refused pitch."""

    file: str  # root-relative, e.g. inbox/rejected/studio-pitch-01J....txt
    reason: str | None  # None only when its .why.txt is unreadable or missing (a file kept by hand)


_heads: dict[tuple[str, int, int, int], str | None] = {}
_heads_lock = threading.Lock()


def _session_of(entry: os.DirEntry[str]) -> str | None:
    """The session id a pitch file names in its front matter (cached by the file's stamp)."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    key = (entry.name, *signature_of(st))
    with _heads_lock:
        if key in _heads:
            return _heads[key]
    found: str | None = None
    if entry.is_file(follow_symlinks=False):
        try:
            with open(entry.path, "rb") as f:
                head = f.read(HEAD_BYTES).decode("utf-8", "replace")
        except OSError:
            head = ""
        front = head.lstrip("\ufeff \t\r\n")
        if front.startswith("---"):
            m = _SESSION_LINE.search(front.split("\n---", 1)[0])
            found = m.group(1).upper() if m else None
    with _heads_lock:
        if len(_heads) > 4096:
            _heads.clear()
        _heads[key] = found
    return found


def session_named(entry: os.DirEntry[str]) -> str | None:
    """The session a pitch file's front matter names (None when it names none): for a file still in inbox/ too."""
    return _session_of(entry)


def why_file(kept: Path) -> Path | None:
    """The NAME.why.txt beside a kept file (the daemon shortens NAME when the whole is too long)."""
    why = kept.with_name(why_name(kept.name))
    return why if why.is_file() else None


def find(root: Path, session: str) -> Rejection | None:
    """The rejected pitch that would have started `session`, with the daemon's reason, or None."""
    folder = inbox_dir(root) / REJECTED
    try:
        entries = [e for e in os.scandir(folder) if not e.name.endswith(WHY_SUFFIX) and not e.name.startswith(".")]
    except OSError:
        return None
    for entry in sorted(entries, key=lambda e: e.name, reverse=True):
        if _session_of(entry) != session:
            continue
        kept = Path(entry.path)
        why = why_file(kept)
        reason = None
        if why is not None:
            try:
                reason = why.read_text(encoding="utf-8", errors="replace").strip()[:2000] or None
            except OSError:
                pass
        return Rejection(file=str(kept.relative_to(root)), reason=reason)
    return None
