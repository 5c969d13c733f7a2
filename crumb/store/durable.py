"""Making new names survive a power cut.

fsync of a file makes its bytes durable, not its name: the directory entry lives in the parent folder,
which needs an fsync of its own. A brand-new transcript (or a torn tail moved aside) is only safe once
its folder, and the folder that folder was created in, are synced too.
"""

from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (names created, renamed or removed in it) to disk."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs(path: Path, *, durable: bool) -> None:
    """mkdir -p; when durable, sync the parent of every folder this call created."""
    path = Path(path)
    missing: list[Path] = []
    probe = path
    while not probe.is_dir():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    if not missing:
        return
    path.mkdir(parents=True, exist_ok=True)
    if durable:
        for folder in reversed(missing):  # top-down: a name is synced only after its parent's
            fsync_dir(folder.parent)


def fsync_new_file(path: Path) -> None:
    """Make a just-created file's name durable: sync its folder and the folder that holds that one."""
    path = Path(path)
    fsync_dir(path.parent)
    if path.parent.parent != path.parent:
        fsync_dir(path.parent.parent)
