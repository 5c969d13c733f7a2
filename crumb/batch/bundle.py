"""A session folder as one bundle (tar bytes + a manifest of sha256 per file), and back, verified.

A cell that ran elsewhere (a Ray worker) comes back to the head as a bundle. pack() reads each file
once and hashes exactly the bytes it puts in the tar; unpack() checks every member against the manifest
(the same set of files, each with its sha256 and size) while writing into a temp folder beside the
destination, and only a bundle that checks out whole is renamed into place. A mismatch, a missing or
extra file, or a member that is not a plain file or folder inside the session (a link, a device, an
absolute or `..` path) raises BundleError and leaves nothing behind: the head holds the session whole,
as a local run makes it, or not at all.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ulid import ULID

Manifest = dict[str, str]  # relative posix path → sha256 hex of the file's bytes


class BundleError(ValueError):
    """A bundle that does not match its manifest, or holds something a session folder never does."""


@dataclass(frozen=True)
class Bundle:
    data: bytes  # an uncompressed tar of the folder's contents (paths relative to it)
    manifest: Manifest

    @property
    def files(self) -> int:
        return len(self.manifest)


def pack(folder: Path) -> Bundle:
    """Every folder and regular file under `folder` (symlinks and other special files are skipped:
    a session folder has none), in sorted order, with the sha256 of each file's bytes as packed."""
    buf = io.BytesIO()
    manifest: Manifest = {}
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            base = Path(dirpath)
            rel_dir = base.relative_to(folder)
            for name in dirnames:
                if (base / name).is_symlink():
                    continue
                info = tarfile.TarInfo((rel_dir / name).as_posix())
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            for name in sorted(filenames):
                path = base / name
                if path.is_symlink() or not path.is_file():
                    continue
                data = path.read_bytes()
                rel = (rel_dir / name).as_posix()
                info = tarfile.TarInfo(rel)
                info.size, info.mode = len(data), 0o644
                info.mtime = int(path.stat().st_mtime)
                tar.addfile(info, io.BytesIO(data))
                manifest[rel] = hashlib.sha256(data).hexdigest()
    return Bundle(buf.getvalue(), manifest)


def _safe_rel(name: str) -> PurePosixPath:
    rel = PurePosixPath(name)
    if rel.is_absolute() or not rel.parts or any(p in ("", ".", "..") for p in rel.parts):
        raise BundleError(f"bundle member {name!r} is not a plain path inside the session")
    return rel


def unpack(bundle: Bundle, dest: Path) -> int:
    """Verify `bundle` and put its folder at `dest` (replacing a folder there, whole): bytes written.
    BundleError (nothing left behind) when anything does not match the manifest."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f".{dest.name}.incoming-{ULID()}"  # dotted: no session id, so no daemon takes it
    seen: set[str] = set()
    written = 0
    try:
        tmp.mkdir()
        try:
            tar = tarfile.open(fileobj=io.BytesIO(bundle.data), mode="r:")
        except tarfile.TarError as err:
            raise BundleError(f"bundle is not a tar: {err}") from None
        with tar:
            for member in tar:
                rel = _safe_rel(member.name)
                target = tmp.joinpath(*rel.parts)
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                if not member.isfile():
                    raise BundleError(f"bundle member {member.name!r} is not a regular file or folder")
                key = rel.as_posix()
                want = bundle.manifest.get(key)
                if want is None:
                    raise BundleError(f"{key}: in the bundle but not in its manifest")
                if key in seen:
                    raise BundleError(f"{key}: twice in the bundle")
                fh = tar.extractfile(member)
                data = fh.read() if fh is not None else b""
                got = hashlib.sha256(data).hexdigest()
                if got != want:
                    raise BundleError(f"{key}: sha256 {got[:12]}… does not match the manifest's {want[:12]}…")
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "xb") as out:
                    out.write(data)
                os.utime(target, (member.mtime, member.mtime))
                seen.add(key)
                written += len(data)
        missing = sorted(set(bundle.manifest) - seen)
        if missing:
            raise BundleError(f"{len(missing)} file(s) of the manifest not in the bundle, e.g. {missing[0]}")
        _swap_in(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def _swap_in(tmp: Path, dest: Path) -> None:
    """tmp becomes dest by one rename; a folder already at dest is first renamed aside, then removed
    (at every moment dest is the old folder whole, absent for an instant, or the new one whole)."""
    old = None
    if dest.exists():
        old = dest.parent / f".{dest.name}.replaced-{ULID()}"
        os.rename(dest, old)
    try:
        os.rename(tmp, dest)
    except BaseException:
        if old is not None:
            os.rename(old, dest)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def digest(folder: Path) -> Manifest:
    """The manifest of a folder on disk (what a test compares with a local run's folder)."""
    return pack(folder).manifest
