"""The pure core: reducer, session state, anti-deception validator, replay."""

from crumb.reducer.reduce import apply, initial_state, reduce
from crumb.reducer.state import SessionState

__all__ = ["SessionState", "apply", "initial_state", "reduce"]
