"""Run one agent CLI as a child process under CRUMB's limits.

Each run gets its own process group, so a timeout or /cancel kills the agent *and* everything it
spawned (shells, dev servers, test runners). A tiny reaper process watches CRUMB for each run: if CRUMB
dies (even by SIGKILL, which no handler sees), the reaper kills the agent's group, so a restarted daemon
never finds an unseen agent still doing the work it is about to start again. Output is streamed to a per-run log as it arrives and
handed line by line to the adapter, which turns it into progress and a result.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from crumb import procfs
from crumb.actors.base import Limits

#: Linux refuses one argv string over 128 KiB (MAX_ARG_STRLEN); stay well below, send text by stdin.
MAX_ARGV_BYTES = 100 * 1024
#: An agent that prints more than this is flooding; it is killed and the run fails.
MAX_OUTPUT_BYTES = 32 * 1024 * 1024
#: Pipes are read in pieces of at most this size (lines longer than this are reassembled).
READ_CHUNK = 1 << 20
#: After SIGTERM, how long the group gets before SIGKILL.
KILL_GRACE_S = 2.0
#: How often the wait loop looks at the cancel flag.
POLL_S = 0.05
#: How long pipes may stay open after the agent itself exited (a background child holding them).
ORPHAN_GRACE_S = 1.0

Stop = Literal["wall", "idle", "cancel", "flood"]


@dataclass
class ProcessResult:
    """What happened to one child process. `stopped` says why CRUMB killed it, if it did."""

    argv: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    duration_ms: int
    stopped: Stop | None = None
    output_bytes: int = 0
    lines: int = 0
    pid: int = 0

    @property
    def ok(self) -> bool:
        return self.stopped is None and self.returncode == 0

    def stderr_tail(self, n: int = 300) -> str:
        """The end of stderr on one line, for error messages."""
        text = " ".join(self.stderr.split())
        return text[-n:]


class ArgvTooLarge(ValueError):
    """A prompt was about to go through argv; pass it by stdin or a file instead."""


def check_argv(argv: Sequence[str]) -> None:
    total = sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in argv)
    if total > MAX_ARGV_BYTES:
        raise ArgvTooLarge(
            f"command line of {total} bytes exceeds {MAX_ARGV_BYTES}; pass large text through stdin or a file"
        )


def kill_group(pgid: int, grace_s: float = KILL_GRACE_S) -> None:
    """SIGTERM the whole group, then SIGKILL whatever is still there after `grace_s`.

    Descendants that moved to groups of their own go too: CLIs start their tools that way (Gemini CLI
    runs each shell command with setsid), and such a child outlived a kill of the agent's group alone."""
    groups = {pgid} | _stray_groups(pgid)
    for group in groups:
        try:
            os.killpg(group, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            continue
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not any(group_alive(g) for g in groups):
            return
        time.sleep(0.02)  # polling the kernel for the group's end; there is no event to wait on
    for group in groups | _stray_groups(pgid):
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _live_processes() -> Iterator[tuple[int, int, int]]:
    """(pid, parent pid, process group) of every process but zombies (nothing where there is no /proc)."""
    return ((p.pid, p.ppid, p.pgid) for p in procfs.processes() if p.state != "Z")


def _stray_groups(pgid: int) -> set[int]:
    """Process groups other than `pgid` holding descendants of its members (read from /proc; empty where
    there is none). Never this process's own group."""
    parents: dict[int, int] = {}
    groups: dict[int, int] = {}
    for pid, ppid, group in _live_processes():
        parents[pid], groups[pid] = ppid, group
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    todo = [pid for pid, group in groups.items() if group == pgid]
    seen = set(todo)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return {groups[pid] for pid in seen if groups[pid] != pgid} - {os.getpgrp()}


#: The reaper: blocks on a pipe only CRUMB holds open; the pipe closes when CRUMB dies, then the group goes.
_REAPER = ("import os, signal, sys\n"
           "sys.stdin.buffer.read()\n"
           "try:\n    os.killpg(int(sys.argv[1]), signal.SIGKILL)\nexcept OSError:\n    pass\n")


def start_reaper(pgid: int) -> subprocess.Popen[bytes] | None:
    """A process that kills group `pgid` when this process dies; stop it with stop_reaper once the run is over."""
    try:
        return subprocess.Popen([sys.executable, "-I", "-S", "-c", _REAPER, str(pgid)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={},
                                start_new_session=True)  # apart from CRUMB's group: a signal to it spares the reaper
    except OSError:
        return None


def stop_reaper(reaper: subprocess.Popen[bytes] | None) -> None:
    """The run ended under CRUMB's eyes: the reaper goes without killing (the group's id may be reused)."""
    if reaper is None:
        return
    reaper.kill()
    reaper.wait()
    if reaper.stdin is not None:
        reaper.stdin.close()


def group_alive(pgid: int) -> bool:
    """True while any process (other than zombies) is left in the group."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # killpg(0) also succeeds for zombies; look for a live member
    if not os.path.isdir("/proc"):
        return True
    return any(group == pgid for _, _, group in _live_processes())


class _Pump(threading.Thread):
    """Copies one pipe to the log and to a buffer, line by line, noting when output last arrived."""

    def __init__(self, name: str, pipe: IO[bytes], run: _Run) -> None:
        super().__init__(name=f"crumb-pump-{name}", daemon=True)
        self.stream = name
        self.pipe = pipe
        self.run_ = run
        self.chunks: list[bytes] = []

    def run(self) -> None:
        partial = b""
        try:
            # bounded reads: a flood without newlines must not grow memory past the output cap
            for chunk in iter(lambda: self.pipe.readline(READ_CHUNK), b""):
                if not self.run_.count(len(chunk)):
                    partial = b""
                    continue  # flooded: drain until the group is killed
                partial += chunk
                if chunk.endswith(b"\n"):
                    self.run_.took(self, partial)
                    partial = b""
            if partial:
                self.run_.took(self, partial)
        except (OSError, ValueError):
            pass
        finally:
            self.run_.pipe_closed()


class _Run:
    def __init__(self, log: IO[bytes] | None, on_line: Callable[[str], None] | None, max_bytes: int) -> None:
        self.cond = threading.Condition()
        self.last_output = time.monotonic()
        self.total = 0
        self.lines = 0
        self.open_pipes = 2
        self.flooded = False
        self.log = log
        self.on_line = on_line
        self.max_bytes = max_bytes
        self.callback_error: BaseException | None = None

    def count(self, n: int) -> bool:
        """Note n bytes of output (any output is activity); False once the output cap is passed."""
        with self.cond:
            self.last_output = time.monotonic()
            self.total += n
            if self.total > self.max_bytes and not self.flooded:
                self.flooded = True
                self.cond.notify_all()
            return not self.flooded

    def took(self, pump: _Pump, raw: bytes) -> None:
        with self.cond:
            self.lines += 1
            pump.chunks.append(raw)
            if self.log is not None:
                prefix = b"" if pump.stream == "stdout" else b"[stderr] "
                self.log.write(prefix + raw if raw.endswith(b"\n") else prefix + raw + b"\n")
                self.log.flush()
        if pump.stream == "stdout" and self.on_line is not None and self.callback_error is None:
            try:
                self.on_line(raw.decode("utf-8", "replace").rstrip("\r\n"))
            except BaseException as exc:
                self.callback_error = exc

    def pipe_closed(self) -> None:
        with self.cond:
            self.open_pipes -= 1
            self.cond.notify_all()


def run_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    stdin_text: str | None,
    env: Mapping[str, str] | None,
    limits: Limits,
    log_path: Path | None,
    cancel: threading.Event,
    on_line: Callable[[str], None] | None = None,
    max_output_bytes: int = MAX_OUTPUT_BYTES,
) -> ProcessResult:
    """Run argv in a new process group under wall, idle and output limits; kill the group on any stop.

    Raises FileNotFoundError when the executable is missing and ArgvTooLarge for a huge command line;
    every other outcome is described by the returned ProcessResult.
    """
    argv = [str(a) for a in argv]
    check_argv(argv)
    log: IO[bytes] | None = None
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(log_path, "ab")
        log.write(f"$ {' '.join(argv)}\n".encode())
        log.flush()
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=str(cwd),
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except BaseException:
        if log is not None:
            log.close()
        raise
    reaper = start_reaper(proc.pid)
    run = _Run(log, on_line, max_output_bytes)
    assert proc.stdout is not None and proc.stderr is not None
    pumps = [_Pump("stdout", proc.stdout, run), _Pump("stderr", proc.stderr, run)]
    for pump in pumps:
        pump.start()
    if stdin_text is not None:
        threading.Thread(target=_feed, args=(proc, stdin_text), name="crumb-stdin", daemon=True).start()

    stopped: Stop | None = None
    exited_at: float | None = None
    with run.cond:
        while True:
            now = time.monotonic()
            if proc.poll() is not None:
                if run.open_pipes == 0:
                    break
                # the agent exited but something it started still holds the pipes: give it a moment
                exited_at = exited_at or now
                if now - exited_at >= ORPHAN_GRACE_S:
                    break
            if cancel.is_set():
                stopped = "cancel"
            elif run.flooded:
                stopped = "flood"
            elif now - started >= limits.wall_s:
                stopped = "wall"
            elif now - run.last_output >= limits.idle_s:
                stopped = "idle"
            if stopped:
                break
            deadline = min(started + limits.wall_s, run.last_output + limits.idle_s)
            # short slices so a cancel (a plain Event, no callback) is seen within POLL_S
            run.cond.wait(timeout=max(0.005, min(deadline - now, POLL_S)))
    # Whatever happened, nothing of this run may outlive it.
    kill_group(proc.pid, grace_s=KILL_GRACE_S if stopped in (None, "cancel", "wall", "idle") else 0.2)
    stop_reaper(reaper)
    if stopped is None and proc.returncode is None:
        proc.wait()
    else:
        try:
            proc.wait(timeout=KILL_GRACE_S + 1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for pump in pumps:
        pump.join(timeout=1.0)
    for pipe in (proc.stdout, proc.stderr):
        try:
            pipe.close()
        except OSError:
            pass
    duration_ms = int((time.monotonic() - started) * 1000)
    if log is not None:
        note = f"# exit {proc.returncode}" + (f", stopped: {stopped}" if stopped else "") + f", {duration_ms} ms\n"
        log.write(note.encode())
        log.close()
    if run.callback_error is not None:
        raise run.callback_error
    return ProcessResult(
        argv=argv,
        returncode=proc.returncode,
        stdout=b"".join(pumps[0].chunks).decode("utf-8", "replace"),
        stderr=b"".join(pumps[1].chunks).decode("utf-8", "replace"),
        duration_ms=duration_ms,
        stopped=stopped,
        output_bytes=run.total,
        lines=run.lines,
        pid=proc.pid,
    )


def _feed(proc: subprocess.Popen[bytes], text: str) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(text.encode("utf-8"))
    except (BrokenPipeError, OSError):
        pass
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
