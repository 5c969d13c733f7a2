"""One daemon per root: an flock on .crumb/daemon.lock, with the holder's pid written inside.

The kernel drops an flock when its holder dies, so a stale lock file from a killed daemon is
simply taken over by the next one.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from crumb.store.paths import state_dir


class DaemonRunning(RuntimeError):
    """Another daemon holds the root."""


def lock_path(root: Path) -> Path:
    return state_dir(root) / "daemon.lock"


def _read_pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


class DaemonLock:
    def __init__(self, root: Path) -> None:
        self.path = lock_path(root)
        self.fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid = _read_pid(self.path)
            raise DaemonRunning(
                f"a crumb daemon is already watching {self.path.parent.parent} (pid {pid}); "
                "stop it first or use another --root"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def daemon_status(root: Path) -> dict[str, Any]:
    """{"running": bool, "pid": int | None} — probes the lock without taking it for long."""
    path = lock_path(root)
    if not path.exists():
        return {"running": False, "pid": None}
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return {"running": True, "pid": _read_pid(path)}
        fcntl.flock(fd, fcntl.LOCK_UN)
        return {"running": False, "pid": None}
    finally:
        os.close(fd)
