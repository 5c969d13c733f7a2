"""Memory and process limits on QA's browser: a cgroup of its own, and a finding when a game hits them.

`--max-old-space-size` caps only V8's heap; ArrayBuffers, canvases and WebAssembly memory live outside
it (a game allocating 1.5 GB of ArrayBuffers took the QA process tree to 3.8 GB). So the browser is
started through a wrapper that joins a memory cgroup (`memory.limit_in_bytes`) and a pids cgroup
(`pids.max`) made for this runner: past the limit the kernel kills the biggest renderer, the page
crashes, and QA adds a `memory_limit` finding naming the limit. cgroup v1 or v2, as root; where neither
can be made, `why` says so and the browser runs unlimited (the V8 heap cap still holds).

The browser's share of the CPU is lowered too (`lower_share`): Playwright starts it detached, so the
kernel gives its session an autogroup of its own. On these machines (kernel 6.18) two renderers spinning
in a hung game's endless loop, in an autogroup at nice 0, made the kernel run nothing else for up to a
minute at a time; at nice 5 that did not happen (docs/design.md). It needs no privilege, only patience:
without CAP_SYS_ADMIN the kernel takes one autogroup write a tenth of a second, machine-wide.
"""

from __future__ import annotations

import errno
import os
import shlex
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_MB = int(os.environ.get("CRUMB_QA_MEMORY_MB", "2048"))  # the whole browser: every tab of every check
MAX_PIDS = int(os.environ.get("CRUMB_QA_MAX_PIDS", "512"))
AUTOGROUP_NICE = 5  # the browser's autogroup: 1 still let a hung game's renderers stall the machine, 5 did not
SHARE_RATE_S = 0.1  # the kernel's limit on autogroup writes without CAP_SYS_ADMIN (HZ / 10, machine-wide)
SHARE_WAIT_S = 2.0  # how long lower_share retries a write refused for that rate
_V1, _V2 = Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup")


def _own_cgroup(controller: str) -> Path | None:
    """This process's cgroup folder for `controller` (v1), or its unified folder (v2, controller '')."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if controller and controller in names.split(","):
            return _V1 / controller / path.lstrip("/")
        if not controller and names == "":
            return _V2 / path.lstrip("/")
    return None


@dataclass(eq=False)
class BrowserLimits:
    """The cgroups one QA runner's browsers run in; `active` False (and `why`) where none could be made."""

    why: str
    memory: Path | None = None  # the memory cgroup folder
    pids: Path | None = None
    v2: bool = False
    _dir: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    @property
    def active(self) -> bool:
        return self.memory is not None

    def wrap(self, exe: Path) -> Path:
        """An executable that joins the cgroups, then becomes `exe` (same pid: Playwright's pipes hold)."""
        if not self.active or not (exe.is_file() and os.access(exe, os.X_OK)):
            return exe  # a browser that cannot start keeps Playwright's own error, which names the path
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="crumb-qa-limits-")
        joins = [f"echo $$ > {shlex.quote(str(folder / 'cgroup.procs'))}" for folder in (self.memory, self.pids) if folder]
        script = Path(self._dir.name) / exe.name
        script.write_text("#!/bin/sh\n" + " || exit 125\n".join(joins) + " || exit 125\n"
                          f"exec {shlex.quote(str(exe))} \"$@\"\n")
        script.chmod(0o700)
        return script

    def kills(self) -> int:
        """How many times the kernel's OOM killer has struck in the memory cgroup."""
        if self.memory is None:
            return 0
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            for line in (self.memory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def close(self) -> None:
        for folder in (self.memory, self.pids):
            if folder is not None:
                try:
                    folder.rmdir()  # only once empty: the browser is gone
                except OSError:
                    pass
        if self._dir is not None:
            self._dir.cleanup()


def autogroup_of(text: str) -> str | None:
    """The autogroup named in a `/proc/<pid>/autogroup` file ('/autogroup-12 nice 0'), or None where the
    file is empty: the process is in the kernel's default group, not an autogroup of its own (seen on CI)."""
    words = text.split()
    return words[0] if words else None


def has_autogroups() -> bool:
    """Whether this kernel puts this process in an autogroup it shows (so one there is to lower)."""
    try:
        return autogroup_of(Path("/proc/self/autogroup").read_text()) is not None
    except OSError:
        return False


def lower_share(pid: int, nice: int = AUTOGROUP_NICE) -> str | None:
    """Set the autogroup of process `pid` (its session's group: its renderers, forked later, join it) to
    `nice`; never this process's own group. None when done, or when there is no autogroup to lower (a
    kernel that shows none schedules the browser's threads one by one, like any other); else why not.

    Without CAP_SYS_ADMIN the kernel takes one such write per SHARE_RATE_S, machine-wide, and refuses
    the others with EAGAIN (another QA runner starting its browser at the same moment): wait and retry."""
    theirs = Path(f"/proc/{pid}/autogroup")
    try:
        group = autogroup_of(theirs.read_text())
        if group is None:
            return None
        if group == autogroup_of(Path("/proc/self/autogroup").read_text()):
            return f"the browser shares QA's own autogroup ({group})"
    except FileNotFoundError:
        return None  # a kernel without autogroups, or the browser already gone (its watcher says so)
    except OSError as exc:
        return f"no autogroup to read ({exc})"
    end = time.monotonic() + SHARE_WAIT_S
    while True:
        try:
            theirs.write_text(str(nice))
            return None
        except OSError as exc:
            if exc.errno != errno.EAGAIN or time.monotonic() >= end:
                return f"the kernel refused to set the browser's autogroup to nice {nice} ({exc})"
        time.sleep(SHARE_RATE_S / 5)


def open_limits(tag: str) -> BrowserLimits:
    """A memory (and pids) cgroup for one runner, named after `tag`; BrowserLimits(why) where refused."""
    name = f"crumb-qa-{os.getpid()}-{tag}"
    unified = _own_cgroup("")
    v1 = _own_cgroup("memory")
    try:
        if v1 is not None and v1.is_dir():
            memory = v1 / name
            memory.mkdir(exist_ok=True)
            (memory / "memory.limit_in_bytes").write_text(str(MEMORY_MB << 20))
            try:
                (memory / "memory.memsw.limit_in_bytes").write_text(str(MEMORY_MB << 20))  # no escape into swap
            except OSError:
                pass
            pids = None
            pv1 = _own_cgroup("pids")
            if pv1 is not None and pv1.is_dir():
                try:
                    pids = pv1 / name
                    pids.mkdir(exist_ok=True)
                    (pids / "pids.max").write_text(str(MAX_PIDS))
                except OSError:
                    pids = None
            return BrowserLimits(f"memory {MEMORY_MB} MB, {MAX_PIDS} processes (cgroup v1)", memory=memory, pids=pids)
        if unified is not None and (unified / "cgroup.controllers").exists():
            folder = unified / name
            folder.mkdir(exist_ok=True)
            (folder / "memory.max").write_text(str(MEMORY_MB << 20))
            (folder / "pids.max").write_text(str(MAX_PIDS))
            return BrowserLimits(f"memory {MEMORY_MB} MB, {MAX_PIDS} processes (cgroup v2)", memory=folder, v2=True)
    except OSError as exc:
        return BrowserLimits(f"no cgroup for the browser ({exc.strerror or exc}): only V8's heap is capped")
    return BrowserLimits("no cgroup for the browser on this system: only V8's heap is capped")
