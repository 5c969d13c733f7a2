"""Exporting and keeping a session's game: what `crumb export`, `release`, `versions`, `rm` and `gc` build.

The session's facts gathered from its transcript (facts.py) and read from its folder (gamefiles.py); the
one-file game (inline.py), the archives (archive.py) and the report (report.py) built from them; the
versions kept under versions/ and their lineage (lineage.py), read from disk, one of them measured for
the daemon's `release` event (versions.py); which sessions may be taken away (sweep.py).
Below the daemon and the CLI: it reads the store and files and replays with the reducer, and never
dispatches; the commands in crumb/cli/ are thin shells over it.
"""
