"""CRUMB: turn a one-line game pitch into a playable browser prototype."""

__version__ = "0.1.0"
