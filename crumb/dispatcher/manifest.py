"""Measure what a build really produced: files on disk and their sha256, never an actor's claim."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from crumb.protocol.game import FileEntry, Manifest


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def measure(game_dir: Path, *, relative_to: Path, entry: str = "index.html") -> tuple[Manifest, list[str]]:
    """The manifest of regular files under game_dir; symlinks and special files are left out and named."""
    notes: list[str] = []
    files: list[FileEntry] = []
    if game_dir.is_dir():
        for dirpath, dirnames, filenames in os.walk(game_dir, followlinks=False):
            base = Path(dirpath)
            for name in list(dirnames):
                if (base / name).is_symlink():
                    notes.append(f"symlink {(base / name).relative_to(game_dir)} left out: games may not link outside")
                    dirnames.remove(name)
            dirnames.sort()
            for name in sorted(filenames):
                path = base / name
                rel = path.relative_to(game_dir).as_posix()
                if path.is_symlink() or not path.is_file():
                    notes.append(f"{rel} left out: not a regular file (symlinks are never followed)")
                    continue
                files.append(FileEntry(path=rel, sha256=sha256_file(path), bytes=path.stat().st_size))
    manifest = Manifest(dir=game_dir.relative_to(relative_to).as_posix(), entry=entry, files=files)
    return manifest, notes
