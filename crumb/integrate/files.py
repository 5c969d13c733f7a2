"""Writing and removing what an integration consists of, without touching anything else in a file.

Three kinds of entry: a whole file CRUMB owns (a skill, a command), one key of a JSON file that others
share (`mcpServers.crumb` of .mcp.json), one item of a JSON list (`enabledMcpjsonServers`), and one marked
block of a TOML file (`[mcp_servers.crumb]` in Codex's config.toml). Each reports what it did, so a
second run says `unchanged` and `--remove` takes out exactly what was put in.
"""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from crumb.store.durable import write_whole

Action = Literal["wrote", "unchanged", "removed", "absent", "kept"]
BEGIN = "# >>> crumb integrate (crumb integrate codex --remove takes this block out)"
END = "# <<< crumb integrate"


class IntegrateError(Exception):
    """A file an integration must change cannot be read as what it should be; str() names it and the fix."""


@dataclass(frozen=True)
class WholeFile:
    path: Path
    text: str


@dataclass(frozen=True)
class JsonKey:
    path: Path
    keys: tuple[str, ...]  # e.g. ("mcpServers", "crumb")
    value: Any


@dataclass(frozen=True)
class JsonListItem:
    path: Path
    key: str
    item: str


@dataclass(frozen=True)
class TomlBlock:
    path: Path
    table: str  # the table the block defines, e.g. "mcp_servers.crumb": refused when defined outside the block
    text: str


Entry = WholeFile | JsonKey | JsonListItem | TomlBlock


@dataclass(frozen=True)
class Touched:
    action: Action
    path: Path
    what: str  # the part of the file, e.g. "mcpServers.crumb"; "" for a whole file


def _write(path: Path, text: str) -> None:
    """Write through a temp file and a rename, so a CLI reading the file never sees half of it; a file there
    keeps its mode (a host's settings file of 0o600, which may hold a key, is not made readable by others)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    write_whole(path, text, mode=mode)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError as err:
        raise IntegrateError(f"{path} is not valid JSON ({err}): fix or move it, then run this again") from None
    if not isinstance(data, dict):
        raise IntegrateError(f"{path} holds a JSON {type(data).__name__}, not an object: fix or move it, then run this again")
    return data


def _dump_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _block(text: str) -> tuple[int, int] | None:
    """Where the marked block starts and ends in a TOML text (end after its END line), or None."""
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        raise IntegrateError(f"the crumb block has a start line but no end line ({END!r}): fix the file by hand")
    end = text.find("\n", end)
    return start, len(text) if end < 0 else end + 1


def apply(entry: Entry) -> Touched:
    """Put the entry in place; `unchanged` when it already is."""
    if isinstance(entry, WholeFile):
        old = entry.path.read_text(encoding="utf-8") if entry.path.is_file() else None
        if old == entry.text:
            return Touched("unchanged", entry.path, "")
        _write(entry.path, entry.text)
        return Touched("wrote", entry.path, "")
    if isinstance(entry, JsonKey):
        data = _read_json(entry.path)
        node = data
        for key in entry.keys[:-1]:
            child = node.setdefault(key, {})
            if not isinstance(child, dict):
                raise IntegrateError(f"{entry.path}: {key} is not an object: fix it, then run this again")
            node = child
        what = ".".join(entry.keys)
        if node.get(entry.keys[-1]) == entry.value:
            return Touched("unchanged", entry.path, what)
        node[entry.keys[-1]] = entry.value
        _write(entry.path, _dump_json(data))
        return Touched("wrote", entry.path, what)
    if isinstance(entry, JsonListItem):
        data = _read_json(entry.path)
        items = data.setdefault(entry.key, [])
        what = f"{entry.key}[{entry.item!r}]"
        if not isinstance(items, list):
            raise IntegrateError(f"{entry.path}: {entry.key} is not a list: fix it, then run this again")
        if entry.item in items:
            return Touched("unchanged", entry.path, what)
        items.append(entry.item)
        _write(entry.path, _dump_json(data))
        return Touched("wrote", entry.path, what)
    text = entry.path.read_text(encoding="utf-8") if entry.path.is_file() else ""
    span = _block(text)
    outside = text if span is None else text[:span[0]] + text[span[1]:]
    if f"[{entry.table}]" in outside:
        raise IntegrateError(f"{entry.path} already defines [{entry.table}] outside CRUMB's block: remove that table, "
                             "then run this again")
    block = f"{BEGIN}\n{entry.text.rstrip()}\n{END}\n"
    if span is not None and text[span[0]:span[1]] == block:
        return Touched("unchanged", entry.path, f"[{entry.table}]")
    if span is None:
        new = text + ("\n" if text and not text.endswith("\n") else "") + ("\n" if text.strip() else "") + block
    else:
        new = text[:span[0]] + block + text[span[1]:]
    _write(entry.path, new)
    return Touched("wrote", entry.path, f"[{entry.table}]")


def remove(entry: Entry) -> Touched:
    """Take the entry out again; a whole file someone changed since is kept, and said so."""
    if isinstance(entry, WholeFile):
        if not entry.path.is_file():
            return Touched("absent", entry.path, "")
        if entry.path.read_text(encoding="utf-8") != entry.text:
            return Touched("kept", entry.path, "")
        entry.path.unlink()
        _prune(entry.path.parent)
        return Touched("removed", entry.path, "")
    if isinstance(entry, JsonKey | JsonListItem):
        if not entry.path.is_file():
            return Touched("absent", entry.path, "")
        data = _read_json(entry.path)
        if isinstance(entry, JsonKey):
            what, parents, node = ".".join(entry.keys), [], data
            for key in entry.keys[:-1]:
                child = node.get(key)
                if not isinstance(child, dict):
                    return Touched("absent", entry.path, what)
                parents.append((node, key))
                node = child
            if entry.keys[-1] not in node:
                return Touched("absent", entry.path, what)
            del node[entry.keys[-1]]
            for parent, key in reversed(parents):  # an mcpServers left empty goes too
                if parent[key] == {}:
                    del parent[key]
        else:
            what = f"{entry.key}[{entry.item!r}]"
            items = data.get(entry.key)
            if not isinstance(items, list) or entry.item not in items:
                return Touched("absent", entry.path, what)
            items.remove(entry.item)
            if not items:
                del data[entry.key]
        if data:
            _write(entry.path, _dump_json(data))
        else:
            entry.path.unlink()
        return Touched("removed", entry.path, what)
    text = entry.path.read_text(encoding="utf-8") if entry.path.is_file() else ""
    span = _block(text)
    if span is None:
        return Touched("absent", entry.path, f"[{entry.table}]")
    rest = (text[:span[0]].rstrip("\n") + "\n" + text[span[1]:].lstrip("\n")).strip("\n")
    _write(entry.path, rest + "\n" if rest else "")
    return Touched("removed", entry.path, f"[{entry.table}]")


def _prune(folder: Path) -> None:
    """Remove folders left empty by a removal, up to the first that is not (or a dot folder like .claude)."""
    while not folder.name.startswith(".") and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
