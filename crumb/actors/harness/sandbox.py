"""Agents may read the project but not write it: each agent process gets a mount namespace of its own
in which the sessions, the inbox, CRUMB's state folder and crumb.toml are mounted read-only.

An agent runs as the person's own user, so without this it could append a forged `done` to any
transcript, drop a pitch file with its own bindings into the inbox, or edit crumb.toml's allow-list,
by `../`, an absolute path, or a symlink it made in its folder (the kernel refuses all three alike).
Where mount namespaces are refused (not root, no `unshare`), `wrap` leaves the argv as it is and
`available()` says why; the private work folder outside the session is then the only boundary.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

# Bind each folder onto itself read-only, then run the agent; any failure stops before the agent starts.
_SCRIPT = ('for d; do [ "$d" = -- ] && break; mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" "$d" || exit 126; '
           'done; while [ "$1" != -- ]; do shift; done; shift; exec "$@"')


@functools.lru_cache(maxsize=1)
def available() -> tuple[bool, str]:
    """(True, "") when this machine gives a process a mount namespace; else (False, why)."""
    unshare, mount = shutil.which("unshare"), shutil.which("mount")
    if not unshare or not mount:
        return False, "no unshare/mount (util-linux) on PATH"
    try:
        probe = subprocess.run([unshare, "--mount", "--propagation", "private", "true"], capture_output=True,
                               text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"unshare failed: {exc}"
    if probe.returncode != 0:
        return False, f"unshare --mount refused: {probe.stderr.strip()[:200]}"
    return True, ""


def wrap(argv: Sequence[str], read_only: Sequence[Path]) -> list[str]:
    """`argv` run with every existing folder or file in `read_only` mounted read-only for it alone."""
    targets = [str(p) for p in read_only if p.exists()]
    exe = Path(argv[0]) if argv else None  # one that cannot start keeps its own clear error (FileNotFoundError)
    if not targets or exe is None or not (exe.is_file() and os.access(exe, os.X_OK)) or not available()[0]:
        return list(argv)
    unshare = shutil.which("unshare") or "unshare"
    return [unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c", _SCRIPT, "sh", *targets, "--", *argv]
