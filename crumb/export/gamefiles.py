"""Reading a session for export and release: its facts (one read of the transcript, replayed), the game
folder in force and QA's screenshots, and writing a new file without ever half-writing or overwriting one.

The effectful half of crumb/export/facts.py; both `crumb export` and `crumb release` read through it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crumb.export.facts import SessionFacts, gather
from crumb.reducer.replay import replay_events
from crumb.store import paths
from crumb.store.durable import write_whole
from crumb.store.reader import TranscriptError, read_events


class GameFilesError(Exception):
    """What cannot be read or written: one line naming the problem and what to do (the CLI prints it)."""


MAX_GAME_FILES = 5000  # a game folder bigger than this is not a prototype: refuse rather than copy it


def events_of(root: Path, session: str) -> list[dict[str, Any]]:
    """A session's events; a damaged transcript is one `Error:` line naming the line."""
    try:
        return list(read_events(paths.transcript_path(root, session)))
    except TranscriptError as err:
        raise GameFilesError(str(err)) from None


def load(root: Path, session: str, events: list[dict[str, Any]] | None = None) -> SessionFacts:
    """The facts of a session (from `events` when the caller has read them already)."""
    if events is None:
        events = events_of(root, session)
    return gather(events, replay_events(events, session))


def game_files(root: Path, facts: SessionFacts) -> tuple[dict[str, bytes], str]:
    """The game in force as {relative path: bytes} and its entry page; a one-line error when there is none."""
    folder = paths.game_dir(root, facts.session)
    build = facts.build
    entry = str((build.manifest if build else {}).get("entry") or "index.html")
    if build is None or not (folder / entry).is_file():
        why = "no build yet" if build is None else f"its {paths.GAME_REL}/{entry} is missing"
        todo = (f"wait for it with `crumb wait {facts.session}`" if not facts.settled
                else f"build one with `crumb steer {facts.session} /redo`")
        raise GameFilesError(f"session {facts.session} has no game ({why}; phase {facts.phase}): {todo}")
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue  # QA refuses links out of the folder; a copy never follows one
        files[path.relative_to(folder).as_posix()] = path.read_bytes()
        if len(files) > MAX_GAME_FILES:
            raise GameFilesError(f"{folder} holds more than {MAX_GAME_FILES} files: not a game folder to copy")
    return files, entry


def spec_text(root: Path, facts: SessionFacts) -> str | None:
    """artifacts/spec.md as the session wrote it (or a person edited it); None before the Planner's spec."""
    path = paths.spec_md_path(root, facts.session)
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def screenshots(root: Path, facts: SessionFacts) -> dict[str, bytes]:
    """QA's screenshots that are still on disk, by the session-relative path qa.result names them with."""
    base = paths.session_dir(root, facts.session).resolve()
    out: dict[str, bytes] = {}
    for r in facts.rounds:
        for shot in (r.qa or {}).get("screenshots") or []:
            path = (base / shot).resolve()
            if path.is_relative_to(base) and path.is_file():
                out[shot] = path.read_bytes()
    return out


def refuse_existing(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise GameFilesError(f"{path} exists: pass --force to replace it, or -o another path")


def write_new(path: Path, data: bytes, *, force: bool) -> None:
    """Write `data` to `path` whole (a temporary file beside it, renamed), never over a file unless forced."""
    refuse_existing(path, force)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, data)
