"""Replay: the fold of the reducer over a transcript. Runs no effect; same file → same state."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.state import SessionState
from crumb.store.reader import read_events


def replay_events(events: Iterable[dict[str, Any]], session: str = "") -> SessionState:
    state = initial_state(session)
    for event in events:
        apply(state, event)
    return state


def replay_file(path: Path, *, validate: bool = False) -> SessionState:
    """Rebuild a session's state from its transcript (streamed: memory does not grow with length)."""
    return replay_events(read_events(path, validate=validate))
