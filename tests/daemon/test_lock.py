"""The daemon lock as `crumb status` and a second `crumb watch` read it, in the moment a new daemon takes it over."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path

from crumb.daemon.lock import DaemonLock, DaemonRunning, daemon_status, lock_path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_while_a_new_holder_has_not_yet_written_its_pid_status_waits_for_it_rather_than_name_the_dead_one(tmp_path: Path) -> None:
    path = lock_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(f"{dead_pid()}\n")  # what a SIGKILLed daemon leaves behind
    fd = os.open(path, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the new holder has the lock, not yet its pid
    writer = threading.Timer(0.3, lambda: os.pwrite(fd, f"{os.getpid():>10}\n".encode(), 0))
    writer.start()
    try:
        assert daemon_status(tmp_path) == {"running": True, "pid": os.getpid()}
    finally:
        writer.join()
        os.close(fd)
    assert daemon_status(tmp_path) == {"running": False, "pid": None}


def test_a_longer_dead_pid_leaves_no_digits_behind_the_new_one(tmp_path: Path) -> None:
    path = lock_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("99999999999999\n")
    first = DaemonLock(tmp_path)
    first.acquire()
    try:
        assert path.read_text().strip() == str(os.getpid())
        try:
            DaemonLock(tmp_path).acquire()
        except DaemonRunning as refused:
            assert f"pid {os.getpid()}" in str(refused)
        else:
            raise AssertionError("a second lock on the same root was granted")
    finally:
        first.release()
