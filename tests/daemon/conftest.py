"""A real daemon on a temporary root: real watchdog, real files, real Chromium for QA."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from crumb.daemon.daemon import Daemon
from crumb.reducer.replay import replay_file
from crumb.reducer.state import SessionState
from crumb.store import paths
from crumb.store.reader import read_events
from tests.wait import wait_until


class RunningDaemon:
    def __init__(self, root: Path, qa_runner: Any, **kw: Any) -> None:
        self.root = root
        self.daemon = Daemon(root, qa_runner=qa_runner, echo=False, **kw)
        self.thread = threading.Thread(target=self.daemon.run, daemon=True)

    def __enter__(self) -> RunningDaemon:
        self.thread.start()
        wait_until(lambda: self.daemon.ready.is_set() or not self.thread.is_alive(), 30, "daemon ready")
        assert self.thread.is_alive(), "the daemon did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.daemon.dispatcher._qa = None  # the shared runner outlives this daemon
        self.daemon.stop()
        self.thread.join(timeout=60)


def sessions(root: Path) -> list[str]:
    return paths.list_sessions(root)


def state(root: Path, session: str) -> SessionState:
    return replay_file(paths.transcript_path(root, session))


def events(root: Path, session: str, kind: str | None = None) -> list[dict[str, Any]]:
    return [e for e in read_events(paths.transcript_path(root, session)) if kind is None or e["kind"] == kind]


def wait_done(root: Path, session: str, timeout: float = 120) -> SessionState:
    return wait_until(lambda: (s := state(root, session)).done is not None and s, timeout, f"{session} done")


def drop(folder: Path, name: str, text: str) -> Path:
    """Save a file the way most tools do: write a temp name, then rename onto the target."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, folder / name)
    return folder / name


def allow_command(root: Path, command: str) -> None:
    """crumb.toml's allow-list names `command`, so pitch files a test drops may bind it (local_only.py)."""
    import json

    config = root / "crumb.toml"
    old = config.read_text() if config.exists() else ""
    config.write_text(old + f"\n[security]\nallow_commands = [{json.dumps(command)}]\n")


def crumb(root: Path, *args: str, timeout: float = 120, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def start_watch(root: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "watch", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, **(env or {})})
    from crumb.daemon.lock import daemon_status

    wait_until(lambda: daemon_status(root)["running"] or proc.poll() is not None, 30, "daemon lock")
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    return proc


def stop_watch(proc: subprocess.Popen[str]) -> None:
    """Stop a `crumb watch` started by start_watch as a person would (SIGTERM), SIGKILL if it hangs."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        kill9(proc)


def tagged_processes(tag: str) -> list[int]:
    """Processes carrying an environment marker: everything a daemon started inherits it."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if tag.encode() in Path(f"/proc/{pid}/environ").read_bytes():
                    found.append(int(pid))
            except OSError:
                continue
    return found


def kill9(proc: subprocess.Popen[str]) -> None:
    """SIGKILL the daemon and everything it started (its process group): a crash, not a shutdown."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)
