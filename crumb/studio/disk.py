"""The Studio's reads of the session folder that every panel shares: a file inside a session (symlinks
resolved, never out of it), its sha256, and a cache of values keyed by a file's stamp."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from crumb.dispatcher import manifest

T = TypeVar("T")


class FileCache:
    """Values keyed by a file's (size, mtime_ns): recomputed only when the file changed."""

    def __init__(self, limit: int = 512) -> None:
        self._data: dict[tuple[str, Path], tuple[tuple[int, int], Any]] = {}
        self._lock = threading.Lock()
        self.limit = limit

    def get(self, name: str, path: Path, compute: Callable[[], T]) -> T:
        try:
            st = path.stat()
            stamp = (st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            stamp = (-1, -1)
        key = (name, path)
        with self._lock:
            hit = self._data.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = compute()
        with self._lock:
            if len(self._data) >= self.limit:
                self._data.pop(next(iter(self._data)))
            self._data[key] = (stamp, value)
        return value


cache = FileCache()


def inside(base: Path, rel: str) -> Path | None:
    """`base/rel` if it exists as a regular file inside `base` (symlinks resolved), else None."""
    if not rel or "\x00" in rel or rel.startswith(("/", "\\")):
        return None
    try:
        root = base.resolve(strict=True)
        target = (root / rel).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(root) or not target.is_file():
        return None
    return target


def sha256_file(path: Path) -> str:
    """The dispatcher's measurement, cached by the file's stamp (the Studio asks on every refresh)."""
    return cache.get("sha", path, lambda: manifest.sha256_file(path))
