"""Where things live under a root folder. The one place that knows the on-disk layout."""

from __future__ import annotations

import re
from pathlib import Path

SESSION_ID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")

# names on disk (the functions below join them; modules that match names, like the watcher, use these)
INBOX = "inbox"
SESSIONS = "sessions"
TRANSCRIPT = "transcript.jsonl"
ARTIFACTS = "artifacts"
ARCHIVE = "archive"
REJECTED = "rejected"  # inbox/rejected/, <session>/archive/rejected/
LOGS = "logs"
SPEC_MD = "spec.md"
GAME = "game"
STATE = ".crumb"
CONFIG = "crumb.toml"
PRESETS = "presets"
SPEC_REL = f"{ARTIFACTS}/{SPEC_MD}"  # as an inbox source names a person's edit of it
GAME_REL = f"{ARTIFACTS}/{GAME}"  # a build manifest's default `dir`
SESSION_FOLDERS = (INBOX, ARTIFACTS, ARCHIVE)  # made when a session starts


def inbox_dir(root: Path) -> Path:
    return root / INBOX


def sessions_dir(root: Path) -> Path:
    return root / SESSIONS


def session_dir(root: Path, session: str) -> Path:
    return sessions_dir(root) / session


def transcript_path(root: Path, session: str) -> Path:
    return session_dir(root, session) / TRANSCRIPT


def session_inbox(root: Path, session: str) -> Path:
    return session_dir(root, session) / INBOX


def artifacts_dir(root: Path, session: str) -> Path:
    return session_dir(root, session) / ARTIFACTS


def game_dir(root: Path, session: str) -> Path:
    """The game in force (a new build moves the previous one to artifacts/history/round-N)."""
    return artifacts_dir(root, session) / GAME


def qa_dir(root: Path, session: str) -> Path:
    """QA's screenshots of the session's latest check."""
    return artifacts_dir(root, session) / "qa"


def spec_md_path(root: Path, session: str) -> Path:
    return artifacts_dir(root, session) / SPEC_MD


def archive_dir(root: Path, session: str) -> Path:
    """Every inbox file a session consumed, as it was."""
    return session_dir(root, session) / ARCHIVE


def logs_dir(root: Path, session: str) -> Path:
    return session_dir(root, session) / LOGS


def state_dir(root: Path) -> Path:
    """Private runtime files of CRUMB itself (daemon lock, logs)."""
    return root / STATE


def config_path(root: Path) -> Path:
    return root / CONFIG


def presets_dir(root: Path) -> Path:
    """A project's own presets (presets/*.toml)."""
    return root / PRESETS


def list_sessions(root: Path) -> list[str]:
    """Session ids, newest first (ULIDs sort by creation time)."""
    base = sessions_dir(root)
    if not base.is_dir():
        return []
    ids = [p.name for p in base.iterdir() if SESSION_ID.match(p.name) and (p / TRANSCRIPT).is_file()]
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
