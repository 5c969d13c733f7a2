"""CRUMB Studio: a live web console over the session folders.

It reads transcripts and artifacts and writes only inbox files, like any other tool. Modules:
security (Host/Origin/token checks), tail (one shared transcript tail per session, fanned out
over SSE), panels (the session page's panels, computed once per change and pushed on that SSE),
data (what the pages show, folded from the transcript), rejected (pitches the daemon refused),
actions (inbox drops, daemon start), app (routes), preview (the game, on a second origin), server
(binding and running both).
"""

from crumb.studio.server import Studio

__all__ = ["Studio"]
