"""Starting `crumb watch` for a root from another program (the Studio's Start button, the MCP server's
pitch): detached, logging to .crumb/daemon.log, and answered only once it holds the root's lock.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from crumb.daemon.lock import daemon_status
from crumb.store.paths import state_dir

START_TIMEOUT_S = 20.0  # a cold start imports the dispatcher and the QA runner: seconds on a loaded machine
_LOG_READ = 65_536  # how much of the log's new part is read for the daemon's own error line


class DaemonFailed(RuntimeError):
    """The daemon started and exited before it took the root; str() is its own one-line error."""


def daemon_log(root: Path) -> Path:
    """Where a daemon started this way writes its output (appended, one file per root)."""
    return state_dir(root) / "daemon.log"


def start_daemon(root: Path, timeout: float = START_TIMEOUT_S) -> dict[str, Any]:
    """Start `crumb watch` for this root, detached, logging to .crumb/daemon.log (no-op if one runs).

    Returns only once the daemon holds the root's lock: a daemon that exits at once (a broken
    crumb.toml, ...) raises DaemonFailed with its own error line instead of being reported as running.
    """
    state: dict[str, Any] = {**daemon_status(root), "available": True}
    if state.get("running"):
        return {**state, "started": False}
    log_path = daemon_log(root)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        offset = log.tell()
        proc = subprocess.Popen(
            [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')",
             "--root", str(root), "watch"],
            cwd=root, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    deadline = time.monotonic() + timeout
    while True:
        state = {**daemon_status(root), "available": True}
        if state.get("running"):  # ours, or one started meanwhile by someone else (ours then exits)
            return {**state, "started": state.get("pid") == proc.pid}
        try:
            code = proc.wait(timeout=0.05)  # the wait is the pacing: it returns the moment the daemon exits
        except subprocess.TimeoutExpired:
            if time.monotonic() > deadline:
                return {**state, "pid": proc.pid, "started": True, "starting": True}
            continue
        state = {**daemon_status(root), "available": True}
        if state.get("running"):
            return {**state, "started": False}
        raise DaemonFailed(_last_error(log_path, offset) or f"`crumb watch` exited with status {code}")


def _last_error(log_path: Path, offset: int) -> str | None:
    """The daemon's own error: the last `Error: ...` line it wrote to the log after `offset`, else its last line."""
    try:
        with open(log_path, "rb") as f:
            f.seek(offset)
            text = f.read(_LOG_READ).decode("utf-8", "replace")
    except OSError:
        return None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    errors = [ln.removeprefix("Error: ") for ln in lines if ln.startswith("Error: ")]
    found = errors or lines
    return found[-1] if found else None
