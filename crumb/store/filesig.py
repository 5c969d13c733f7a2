"""A file's signature: has it changed since we last looked, without reading it?

(size, mtime_ns, inode) from one lstat: a save that keeps the size still moves mtime, and an
atomic replace (write elsewhere, rename over) brings another inode. The watcher, the poller, the
refused-pitch finder and the Studio's caches all ask this one question the same way; an inbox
file's `stamp` (inode:mtime_ns, recorded with every event made from it) is its short form.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple


class FileSig(NamedTuple):
    size: int
    mtime_ns: int
    ino: int


def signature_of(st: os.stat_result) -> FileSig:
    return FileSig(st.st_size, st.st_mtime_ns, st.st_ino)


def signature(path: str | Path) -> FileSig | None:
    """The signature of `path` itself (a symlink is not followed), or None when it is not there."""
    try:
        return signature_of(os.lstat(path))
    except OSError:
        return None


def stamp_of(st: os.stat_result) -> str:
    """The stamp an inbox source records: "inode:mtime_ns" (its mtime also dates a pitch's session id)."""
    return f"{st.st_ino}:{st.st_mtime_ns}"


def stamp(path: str | Path) -> str | None:
    """stamp_of(lstat(path)), or None when it is not there."""
    try:
        return stamp_of(os.lstat(path))
    except OSError:
        return None
