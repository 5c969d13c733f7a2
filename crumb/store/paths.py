"""Where things live under a root folder. The one place that knows the on-disk layout."""

from __future__ import annotations

import re
from pathlib import Path

SESSION_ID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


def inbox_dir(root: Path) -> Path:
    return root / "inbox"


def sessions_dir(root: Path) -> Path:
    return root / "sessions"


def session_dir(root: Path, session: str) -> Path:
    return sessions_dir(root) / session


def transcript_path(root: Path, session: str) -> Path:
    return session_dir(root, session) / "transcript.jsonl"


def session_inbox(root: Path, session: str) -> Path:
    return session_dir(root, session) / "inbox"


def artifacts_dir(root: Path, session: str) -> Path:
    return session_dir(root, session) / "artifacts"


def state_dir(root: Path) -> Path:
    """Private runtime files of CRUMB itself (daemon lock, logs)."""
    return root / ".crumb"


def list_sessions(root: Path) -> list[str]:
    """Session ids, newest first (ULIDs sort by creation time)."""
    base = sessions_dir(root)
    if not base.is_dir():
        return []
    ids = [p.name for p in base.iterdir() if SESSION_ID.match(p.name) and (p / "transcript.jsonl").is_file()]
    return sorted(ids, reverse=True)


def resolve_session(root: Path, ref: str) -> str:
    """A full id, or a unique prefix/suffix of one (people type the last few characters)."""
    ref = ref.strip().upper()
    sessions = list_sessions(root)
    if ref in sessions:
        return ref
    matches = [s for s in sessions if s.startswith(ref) or s.endswith(ref)] if ref else []
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise LookupError(f"no session {ref!r} under {sessions_dir(root)}; `crumb ls` lists them")
    raise LookupError(f"{ref!r} matches {len(matches)} sessions; give more characters")
