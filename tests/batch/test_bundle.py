"""A session folder packed on a worker and unpacked on the head: whole and verified, or not at all."""

from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest

from crumb.batch.bundle import Bundle, BundleError, digest, pack, unpack


def _session(folder: Path) -> Path:
    (folder / "artifacts" / "game").mkdir(parents=True)
    (folder / "inbox").mkdir()
    (folder / "transcript.jsonl").write_text('{"seq": 1}\n{"seq": 2}\n')
    (folder / "artifacts" / "game" / "index.html").write_text("<canvas></canvas>")
    (folder / "artifacts" / "qa.png").write_bytes(bytes(range(256)) * 40)
    return folder


def _listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() + ("/" if p.is_dir() else "") for p in folder.rglob("*"))


def test_round_trip_gives_the_same_files_and_empty_folders(tmp_path: Path) -> None:
    src = _session(tmp_path / "src")
    bundle = pack(src)
    assert bundle.manifest["transcript.jsonl"] == hashlib.sha256(b'{"seq": 1}\n{"seq": 2}\n').hexdigest()
    dest = tmp_path / "head" / "sessions" / "S"
    written = unpack(bundle, dest)
    assert written == sum(p.stat().st_size for p in src.rglob("*") if p.is_file())
    assert _listing(dest) == _listing(src)  # inbox/ comes back though empty
    assert digest(dest) == bundle.manifest
    assert [p.name for p in dest.parent.iterdir()] == ["S"]  # no temp folder left


def _tamper(bundle: Bundle, name: str, data: bytes) -> Bundle:
    """The same tar with one member's bytes replaced (the manifest unchanged)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(bundle.data)) as src, tarfile.open(fileobj=out, mode="w") as dst:
        for member in src:
            fh = src.extractfile(member) if member.isfile() else None
            body = fh.read() if fh is not None else b""
            if member.name == name:
                body = data
                member.size = len(data)
            dst.addfile(member, io.BytesIO(body) if member.isfile() else None)
    return Bundle(out.getvalue(), bundle.manifest)


@pytest.mark.parametrize("case", ["corrupt", "extra", "missing", "not-a-tar", "escape", "link"])
def test_a_bundle_that_does_not_match_its_manifest_leaves_nothing(tmp_path: Path, case: str) -> None:
    bundle = pack(_session(tmp_path / "src"))
    if case == "corrupt":  # one flipped byte deep in a screenshot, same size
        png = bytearray((tmp_path / "src" / "artifacts" / "qa.png").read_bytes())
        png[5000] ^= 1
        bad = _tamper(bundle, "artifacts/qa.png", bytes(png))
    elif case == "extra":
        bad = Bundle(bundle.data, {k: v for k, v in bundle.manifest.items() if k != "transcript.jsonl"})
    elif case == "missing":
        bad = Bundle(bundle.data, {**bundle.manifest, "artifacts/spec.md": "0" * 64})
    elif case == "not-a-tar":
        bad = Bundle(b"\0garbage" * 100, bundle.manifest)
    else:
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as tar:
            info = tarfile.TarInfo("../outside.txt" if case == "escape" else "artifacts/link")
            if case == "link":
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(info, io.BytesIO(b""))
        bad = Bundle(out.getvalue(), {"../outside.txt": hashlib.sha256(b"").hexdigest()})
    dest = tmp_path / "head" / "sessions" / "S"
    with pytest.raises(BundleError):
        unpack(bad, dest)
    assert list(dest.parent.iterdir()) == []  # nothing half-written, no temp folder
    assert not (tmp_path / "head" / "sessions" / "outside.txt").exists()


def test_a_folder_already_there_is_replaced_whole_or_kept_whole(tmp_path: Path) -> None:
    dest = tmp_path / "sessions" / "S"
    old = _session(tmp_path / "old")
    (old / "stale.txt").write_text("from an earlier attempt")
    unpack(pack(old), dest)
    new = _session(tmp_path / "new")
    (new / "transcript.jsonl").write_text('{"seq": 1}\n{"seq": 2}\n{"seq": 3}\n')
    bad = _tamper(pack(new), "transcript.jsonl", b"x")
    with pytest.raises(BundleError):
        unpack(bad, dest)
    assert digest(dest) == digest(old)  # a bad bundle leaves the old folder as it was
    unpack(pack(new), dest)
    assert digest(dest) == digest(new) and not (dest / "stale.txt").exists()
    assert [p.name for p in dest.parent.iterdir()] == ["S"]
