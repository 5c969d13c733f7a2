"""Replay: the fold of the reducer over a transcript. Runs no effect; same file → same state."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from crumb.protocol.line import TranscriptLine
from crumb.reducer.reduce import apply, fold, initial_state
from crumb.reducer.state import SessionState
from crumb.store.reader import read_lines


def replay_events(events: Iterable[dict[str, Any] | TranscriptLine], session: str = "") -> SessionState:
    state = initial_state(session)
    for event in events:
        apply(state, event)
    return state


def replay_file(path: Path, *, validate: bool = False) -> SessionState:
    """Rebuild a session's state from its transcript (streamed: memory does not grow with length).

    Lines are read as TranscriptLine structs (store.reader.read_lines) and folded (reduce.fold): the
    state replaying read_events' dicts gives, built with less work."""
    return fold(initial_state(), read_lines(path, validate=validate))
