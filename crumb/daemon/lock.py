"""One daemon per root: an flock on .crumb/daemon.lock, with the holder's pid written inside.

The kernel drops an flock when its holder dies, so a stale lock file from a killed daemon is
simply taken over by the next one. The pid is written just after the flock is taken, so for a
moment the file still names the dead holder: readers wait for a live pid rather than report that.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import TypedDict

from crumb.store.paths import state_dir


class DaemonRunning(RuntimeError):
    """Another daemon holds the root."""


def lock_path(root: Path) -> Path:
    return state_dir(root) / "daemon.lock"


PID_WIDTH = 10  # every pid fits; one fixed-width write never leaves a reader half of two pids
HOLDER_WAIT_S = 5.0  # how long a reader waits for a new holder to write its pid


class DaemonStatus(TypedDict):
    running: bool
    pid: int | None


def _read_pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _holder_pid(path: Path) -> int | None:
    """The pid of the process holding the lock, once it has written it; None if it never does."""
    deadline = time.monotonic() + HOLDER_WAIT_S
    while True:
        pid = _read_pid(path)
        if (pid is not None and _alive(pid)) or time.monotonic() > deadline:
            return pid
        time.sleep(0.01)


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
            pid = _holder_pid(self.path)
            raise DaemonRunning(
                f"a crumb daemon is already watching {self.path.parent.parent} (pid {pid}); "
                "stop it first or use another --root"
            ) from None
        record = f"{os.getpid():>{PID_WIDTH}}\n".encode()
        os.pwrite(fd, record, 0)
        os.ftruncate(fd, len(record))
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def daemon_status(root: Path) -> DaemonStatus:
    """Probes the lock without taking it for long."""
    path = lock_path(root)
    if not path.exists():
        return {"running": False, "pid": None}
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return {"running": True, "pid": _holder_pid(path)}
        fcntl.flock(fd, fcntl.LOCK_UN)
        return {"running": False, "pid": None}
    finally:
        os.close(fd)
