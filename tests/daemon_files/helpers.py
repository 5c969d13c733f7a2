"""Shared helpers for the file-layer tests: editors' save patterns and event collection."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from ulid import ULID

from crumb.daemon.watcher import Watcher, WatchEvent

DEADLINE = 15.0


def next_event(w: Watcher, *, deadline: float = DEADLINE) -> WatchEvent:
    """The next event, failing the test if none comes within `deadline` seconds."""
    ev = w.get(timeout=deadline)
    assert ev is not None, f"no watcher event within {deadline}s"
    return ev


def events_until_sentinel(w: Watcher, folder: Path, *, deadline: float = DEADLINE) -> list[WatchEvent]:
    """Every event reported before a sentinel file written now into `folder` is reported.

    Events of one folder arrive in order, so whatever an earlier save caused has arrived by then;
    files still settling (rescans, the poll backend) are waited for too. Sentinels are left out.
    """
    sentinel = folder / f"zz-sentinel-{ULID()}.txt"
    sentinel.write_text("sentinel\n")
    end = time.monotonic() + deadline
    got: list[WatchEvent] = []
    seen = False
    polls_needed: int | None = None

    def quiet() -> bool:
        if not seen or w.pending():
            return False
        # polling reports one round's changes one by one: wait until two more rounds have started
        return polls_needed is None or w.polls >= polls_needed

    while not quiet():
        remaining = end - time.monotonic()
        assert remaining > 0, f"sentinel {sentinel.name} not reported within {deadline}s; got {got[:5]}"
        ev = w.get(timeout=min(remaining, 0.02) if seen else remaining)
        if ev is None:
            continue
        if ev.path == sentinel:
            seen = True
            if w.backend.startswith("poll"):
                polls_needed = w.polls + 2
        elif not ev.path.name.startswith("zz-sentinel-"):
            got.append(ev)
    return got


def wait_for(w: Watcher, predicate, *, deadline: float = DEADLINE) -> list[WatchEvent]:  # type: ignore[no-untyped-def]
    """Collect events until `predicate(events)` holds."""
    end = time.monotonic() + deadline
    got: list[WatchEvent] = []
    while not predicate(got):
        remaining = end - time.monotonic()
        assert remaining > 0, (f"condition not met within {deadline}s; got {len(got)} events: {got[:5]}"
                               f" ({w.backend}, {w.polls} poll rounds)")
        ev = w.get(timeout=remaining)
        if ev is not None:
            got.append(ev)
    return got


# ---------------------------------------------------------------- how editors save


def plain_write(path: Path, text: str) -> None:
    path.write_text(text)


def atomic_dot_tmp(path: Path, text: str) -> None:
    """Most libraries (and VS Code's 'atomic' mode): a hidden temp file, then rename onto the name."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def atomic_tmp_suffix(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def python_tempfile(path: Path, text: str) -> None:
    import tempfile

    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as fh:
        fh.write(text)
    os.replace(fh.name, path)


def moved_in(path: Path, text: str) -> None:
    """Written elsewhere (not watched), then moved in: only a moved-to event reaches the folder."""
    outside = path.parent.parent / f"outside-{ULID()}.txt"
    outside.write_text(text)
    os.rename(outside, path)


def jetbrains(path: Path, text: str) -> None:
    """IntelliJ 'safe write': x___jb_tmp___ written, x → x___jb_old___, tmp → x, old removed."""
    tmp = path.with_name(path.name + "___jb_tmp___")
    old = path.with_name(path.name + "___jb_old___")
    tmp.write_text(text)
    if path.exists():
        os.rename(path, old)
    os.rename(tmp, path)
    if old.exists():
        old.unlink()


def emacs(path: Path, text: str) -> None:
    """Emacs: a dangling .#x lock symlink, #x# auto-save, x → x~ backup on first save, x written."""
    lock = path.with_name(".#" + path.name)
    autosave = path.with_name("#" + path.name + "#")
    os.symlink(f"user@host.{os.getpid()}:1700000000", lock)
    autosave.write_text(text[: len(text) // 2])
    backup = path.with_name(path.name + "~")
    if path.exists() and not backup.exists():
        os.rename(path, backup)
    with open(path, "w") as fh:
        fh.write(text)
    autosave.unlink()
    lock.unlink()


def vscode_in_place(path: Path, text: str) -> None:
    """VS Code: truncate and write in place (the empty file is visible in between)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        assert path.stat().st_size == 0  # the empty moment an observer may see
        os.write(fd, text.encode()[:3])
        os.write(fd, text.encode()[3:])
    finally:
        os.close(fd)


def vim(path: Path, text: str, *, keep_backup: bool = False) -> None:
    """The real vim in batch mode, with its defaults: swap files, the 4913 probe, the x~ rename."""
    lines = text.rstrip("\n").split("\n")
    cmds = ["set backupskip=" + (" backup" if keep_backup else "")]  # /tmp is in the default backupskip
    cmds.append("call setline(1, " + repr(lines).replace("'", '"') + ")")
    cmds.append("wq")
    args = ["vim", "--clean", "-es"]
    for c in cmds:
        args += ["-c", c]
    subprocess.run([*args, str(path)], check=True, stdin=subprocess.DEVNULL, timeout=30)


def sed_in_place(path: Path, text: str) -> None:
    """GNU sed -i: a sedXXXXXX temp file renamed onto the name (the file must exist)."""
    if not path.exists():
        path.write_text("placeholder\n")
        return
    subprocess.run(["sed", "-i", f"1s/.*/{text.strip()}/", str(path)], check=True, timeout=30)


SAVERS = {
    "plain_write": plain_write,
    "atomic_dot_tmp": atomic_dot_tmp,
    "atomic_tmp_suffix": atomic_tmp_suffix,
    "python_tempfile": python_tempfile,
    "moved_in": moved_in,
    "jetbrains": jetbrains,
    "emacs": emacs,
    "vscode_in_place": vscode_in_place,
    "vim": vim,
    "vim_keep_backup": lambda p, t: vim(p, t, keep_backup=True),
}
