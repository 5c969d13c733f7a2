"""Versions of games kept under versions/<name>/ (`crumb release`, `crumb versions`): the manifest of one,
the name of the next, the parent it follows and the lineage tree. Pure: records in, records out.

A version is a copy of every file of the game in force (subfolders too: the original CRUMB's copy lost
all but index.html of a multi-file game) beside a manifest saying where it came from — the session and
the build event, the verdict and scorecard then, sha256 and size per file, the parent version — so a
copy can be checked against its manifest, and the manifest against the session's transcript.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crumb.export.facts import SessionFacts, verdict_record

VERSIONS = "versions"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")  # as the release event's model checks it
MANIFEST = "manifest.json"
GAME = "game"


@dataclass(frozen=True)
class Version:
    """A version as `crumb versions` lists it: its manifest, and whether its files still match it."""

    name: str
    manifest: dict[str, Any]
    changed: tuple[str, ...] = ()  # files whose bytes no longer match the manifest (or are gone)

    @property
    def parent(self) -> str | None:
        parent = self.manifest.get("parent")
        return str(parent) if parent else None

    @property
    def created(self) -> str:
        return str(self.manifest.get("created") or "")


def check_name(name: str) -> str | None:
    """Why a version name cannot be used, or None."""
    if not NAME.match(name):
        return (f"{name!r} is not a version name: use letters, digits, '.', '_' and '-', starting with a letter "
                "or digit, at most 64 characters (e.g. v2)")
    return None


def next_name(existing: list[str]) -> str:
    """v1, v2, ...: one more than the highest vN kept."""
    numbers = [int(m.group(1)) for n in existing if (m := re.fullmatch(r"v(\d+)", n))]
    return f"v{max(numbers, default=0) + 1}"


def default_parent(versions: list[Version], session: str) -> str | None:
    """The version this one follows: the latest one released from the same session, if any."""
    same = [v for v in versions if v.manifest.get("session") == session]
    return max(same, key=lambda v: v.created).name if same else None


def file_records(files: Mapping[str, bytes]) -> list[dict[str, Any]]:
    return [{"path": path, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
            for path, data in sorted(files.items())]


def manifest(*, name: str, label: str, facts: SessionFacts, files: Mapping[str, bytes], entry: str,
             parent: str | None, created: str, spec: bool) -> dict[str, Any]:
    """versions/<name>/manifest.json."""
    build = facts.build
    assert build is not None, "a version is made of a built game"
    record = verdict_record(facts)
    return {
        "name": name,
        "label": label,
        "created": created,
        "parent": parent,
        "session": facts.session,
        "build": build.build_id,  # the event the game came from
        "round": build.number,
        "as_of": {"seq": facts.last_seq, "ts": facts.last_ts},
        "title": facts.title,
        "genre": facts.genre,
        "pitch": facts.pitch,
        "verdict": facts.verdict,
        "outcome": facts.outcome,
        "played": facts.played,
        "fallback": facts.fallback,
        "scorecard": record["rounds"][-1]["scorecard"] if record["rounds"] else [],
        "rounds": record["rounds"],
        "entry": f"{GAME}/{entry}",
        "files": file_records(files),
        "spec": "spec.md" if spec else None,
        "built_as": [f for f in build.manifest.get("files") or []],  # the build event's own manifest
    }


def differs_from_build(m: Mapping[str, Any]) -> list[str]:
    """Files of the copy whose sha256 is not the one the build event measured (a person edited the game
    after the build, or the build listed files the folder no longer has)."""
    built = {f.get("path"): f.get("sha256") for f in m.get("built_as") or []}
    copied = {f["path"]: f["sha256"] for f in m.get("files") or []}
    return sorted({p for p in built if copied.get(p) != built[p]} | {p for p in copied if p not in built})


def changed_files(m: Mapping[str, Any], on_disk: Mapping[str, str]) -> tuple[str, ...]:
    """Files listed in a manifest whose sha256 on disk (`on_disk`: path → sha256) differs or is missing."""
    return tuple(f["path"] for f in m.get("files") or [] if on_disk.get(f["path"]) != f.get("sha256"))


def lineage(versions: list[Version]) -> list[tuple[int, Version]]:
    """Versions as a tree by parent, oldest first: (depth, version). A parent that is gone starts a tree."""
    names = {v.name for v in versions}
    children: dict[str | None, list[Version]] = {}
    for v in sorted(versions, key=lambda v: (v.created, v.name)):
        children.setdefault(v.parent if v.parent in names else None, []).append(v)
    out: list[tuple[int, Version]] = []
    seen: set[str] = set()

    def walk(parent: str | None, depth: int) -> None:
        for v in children.get(parent, []):
            if v.name in seen:
                continue
            seen.add(v.name)
            out.append((depth, v))
            walk(v.name, depth + 1)
    walk(None, 0)
    out += [(0, v) for v in versions if v.name not in seen]  # a cycle of parents: listed, not lost
    return out


def version_line(depth: int, v: Version) -> str:
    m = v.manifest
    indent = "  " * depth + ("└ " if depth else "")
    label = f"  {m.get('label')!r}" if m.get("label") else ""
    changed = f"  (changed since release: {', '.join(v.changed)})" if v.changed else ""
    return (f"{indent}{v.name:<{max(1, 10 - len(indent))}} {m.get('verdict') or '-':<8} {m.get('title') or '-'}"
            f"  {v.created[:19].replace('T', ' ')}  session {m.get('session')} round {m.get('round')} "
            f"(build {m.get('build')}){label}{changed}")
