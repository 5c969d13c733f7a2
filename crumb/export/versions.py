"""The versions kept under versions/<name>/, read from disk: every manifest (`crumb versions`), and one
version measured for its `release` event (the daemon, when a `/release NAME` line reaches a session's
inbox).

The release event is a record of facts, so the daemon takes none of them from the inbox file (it names
the version only) nor from the manifest on trust: the manifest's bytes are hashed as they are now, it must
be the manifest of this session's version of that name made from one of this session's builds, and every
file it lists must be in the copy with the sha256 it lists. Anything else is a ReleaseProblem: one line
naming what is wrong and what to do, which the daemon records as an `error` event.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Collection
from pathlib import Path, PurePosixPath
from typing import Any

from crumb.export.lineage import GAME, MANIFEST, VERSIONS, Version, changed_files, check_name

MAX_MANIFEST_BYTES = 8 << 20  # a manifest lists at most gamefiles.MAX_GAME_FILES files: far below this


class ReleaseProblem(Exception):
    """Why a version cannot be recorded: one line naming the problem and the fix."""


def read_versions(root: Path, *, verify: bool = False) -> list[Version]:
    """Every versions/<name>/manifest.json (a folder without one, or a broken one, is not a version)."""
    base = root / VERSIONS
    out: list[Version] = []
    if not base.is_dir():
        return out
    for folder in sorted(base.iterdir()):
        try:
            m = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(m, dict) or folder.name.startswith("."):
            continue
        changed: tuple[str, ...] = ()
        if verify:
            on_disk = {}
            for f in m.get("files") or []:
                path = folder / GAME / str(f.get("path"))
                if path.is_file():
                    on_disk[f["path"]] = hashlib.sha256(path.read_bytes()).hexdigest()
            changed = changed_files(m, on_disk)
        out.append(Version(folder.name, m, changed))
    return out


def _read_regular(path: Path, limit: int) -> bytes:
    """A regular file's bytes, never through a symlink; OSError/ValueError say why not."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        if st.st_size > limit:
            raise ValueError(f"{st.st_size} bytes, over {limit}")
        return fh.read(limit + 1)


def release_data(root: Path, session: str, name: str, *, builds: Collection[str]) -> dict[str, Any]:
    """The data of the `release` event for versions/<name>/ of `session` (`builds`: the ids of the session's
    build events), read and hashed now; ReleaseProblem when there is no such version to record."""
    again = f"keep a fresh copy with `crumb release {session} --as NEW-NAME`"
    problem = check_name(name)
    if problem:
        raise ReleaseProblem(problem)
    where = f"{VERSIONS}/{name}"
    folder = root / VERSIONS / name
    try:
        body = _read_regular(folder / MANIFEST, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        missing = "no folder" if not folder.is_dir() else f"no {MANIFEST} in it"
        raise ReleaseProblem(f"no version {name} to record: {where}/ has {missing}; `crumb release {session} "
                             f"--as {name}` copies the game there and records it") from None
    except (OSError, ValueError) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise ReleaseProblem(f"{where}/{MANIFEST} cannot be read ({why}): make it a readable file again, "
                             f"or {again}") from None
    try:
        m = json.loads(body)
    except ValueError as err:
        raise ReleaseProblem(f"{where}/{MANIFEST} is not JSON ({str(err)[:80]}): it was changed after "
                             f"`crumb release` wrote it; {again}") from None
    if not isinstance(m, dict):
        raise ReleaseProblem(f"{where}/{MANIFEST} is not a manifest (a JSON object): {again}")
    if m.get("session") != session:
        owner = m.get("session")
        raise ReleaseProblem(f"{where} was released from session {str(owner)[:40]}, not from this one ({session}): "
                             f"record it there (`crumb steer {str(owner)[:40]} /release {name}`), or {again}")
    if m.get("name") != name:
        raise ReleaseProblem(f"{where}/{MANIFEST} names version {str(m.get('name'))[:40]!r}, not {name!r} (the folder "
                             f"was renamed): give it its name back, or {again}")
    build = m.get("build")
    if build not in builds:
        raise ReleaseProblem(f"{where} was copied from build {str(build)[:40]}, which is not a build event of this "
                             f"session's transcript: {again}")
    files = m.get("files")
    if not isinstance(files, list) or not files:
        raise ReleaseProblem(f"{where}/{MANIFEST} lists no files: {again}")
    game = folder / GAME
    for f in files:
        rel = f.get("path") if isinstance(f, dict) else None
        if not isinstance(rel, str) or PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
            raise ReleaseProblem(f"{where}/{MANIFEST} lists a file outside the copy ({str(rel)[:60]!r}): {again}")
        try:
            data = _read_regular(game / rel, 1 << 30)
        except (OSError, ValueError):
            raise ReleaseProblem(f"{where}/{GAME}/{rel[:80]} is missing (or not a file): the copy is not whole; "
                                 f"{again}") from None
        if hashlib.sha256(data).hexdigest() != f.get("sha256"):
            raise ReleaseProblem(f"{where}/{GAME}/{rel[:80]} differs from its manifest (changed after the copy): "
                                 f"{again}")
    parent = m.get("parent")
    return {
        "name": name,
        "label": str(m.get("label") or "")[:200],
        "path": where,
        "build": build,
        "verdict": m.get("verdict"),
        "parent": str(parent) if parent else None,
        "files": len(files),
        "manifest_sha256": hashlib.sha256(body).hexdigest(),
    }
