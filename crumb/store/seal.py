"""Checking a session on disk: its transcript's hash chain (chain.py) and the artifacts it recorded.

`crumb verify`, `crumb replay --verify`, `crumb seal` and the Studio's seal badge call these. The
artifact check covers what the transcript records a sha256 of: the files of the last `build` (the game
on disk is the last build's; earlier rounds' files were replaced by design) and each `release`'s
versions/<name>/manifest.json, and the files QA wrote (`qa.result`'s `files`: screenshots, filmstrip
frames, contact sheets), each as the latest `qa.result` naming its path recorded it (the screenshots are
rewritten every round by design; each round's filmstrip keeps a folder of its own). A `qa.result` from
before `files` existed records none; those of a fork's copied prefix are not checked (QA's files are not
copied into a fork).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec

from crumb.store.chain import Chain, ChainBreak, Status
from crumb.store.paths import TRANSCRIPT

_CHUNK = 1 << 20


@dataclass
class Seal:
    """What `crumb verify` reports of one transcript."""

    status: Status
    lines: int
    head: str | None  # sha256 of the last line: what `crumb seal` prints
    sealed_from: int | None
    broken: ChainBreak | None = None
    seal_found: bool | None = None  # a published head was asked for: is it one of the lines?
    artifacts: list[str] = field(default_factory=list)  # artifacts that no longer match the transcript

    @property
    def ok(self) -> bool:
        return self.broken is None and not self.artifacts and self.seal_found is not False

    def summary(self) -> str:
        """One line: sealed / unsealed / broken at line N."""
        if self.broken is not None:
            return f"broken at line {self.broken.line}"
        if self.status == "unsealed":
            return f"unsealed ({self.lines} lines written before the hash chain)"
        if self.sealed_from and self.sealed_from > 1:
            return f"sealed from line {self.sealed_from} ({self.lines} lines, lines before it sealed by its prev)"
        return f"sealed ({self.lines} lines)"

    def to_dict(self) -> dict[str, Any]:
        b = self.broken
        return {"status": self.status, "lines": self.lines, "head": self.head, "sealed_from": self.sealed_from,
                "broken": None if b is None else {"line": b.line, "expected": b.expected, "found": b.found, "what": b.what},
                "seal_found": self.seal_found, "artifacts": self.artifacts, "ok": self.ok}


def _lines(path: Path) -> Iterator[bytes]:
    """Complete lines (without newline); a torn last line (a crash mid-write) is no line yet."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    with f:
        for raw in f:
            if raw[-1:] != b"\n":
                return
            yield raw[:-1]


def check_chain(path: Path, session: str | None = None, *, published: str | None = None) -> Seal:
    """Walk a transcript's chain to the end (or its first break). `published`: a head hash `crumb seal`
    printed earlier: it must be the hash of one of the lines (lines appended since are fine)."""
    chain = Chain(session)
    found = None if published is None else False
    for raw in _lines(path):
        if chain.feed(raw) is not None:
            break
        if published is not None and chain.head == published:
            found = True
    chain.end()
    return Seal(chain.status, chain.lines, chain.head, chain.sealed_from, chain.broken, found)


class _Line(msgspec.Struct):
    seq: int
    kind: str
    data: Any = None


_decode = msgspec.json.Decoder(_Line).decode


def _sha256(path: Path) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def _inside(base: Path, rel: str) -> Path | None:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts:
        return None
    return base / p


def check_artifacts(root: Path, session_dir: Path, path: Path) -> list[str]:
    """Each artifact whose sha256 the transcript records and that no longer matches (or is gone), one
    line each, naming the file, the line that recorded it and both hashes."""
    last_build: tuple[int, dict[str, Any]] | None = None
    releases: list[tuple[int, dict[str, Any]]] = []
    qa_files: dict[str, tuple[int, str]] = {}  # path → (seq, sha256) of the latest qa.result naming it
    for raw in _lines(path):
        try:
            ev = _decode(raw)
        except msgspec.DecodeError:
            continue  # the chain check names damaged lines
        if ev.kind == "build" and isinstance(ev.data, dict):
            last_build = (ev.seq, ev.data)
        elif ev.kind == "release" and isinstance(ev.data, dict):
            releases.append((ev.seq, ev.data))
        elif ev.kind == "session.fork":
            qa_files.clear()  # a fork's copied prefix: QA's files are not copied (crumb/daemon/fork.py)
        elif ev.kind == "qa.result" and isinstance(ev.data, dict):
            for f in ev.data.get("files") or []:
                if isinstance(f, dict) and isinstance(f.get("path"), str):
                    qa_files[f["path"]] = (ev.seq, str(f.get("sha256")))
    problems: list[str] = []
    if last_build is not None:
        seq, data = last_build
        manifest = data.get("manifest") or {}
        base = _inside(session_dir, str(manifest.get("dir") or ""))
        for f in manifest.get("files") or []:
            rel = f"{manifest.get('dir')}/{f.get('path')}"
            target = _inside(base, str(f.get("path"))) if base is not None else None
            got = _sha256(target) if target is not None else None
            if got != f.get("sha256"):
                problems.append(_mismatch(rel, f"build at line {seq}", str(f.get("sha256")), got))
    for rel, (seq, recorded) in qa_files.items():
        target = _inside(session_dir, rel)
        got = _sha256(target) if target is not None else None
        if got != recorded:
            problems.append(_mismatch(rel, f"qa.result at line {seq}", recorded, got))
    for seq, data in releases:
        target = _inside(root, f"{data.get('path')}/manifest.json")
        got = _sha256(target) if target is not None else None
        if got != data.get("manifest_sha256"):
            problems.append(_mismatch(f"{data.get('path')}/manifest.json", f"release at line {seq}",
                                      str(data.get("manifest_sha256")), got))
    return problems


def _mismatch(rel: str, where: str, recorded: str, got: str | None) -> str:
    if got is None:
        return f"{rel}: missing, but the {where} recorded sha256 {recorded[:16]}…"
    return f"{rel}: sha256 {got[:16]}…, but the {where} recorded {recorded[:16]}…: replaced after it was recorded"


def verify_session(root: Path, session_dir: Path, *, published: str | None = None, artifacts: bool = True) -> Seal:
    """The chain of sessions/<id>/transcript.jsonl, then (when asked) the artifacts it recorded."""
    path = session_dir / TRANSCRIPT
    seal = check_chain(path, published=published)  # line 1's prev must be the session id it carries
    if artifacts:
        seal.artifacts = check_artifacts(root, session_dir, path)
    return seal
