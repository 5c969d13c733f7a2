"""Making new names survive a power cut, and files that are never seen half-written.

fsync of a file makes its bytes durable, not its name: the directory entry lives in the parent folder,
which needs an fsync of its own. A brand-new transcript (or a torn tail moved aside) is only safe once
its folder, and the folder that folder was created in, are synced too.

A file that others read while it is rewritten (spec.md, a game's files, a CLI's config) is written whole
by write_whole: the one way CRUMB replaces a file.
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


def write_whole(path: Path, data: bytes | str, *, mode: int = 0o644) -> None:
    """Write `data` (a str as UTF-8) to `path` whole: a reader sees the old file or the new one, never
    half of either, and a failure leaves the old one as it was.

    The bytes go to a temp file beside `path` under a dot-name of its own (two writers never share one),
    created with `mode` less the umask, as open(2) does (a 0o600 file is never readable by others, not
    even for an instant); one rename then puts it in place. No temp file is left behind, even on failure.
    """
    path = Path(path)
    body = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")  # O_EXCL: a clash is an error, never shared
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
