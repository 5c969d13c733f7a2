"""The file format for agents that can only answer text (OpenAI-compatible servers).

    <<<FILE index.html
    ...whole file...
    FILE>>>

Documented for the model in crumb/prompts/files-format.md. Paths are confined to the work folder:
absolute paths, `..`, backslashes, hidden control characters and symlink escapes are refused, and
nothing is written unless every block is acceptable.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from crumb.store.durable import write_whole

OPEN = re.compile(r"^<<<FILE[ \t]+(.+?)[ \t]*$")
CLOSE = "FILE>>>"
MAX_FILES = 50
MAX_FILE_BYTES = 2_000_000


class FileFormatError(ValueError):
    """The answer's file blocks are malformed or point outside the work folder."""


def parse_files(text: str) -> tuple[dict[str, str], str]:
    """({path: content}, the text outside the blocks). Raises FileFormatError naming the problem."""
    files: dict[str, str] = {}
    rest: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        match = OPEN.match(lines[i].rstrip("\r\n"))
        if not match:
            rest.append(lines[i])
            i += 1
            continue
        path = check_path(match.group(1))
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip("\r\n") != CLOSE:
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            raise FileFormatError(f"file block {path!r} has no closing line {CLOSE!r}")
        i += 1
        content = "".join(body)
        if len(content.encode("utf-8")) > MAX_FILE_BYTES:
            raise FileFormatError(f"file {path!r} is larger than {MAX_FILE_BYTES} bytes")
        files[path] = content
        if len(files) > MAX_FILES:
            raise FileFormatError(f"more than {MAX_FILES} files in one answer")
    return files, "".join(rest)


def check_path(raw: str) -> str:
    """A safe relative POSIX path, or FileFormatError saying why not."""
    path = raw.strip().strip("`'\"")
    if not path:
        raise FileFormatError("a file block has an empty path")
    if any(ord(c) < 32 for c in path) or "\\" in path or ":" in path:
        raise FileFormatError(f"file path {raw!r} has a backslash, colon or control character; use a/b.js")
    pure = PurePosixPath(path)
    if pure.is_absolute():
        raise FileFormatError(f"file path {raw!r} is absolute; paths must be relative to the game folder")
    if any(part == ".." for part in pure.parts):
        raise FileFormatError(f"file path {raw!r} contains '..'; paths must stay inside the game folder")
    parts = [p for p in pure.parts if p not in (".", "")]
    if not parts:
        raise FileFormatError(f"file path {raw!r} names no file")
    return "/".join(parts)


def write_files(work_dir: Path, files: dict[str, str]) -> list[str]:
    """Write every file under work_dir, after checking all of them (symlinks may not lead out)."""
    base = work_dir.resolve()
    targets: list[tuple[Path, str]] = []
    for rel, content in files.items():
        target = (base / check_path(rel))
        resolved = target.resolve()
        if resolved != base and base not in resolved.parents:
            raise FileFormatError(f"file path {rel!r} resolves outside the game folder (through a symlink)")
        targets.append((target, content))
    for target, content in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_whole(target, content)
    return [t.relative_to(base).as_posix() for t, _ in targets]
