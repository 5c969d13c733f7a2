"""The Verifier's sealed folder: its projected input, a copy of the game and QA's filmstrip, nothing else.

Put `base` outside the session folder (a temporary directory is best): an agent whose cwd is inside
sessions/<id>/ could walk up to the transcript and the earlier scores.

The filmstrip (qa.filmstrip of the projected input) is copied into `filmstrip/` under fixed names
(frame-01.png ..., sheet.png), each only if its bytes still have the sha256 QA recorded: a frame changed
on disk since QA took it is not evidence.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from crumb.protocol.game import Filmstrip

FILM_DIR = "filmstrip"


@dataclass(frozen=True)
class FilmFile:
    """One file of the filmstrip as the Verifier gets it."""

    source: str  # session-relative path QA wrote
    sha256: str | None  # None: the contact sheet, whose hash is in qa.result's files
    name: str  # where it lands in the Verifier's folder, e.g. filmstrip/frame-01.png
    label: str  # what it shows, e.g. "0.68 s, first frame after 'ArrowLeft'"


def filmstrip_of(projected: dict[str, Any]) -> Filmstrip | None:
    """The filmstrip of the projected qa.result (None when QA recorded none, or it is not readable)."""
    raw = (projected.get("qa") or {}).get("filmstrip")
    if not raw:
        return None
    try:
        return Filmstrip.model_validate(raw)
    except ValidationError:
        return None


def film_files(projected: dict[str, Any]) -> list[FilmFile]:
    """The contact sheet first, then every frame in game-time order."""
    film = filmstrip_of(projected)
    if film is None or not film.frames:
        return []
    hashes = {str(f.get("path")): str(f.get("sha256")) for f in (projected.get("qa") or {}).get("files") or []
              if isinstance(f, dict)}
    out = []
    if film.sheet:
        out.append(FilmFile(film.sheet, hashes.get(film.sheet), f"{FILM_DIR}/sheet.png",
                            f"contact sheet of all {len(film.frames)} frames, each labelled with its game time"))
    for n, frame in enumerate(film.frames, 1):
        label = f"{frame.t_ms / 1000:.2f} s of game time" + (f", first frame after {frame.after}" if frame.after else "")
        out.append(FilmFile(frame.path, frame.sha256, f"{FILM_DIR}/frame-{n:02d}.png", label))
    return out


def film_note(projected: dict[str, Any], how: str) -> str:
    """The prompt's words about the filmstrip: which files, what each shows, and `how` to look at them."""
    files = film_files(projected)
    if not files:
        return ""
    film = filmstrip_of(projected)
    pressed = ", ".join(film.inputs) if film and film.inputs else "QA's start inputs"
    lines = [
        "## The filmstrip: the game being played",
        "",
        f"QA played the game in a real browser and kept {len(film.frames) if film else 0} small frames spread over the play-through, "
        f"plus the first frame after each input it pressed ({pressed}). {how}",
        "Judge `visuals`, `controls` and `goal_fit` from what the frames show (does it look and move like the "
        "pitch?); QA's facts still outrank your impression.",
        "",
    ]
    lines += [f"- `{f.name}`: {f.label}" for f in files]
    return "\n".join(lines)


def _copy_film(session_dir: Path, projected: dict[str, Any], base: Path) -> None:
    root = session_dir.resolve()
    for f in film_files(projected):
        src = session_dir / PurePosixPath(f.source)
        try:
            if src.is_symlink() or not src.resolve().is_relative_to(root) or not src.is_file():
                continue
            data = src.read_bytes()
        except OSError:
            continue
        if f.sha256 is not None and hashlib.sha256(data).hexdigest() != f.sha256:
            continue  # changed since QA took it: not evidence
        dest = base / f.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)


def prepare_verifier_dir(base: Path, projected: dict[str, Any], game_dir: Path,
                         session_dir: Path | None = None) -> Path:
    """(Re)create `base` holding input.json, game/ (regular files only; symlinks are not followed) and,
    given the session folder, filmstrip/ (QA's frames of the round)."""
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    (base / "input.json").write_text(json.dumps(projected, indent=1, ensure_ascii=False, default=str), "utf-8")
    target = base / "game"
    target.mkdir()
    if game_dir.is_dir():
        root = game_dir.resolve()
        for src in sorted(game_dir.rglob("*")):
            if src.is_symlink() or not src.is_file():
                continue  # a symlink could point at the transcript; regular files only
            try:
                rel = src.resolve().relative_to(root)
            except ValueError:
                continue
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    if session_dir is not None:
        _copy_film(session_dir, projected, base)
    return base
