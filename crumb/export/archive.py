"""The archives `crumb export` writes, built in memory: pure (files in, bytes out, no disk, no clock).

- `--zip`: `<name>/game/...` (the game as built), `<name>/spec.md`, `<name>/verdict.json` and
  `<name>/README.md` (the verdict and scorecard for people, and how to play).
- `--itch`: the game alone with `index.html` at the root of the zip, as itch.io's HTML5 upload wants it,
  checked against its limits (itch.io/docs/creators/html5: at most 1,000 files, paths of at most 240
  characters, 200 MB a file, 500 MB in all; relative paths, since itch serves a game below its own
  path, and names matched case-sensitively).

Entries are sorted and stamped with the build's time, so the same session gives the same bytes.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping
from datetime import datetime

from crumb.export.facts import SessionFacts, verdict_markdown, verdict_record

ITCH_MAX_FILES = 1000
ITCH_MAX_PATH = 240
ITCH_MAX_FILE = 200 * 1024 * 1024
ITCH_MAX_TOTAL = 500 * 1024 * 1024
_ROOT_ABSOLUTE = re.compile(r"""(?:\b(?:src|href|poster)\s*=\s*["']?|url\(\s*["']?)(/[^/"'\s)][^"'\s)]*)""", re.I)


def stamp(ts: str | None) -> tuple[int, int, int, int, int, int]:
    """A zip entry's date from an event's time (zip cannot say a date before 1980)."""
    try:
        when = datetime.fromisoformat(str(ts).replace("Z", "+00:00"))
    except ValueError:
        return (1980, 1, 1, 0, 0, 0)
    return (max(when.year, 1980), when.month, when.day, when.hour, when.minute, when.second)


def zip_bytes(entries: Mapping[str, bytes], when: tuple[int, int, int, int, int, int]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, entries[name])
    return buf.getvalue()


def readme(facts: SessionFacts, entry: str) -> str:
    return (verdict_markdown(facts) + f"\n## Play\n\nOpen `game/{entry}` in a browser: the game needs no server and "
            "no network.\n\nExported by CRUMB from session " + facts.session + ".\n")


def game_zip(facts: SessionFacts, files: Mapping[str, bytes], entry: str, spec_md: str | None, name: str) -> bytes:
    entries = {f"{name}/game/{path}": data for path, data in files.items()}
    entries[f"{name}/verdict.json"] = (json.dumps(verdict_record(facts), indent=2, ensure_ascii=False) + "\n").encode()
    entries[f"{name}/README.md"] = readme(facts, entry).encode()
    if spec_md is not None:
        entries[f"{name}/spec.md"] = spec_md.encode()
    return zip_bytes(entries, stamp(facts.build.build_ts if facts.build else facts.last_ts))


def itch_files(files: Mapping[str, bytes], entry: str) -> dict[str, bytes]:
    """The game with its entry page as the root `index.html` itch.io starts; ValueError naming what breaks a limit."""
    out = dict(files)
    if entry != "index.html":
        if "/" in entry or "index.html" in out:
            raise ValueError(f"the game starts at {entry}, and itch.io starts index.html at the root of the zip: "
                             "move the entry page there and export again")
        out["index.html"] = out.pop(entry)
    problems = []
    if len(out) > ITCH_MAX_FILES:
        problems.append(f"{len(out)} files (itch.io takes at most {ITCH_MAX_FILES})")
    long = [p for p in out if len(p) > ITCH_MAX_PATH]
    if long:
        problems.append(f"path {long[0]!r} is longer than {ITCH_MAX_PATH} characters")
    big = [p for p, data in out.items() if len(data) > ITCH_MAX_FILE]
    if big:
        problems.append(f"{big[0]} is larger than 200 MB")
    if sum(len(d) for d in out.values()) > ITCH_MAX_TOTAL:
        problems.append("the game is larger than 500 MB")
    for path, data in sorted(out.items()):
        if path.endswith((".html", ".htm", ".css")):
            found = _ROOT_ABSOLUTE.search(data.decode("utf-8", errors="replace"))
            if found:
                problems.append(f"{path} loads {found.group(1)} from the site's root, which itch.io does not serve the "
                                "game from: make the path relative")
                break
    if problems:
        raise ValueError("not ready for itch.io: " + "; ".join(problems))
    return out


def canvas_size(html: str) -> tuple[int, int] | None:
    """The first <canvas>'s width and height: the viewport to give the game on itch.io."""
    m = re.search(r"<canvas\b[^>]*>", html, re.I)
    if not m:
        return None
    w = re.search(r"""\bwidth\s*=\s*["']?(\d+)""", m.group(0), re.I)
    h = re.search(r"""\bheight\s*=\s*["']?(\d+)""", m.group(0), re.I)
    return (int(w.group(1)), int(h.group(1))) if w and h else None
