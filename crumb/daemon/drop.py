"""Dropping a message into an inbox (the CLI's steer and pitch, the Studio), and the atomic rename that
never replaces a file, which archiving uses too (crumb.daemon.files).

Apart from crumb.daemon.files so that `crumb steer` starts without its models (pydantic): writing a
file needs none of what reading one checks.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

from ulid import ULID

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_renameat2: Callable[..., int] | None  # a C function: ctypes checks no argument types, it returns a C int
try:
    _renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
except (AttributeError, OSError):  # not glibc ≥ 2.28 or not Linux
    _renameat2 = None


def rename_noreplace(src: Path, dst: Path) -> None:
    """Atomic rename that fails with FileExistsError instead of replacing `dst`."""
    if _renameat2 is not None:
        if _renameat2(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise OSError(err, os.strerror(err), str(src), None, str(dst))
    try:
        os.link(src, dst, follow_symlinks=False)  # fails if dst exists: no overwrite
    except FileExistsError:
        raise
    except OSError:  # folders, filesystems without hard links
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "exists", str(dst)) from None
        os.rename(src, dst)
        return
    os.unlink(src)


#: a session inbox file named *.spec.md is a person's edit of the whole spec (artifacts/spec.md's format)
SPEC_SUFFIX = ".spec.md"
_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class InboxWriteError(OSError):
    """An inbox folder cannot take a file (read-only, no permission, disk full); one line with the fix."""


def unwritable(folder: Path, err: OSError, fix: str = "make it writable and try again") -> str:
    """Why `folder` cannot be written, on one line that says what to do."""
    why = {errno.EROFS: "its file system is read-only", errno.EACCES: "permission denied: it is read-only for this user",
           errno.EPERM: "permission denied: it is read-only for this user", errno.ENOSPC: "the disk is full",
           errno.EDQUOT: "the disk quota is used up"}.get(err.errno or 0, err.strerror or str(err))
    return f"cannot write to {folder}: {why}; {fix}"


def drop_inbox_file(folder: Path, text: str, *, stem: str = "note", suffix: str = ".txt") -> Path:
    """Write `text` as a new inbox file atomically: a temp name the watcher ignores, then one rename.

    The final name is "<stem>-<ulid><suffix>" (".txt", or ".spec.md" for a person's spec edit), unique,
    so concurrent droppers never collide. A folder that cannot be written raises InboxWriteError
    (nothing is left behind).
    """
    if not _STEM.match(stem):
        raise ValueError(f"bad inbox file stem {stem!r}: use letters, digits, '-' or '_' (at most 64)")
    if suffix not in (".txt", SPEC_SUFFIX):
        raise ValueError(f"bad inbox file suffix {suffix!r}: .txt, or {SPEC_SUFFIX} for a spec edit")
    folder = Path(folder)
    ulid = str(ULID())
    tmp = folder / f".{stem}-{ulid}.tmp"
    final = folder / f"{stem}-{ulid}{suffix}"
    data = text.encode("utf-8")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as err:
        raise InboxWriteError(unwritable(folder, err)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        rename_noreplace(tmp, final)
    except BaseException as exc:
        try:
            os.unlink(tmp)  # our own temp file, never the message
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise InboxWriteError(unwritable(folder, exc)) from None
        raise
    return final
