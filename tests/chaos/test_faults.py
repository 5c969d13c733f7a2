"""Single faults with a defined outcome: an agent process killed mid-run, the daemon killed while an agent
runs, a read-only session folder. (The QA browser killed mid-check: tests/qa/test_runner.py; the disk
full and the clock stepping back when appending: tests/core/test_store.py.)"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from crumb.store import paths
from crumb.store.reader import read_events
from tests.daemon.conftest import allow_command, drop, events, start_watch, state, tagged_processes, wait_done
from tests.studio.scripted import Scripted
from tests.wait import wait_until

AGENT = Path(__file__).resolve().parents[1] / "agents" / "json_agent.py"

# A `command` agent whose first run records its pid and then never answers (a model that hangs); every
# later run is the ordinary JSON agent of the `command` harness, which answers at once.
FIRST_RUN_HANGS = """#!{python}
import os, signal, sys
from pathlib import Path
first = Path({pidfile!r})
if not first.exists():
    first.write_text(str(os.getpid()))
    sys.stdin.read()
    signal.pause()
os.execv(sys.executable, [sys.executable, {agent!r}, "ok"])
"""


def agent_script(folder: Path) -> tuple[Path, Path]:
    """The agent above, and the file where its first run leaves its pid."""
    script, pidfile = folder / "agent", folder / "first-run.pid"
    script.write_text(FIRST_RUN_HANGS.format(python=sys.executable, pidfile=str(pidfile), agent=str(AGENT)))
    script.chmod(0o755)
    return script, pidfile


def gone(pid: int) -> bool:
    try:
        return b"State:\tZ" in Path(f"/proc/{pid}/status").read_bytes()
    except FileNotFoundError:
        return True


def test_an_agent_killed_mid_run_is_recorded_retried_and_the_session_finishes(root: Path, daemon: Any) -> None:
    """The OOM killer or a person ends the planner's process: the run is a failure that names the kill,
    the planner runs again on the same harness, and the session goes on to its end."""
    script, pidfile = agent_script(root.parent)
    allow_command(root, str(script))
    drop(root / "inbox", "pitch.txt", f"---\nplanner: command:{script}\n---\na snake game\n")
    pid = int(wait_until(lambda: pidfile.exists() and pidfile.read_text(), 60, "the planner's first run"))
    session = paths.list_sessions(root)[0]
    os.kill(pid, signal.SIGKILL)

    final = wait_done(root, session, 180)
    failed = events(root, session, "effect.failed")
    assert len(failed) == 1, [e["data"] for e in failed]
    message = failed[0]["data"]["error"]
    assert "planner" in message and ("-9" in message or "SIGKILL" in message), message
    assert "\n" not in message and "Traceback" not in message, message
    started = [e["data"] for e in events(root, session, "effect.started") if e["data"].get("actor") == "planner"]
    assert [s["adapter"] for s in started] == ["command", "command"], started  # retried, not swapped
    assert not events(root, session, "circuit.opened")
    assert events(root, session, "spec"), "the retried planner's spec was not recorded"
    assert final.done["reason"] != "error", final.done
    seqs = [e["seq"] for e in read_events(paths.transcript_path(root, session), validate=True)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert gone(pid)


def test_an_agent_does_not_outlive_a_killed_daemon(tmp_path: Path) -> None:
    """The daemon is SIGKILLed while an agent runs: the agent must go with it (the restarted daemon runs
    the effect again, so a survivor would be a second agent doing the same work unseen)."""
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    script, pidfile = agent_script(tmp_path)
    tag = uuid.uuid4().hex
    proc = start_watch(root, {"CRUMB_CHAOS_TAG": tag})
    try:
        allow_command(root, str(script))
        drop(root / "inbox", "pitch.txt", f"---\nplanner: command:{script}\n---\na snake game\n")
        pid = int(wait_until(lambda: pidfile.exists() and pidfile.read_text(), 60, "the planner to start"))
        os.kill(proc.pid, signal.SIGKILL)  # the daemon alone, as the OOM killer would
        proc.wait(timeout=30)
        try:
            wait_until(lambda: gone(pid), 20, "the agent to end with its daemon")
        finally:
            for stray in tagged_processes(tag):
                os.kill(stray, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


# ---------------------------------------------------------------- a read-only session folder


@contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A command prefix under which `folder` is read-only for real. Root ignores file modes, so as root the
    command runs in a mount namespace of its own with `folder` bind-mounted read-only (gone when it exits,
    nothing to clean up); as anyone else the folder's write bits are taken away for the duration."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")] if not p.is_symlink()}
        for p, mode in modes.items():
            p.chmod(mode & ~0o222)
        try:
            yield []
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    prefix = ["unshare", "-m", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
              str(folder)]
    if shutil.which("unshare") is None:
        pytest.skip("cannot make a read-only folder as root here: no unshare")
    probe = subprocess.run([*prefix, "sh", "-c", ': > "$0/.probe"', str(folder)], capture_output=True, text=True)
    if "Read-only" not in probe.stderr:
        pytest.skip(f"cannot make a read-only folder as root here: {probe.stderr.strip()[:200]}")
    yield prefix


def stuck_session(root: Path) -> Scripted:
    """A session written as a daemon would, waiting for its planner."""
    s = Scripted(root)
    s.start()
    (s.dir / "inbox").mkdir(exist_ok=True)
    return s


def test_a_read_only_session_is_named_and_left_alone_while_the_others_go_on(root: Path) -> None:
    ro = stuck_session(root)
    before = paths.transcript_path(root, ro.session).read_bytes()
    drop(root / "inbox", "pitch.txt", "a snake game\n")
    with read_only(ro.dir) as prefix:
        proc = subprocess.Popen([*prefix, sys.executable, "-m", "crumb", "--root", str(root), "watch"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            wait_until(lambda: [s for s in paths.list_sessions(root) if s != ro.session] or proc.poll() is not None,
                       60, "a session for the new pitch")
            alive = proc.poll() is None
            if alive:
                wait_done(root, [s for s in paths.list_sessions(root) if s != ro.session][0], 180)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=60)
    assert alive, f"the daemon stopped: {err[-2000:]}"
    assert "Traceback" not in err, err[-2000:]
    lines = [ln for ln in err.splitlines() if ro.session[-6:] in ln and "read-only" in ln]
    assert lines, f"nothing names the read-only session: {err[-2000:]}"
    assert paths.transcript_path(root, ro.session).read_bytes() == before
    assert state(root, ro.session).pending, "the read-only session's work was dropped"


@pytest.mark.parametrize("where", ["pitch", "steer"])
def test_writing_into_a_read_only_inbox_is_one_clear_line(root: Path, where: str) -> None:
    s = stuck_session(root)
    folder, args = (root / "inbox", ["pitch", "a snake game"]) if where == "pitch" else \
        (s.dir, ["steer", s.session, "make it red"])
    with read_only(folder) as prefix:
        out = subprocess.run([*prefix, sys.executable, "-m", "crumb", "--root", str(root), *args],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("Error:") and "read-only" in last.lower(), last
    assert not [p for p in (root / "inbox").iterdir() if p.is_file()] and not list((s.dir / "inbox").iterdir())
