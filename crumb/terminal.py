"""Text bound for a terminal: what agents, pitches and game files wrote is shown, never obeyed.

A pitch, a spec's title or an agent's progress message can hold escape sequences (retitle the terminal,
clear it, fake a log line with a carriage return or a line break). Every character that is not
printable — C0 and C1 controls, DEL, line breaks, bidirectional and other format characters — is shown
as its Python escape (`\\x1b`, `\\n`, `\\u202e`), so a line stays one line and says what it holds.
"""

from __future__ import annotations


def safe(text: str, limit: int | None = None) -> str:
    """`text` with every unprintable character escaped; cut to `limit` characters (with …) if given."""
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))
    if limit is not None and len(shown) > limit:
        return shown[: limit - 1] + "…"
    return shown
