"""Inbox files: which names to ignore, how to read one safely, how to archive and how to drop one.

People save into inboxes with any editor, so most names that appear there are not messages:
swap, backup, lock and temp files. A real message is read without following symlinks or
blocking on pipes, hashed (name + sha256 make a consumed file recognisable after a crash),
and then archived, never deleted. Dropping one is crumb.daemon.drop (named here too).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict
from ulid import ULID

from crumb.daemon.drop import SPEC_SUFFIX, InboxWriteError, drop_inbox_file, rename_noreplace, unwritable
from crumb.protocol.events import InboxFile
from crumb.store import paths
from crumb.store.filesig import stamp_of

__all__ = [
    "SPEC_SUFFIX",
    "ARCHIVE",
    "IGNORED",
    "REJECTED",
    "WHY_SUFFIX",
    "InboxRead",
    "InboxReject",
    "archive",
    "InboxWriteError",
    "drop_inbox_file",
    "ignore_reason",
    "is_ignored",
    "is_regular",
    "read_inbox_file",
    "unwritable",
    "why_name",
]

#: suggested archive folder inside an inbox: a dot-name, so the watcher ignores it.
ARCHIVE = ".archive"
#: sub-folder of an archive folder for files that were rejected (kept for the person to see).
REJECTED = paths.REJECTED
#: beside a kept (rejected) file: the daemon's one-line reason, NAME.why.txt (the Studio shows it)
WHY_SUFFIX = ".why.txt"


def why_name(name: str, limit: int = 255) -> str:
    """NAME.why.txt, with NAME cut short (marked …) when the whole would pass the file-name limit."""
    if len(os.fsencode(name + WHY_SUFFIX)) <= limit:
        return name + WHY_SUFFIX
    while name and len(os.fsencode(name + "…" + WHY_SUFFIX)) > limit:
        name = name[:-1]
    return name + "…" + WHY_SUFFIX

#: Names that are never messages, as (why, regex over the base name). Matched case-insensitively.
IGNORED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (why, re.compile(rx, re.IGNORECASE))
    for why, rx in (
        ("dotfile (vim .x.swp, emacs .#x lock, rsync/VS Code/gedit temp, .DS_Store)", r"^\."),
        ("vim swap file", r"\.sw[a-p]$"),
        ("vim write probe (4913, 5036, ...)", r"^\d{4,}$"),
        ("backup file (x~, x.~1~)", r"~$"),
        ("emacs auto-save (#x#)", r"^#.*#$"),
        ("office lock (~$x)", r"^~\$"),
        ("temp file (x.tmp, x.tmp-123, x.temp)", r"\.te?mp(?:[-._~].*)?$"),
        ("temp file (x.tmp.123)", r"\.tmp\.[^.]+$"),
        ("JetBrains safe-write temp", r"___jb_(?:tmp|old|bak)___$"),
        ("partial download", r"\.(?:part|partial|crdownload|download|!ut|opdownload)$"),
        ("backup file (x.bak, x.orig, x.save)", r"\.(?:bak|orig|save|old)$"),
        ("kate swap file", r"\.kate-swp$"),
        ("sed -i temp (sedXXXXXX)", r"^sed[A-Za-z0-9]{6}$"),
        ("mktemp/tempfile name (tmpXXXXXX)", r"^tmp[A-Za-z0-9_]{6,12}$"),
        ("OS metadata", r"^(?:thumbs\.db|desktop\.ini|icon\r)$"),
    )
)

def ignore_reason(name: str) -> str | None:
    """Why `name` is not a message (None when it may be one). Looks at the base name only."""
    base = os.path.basename(os.fsdecode(name).rstrip("/"))
    if not base:
        return "empty name"
    for why, rx in IGNORED:
        if rx.search(base):
            if rx is _VIM_PROBE_RX and (int(base) < 4913 or (int(base) - 4913) % 123):
                continue  # only vim's probe numbers (4913 + k*123); "2048" stays a name
            return why
    return None


_VIM_PROBE_RX = next(rx for why, rx in IGNORED if why.startswith("vim write probe"))


def is_ignored(name: str) -> bool:
    """True for editor temp/backup/lock/swap files and other names that are never messages."""
    return ignore_reason(name) is not None


# ---------------------------------------------------------------- reading


class InboxRead(BaseModel):
    """A complete text file, decoded; `source` is what its event records."""

    model_config = ConfigDict(extra="forbid")

    path: Path
    text: str
    source: InboxFile


class InboxReject(BaseModel):
    """A file that is not a message: `message` is one line naming the problem and the fix."""

    model_config = ConfigDict(extra="forbid")

    path: Path
    message: str
    source: InboxFile | None = None


_CHUNK = 1 << 16
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _show(name: str, limit: int = 120) -> str:
    """A file name safe to put in a one-line message (control characters escaped, long names cut)."""
    from crumb.terminal import safe

    return safe(name, limit)


def _too_big(shown: str, size: int, max_bytes: int) -> str:
    return (f"{shown} is {size} bytes, over the inbox limit of {max_bytes} bytes: "
            "shorten it, or raise max_bytes under [settings.inbox] in crumb.toml (then restart crumb watch)")


def read_inbox_file(path: Path, *, max_bytes: int) -> InboxRead | InboxReject | None:
    """Read one inbox file, or say why it is not a message; None means "not now, nothing to record".

    None: the file vanished, is empty (an editor truncated it and is about to write), is a dangling
    symlink (an emacs lock), or changed while it was read (still being written: its close event
    will come). Never follows a symlink and never blocks on a FIFO.
    """
    path = Path(path)
    name = path.name
    shown = _show(name)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return InboxReject(path=path, message=f"{shown}: cannot be read ({exc.strerror}); check its permissions")

    mode = st.st_mode
    if stat.S_ISLNK(mode):
        if not os.path.exists(path):
            return None
        return InboxReject(
            path=path,
            message=f"{shown} is a symbolic link and CRUMB never follows links: copy the file itself into the inbox",
        )
    if stat.S_ISDIR(mode):
        return InboxReject(path=path, message=f"{shown} is a folder: drop text files into the inbox, not folders")
    if not stat.S_ISREG(mode):
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        return InboxReject(path=path, message=f"{shown} is {kind}, not a file: save a regular text file instead")
    if st.st_size > max_bytes:  # told from stat alone: a huge (or sparse) file is never read, let alone hashed
        return InboxReject(path=path, message=_too_big(shown, st.st_size, max_bytes))

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # replaced by a symlink since the lstat
            return None
        return InboxReject(path=path, message=f"{shown}: cannot be read ({exc.strerror}); check its permissions")

    with os.fdopen(fd, "rb", buffering=0) as fh:
        before = os.fstat(fh.fileno())
        if not stat.S_ISREG(before.st_mode) or (before.st_ino, before.st_dev) != (st.st_ino, st.st_dev):
            return None  # swapped for something else since the lstat: its own event will come
        digest = hashlib.sha256()
        kept = bytearray()
        total = 0
        budget = before.st_size + 1  # one byte more than promised means "still growing"; never read forever
        while total < budget and (chunk := fh.read(min(_CHUNK, budget - total))):
            digest.update(chunk)
            total += len(chunk)
            if total <= max_bytes:
                kept += chunk
        after = os.fstat(fh.fileno())

    if total == 0:
        return None
    if total != after.st_size or (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        return None  # still being written
    source = InboxFile(name=name, sha256=digest.hexdigest(), bytes=total, stamp=stamp_of(after))
    if total > max_bytes:
        return InboxReject(
            path=path,
            source=source,
            message=_too_big(shown, total, max_bytes),
        )
    text_or_problem = _decode(bytes(kept))
    if isinstance(text_or_problem, tuple):
        return InboxReject(path=path, source=source, message=f"{shown} {text_or_problem[0]}")
    return InboxRead(path=path, text=text_or_problem, source=source)


def _decode(data: bytes) -> str | tuple[str]:
    """Text, or a 1-tuple with the problem: UTF-8 (BOM optional) or UTF-16 with a BOM; no NUL bytes."""
    encoding = "utf-8"
    for bom, enc in _BOMS:
        if data.startswith(bom):
            data, encoding = data[len(bom) :], enc
            break
    if encoding == "utf-8" and b"\x00" in data:
        return ("looks binary (it contains NUL bytes): save it as plain UTF-8 text",)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        return (
            f"is not {encoding.upper()} text (bad byte 0x{data[exc.start]:02x} at offset {exc.start}): "
            "save it as plain UTF-8 text",
        )
    if "\x00" in text:
        return ("looks binary (it contains NUL characters): save it as plain UTF-8 text",)
    return text.replace("\r\n", "\n").replace("\r", "\n")


# ---------------------------------------------------------------- archiving

def _candidates(name: str) -> Iterator[str]:
    yield name
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    for n in range(1, 1_000_000):
        yield f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"


def archive(path: Path, archive_dir: Path, why: str | None = None) -> Path:
    """Move `path` into `archive_dir` (created) under a name that exists nowhere yet; return the new path.

    Never overwrites (a taken name gets -1, -2, ...), never deletes, and moves a symlink as the
    link itself. Rejected files go to `archive_dir / REJECTED` by the caller's choice. With `why`,
    NAME.why.txt is in place before NAME appears, so whoever finds the kept file finds its reason too.
    """
    path, archive_dir = Path(path), Path(archive_dir)
    archive_dir.mkdir(parents=True, exist_ok=True)
    for candidate in _candidates(path.name):
        dst = archive_dir / candidate
        if os.path.lexists(dst):
            continue
        reason = _place_why(dst, why) if why is not None else None
        if why is not None and reason is None:
            continue  # that name's reason file is taken (an earlier crash left it): the next name
        try:
            _move_noreplace(path, dst)
            return dst
        except BaseException as exc:
            if reason is not None:  # no file, no reason for it
                reason.unlink(missing_ok=True)
            if not isinstance(exc, FileExistsError):
                raise
    raise OSError(errno.EEXIST, f"no free name for {path.name} in {archive_dir}")


def _place_why(kept: Path, why: str) -> Path | None:
    """Write NAME.why.txt beside `kept` whole (a temp file, then a rename that never replaces); None if taken."""
    target = kept.with_name(why_name(kept.name))
    tmp = target.with_name(f".why-{ULID()}.tmp")  # a dot name: the watcher ignores it
    tmp.write_text(why + "\n", encoding="utf-8")
    try:
        rename_noreplace(tmp, target)
    except FileExistsError:
        tmp.unlink(missing_ok=True)
        return None
    return target


def _move_noreplace(path: Path, dst: Path) -> None:
    try:
        rename_noreplace(path, dst)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "exists", str(dst)) from None
        shutil.move(str(path), str(dst))  # another filesystem: copy, then remove the original


def is_regular(path: Path) -> bool:
    """Whether path is a regular file, not following a symlink; True when it vanished (nothing to report)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return True  # vanished: nothing to report
