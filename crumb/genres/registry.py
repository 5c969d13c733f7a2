"""The genre registry: every genre folder CRUMB can build, found once per process.

Where genres come from, in this order (the first folder to claim an id keeps it):
  1. the built-in folders next to this module (crumb/genres/<id>/);
  2. the folders named by `[genres] paths = [...]` in the root's crumb.toml (relative to the root);
  3. the folders named by the CRUMB_GENRE_PATH environment variable (os.pathsep-separated);
  4. the `crumb.genres` entry-point group: each entry point loads to a module (its folder) or a path.
Each named folder is either one genre folder (it holds genre.py) or a folder of genre folders.

A genre folder holds `genre.py` (defining `GENRE = Genre(...)`, see crumb.genres.model) and `game.js`
(calling `CrumbGame.register({genre: "<id>", ...})` on the shared runtime). A folder that is not
complete is skipped with one warning line on stderr naming the folder and what is missing; it never
stops CRUMB.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used, as the ones in functions below: configure() runs at every CLI start
    from pydantic import ValidationError

    from crumb.genres.model import Genre, LoadedGenre

BUILTIN_DIR = Path(__file__).resolve().parent
ENV_VAR = "CRUMB_GENRE_PATH"
ENTRY_POINT_GROUP = "crumb.genres"
CONFIG_SECTION = "genres"
MODULE_FILE = "genre.py"
JS_FILE = "game.js"

#: what game.js must contain for the runtime to boot it (the id is checked as well)
_JS_NEEDS: tuple[tuple[str, str], ...] = (
    (r"CrumbGame\.register\s*\(", "CrumbGame.register({...}) call"),
    (r"\binit\s*[:(]", "init function"),
    (r"\bupdate\s*[:(]", "update function"),
    (r"\bdraw\s*[:(]", "draw function"),
    (r"\bhook\s*[:(]", "hook function (the test hook's genre state)"),
)


@dataclass(frozen=True)
class Source:
    """A folder named as holding genres, where it was named, and why it cannot be read (if so)."""

    path: Path
    where: str
    problem: str | None = None


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per discovery
class Registry:
    genres: tuple[LoadedGenre, ...]
    warnings: tuple[str, ...]
    sources: tuple[Source, ...] = ()

    def ids(self) -> tuple[str, ...]:
        return tuple(g.genre.id for g in self.genres)


_lock = threading.Lock()
_root: Path | None = None
_current: Registry | None = None


def configure(root: Path | None) -> None:
    """Read `[genres] paths` from root's crumb.toml from now on (None: none). Call it when the process
    knows its root, before the first pitch is read: readers cache what they derive from the genres, so
    the registry is found again only when the folders it would read differ from the ones it read."""
    global _root, _current
    with _lock:
        _root = root.resolve() if root is not None else None
        if _current is not None and _current.sources != tuple(_sources(_root)):
            _current = None


def registry() -> Registry:
    """The registry, found on first use (warnings printed once, to stderr)."""
    global _current
    with _lock:
        if _current is None:
            _current = discover(_sources(_root))
            for line in _current.warnings:
                print(f"crumb: warning: {line}", file=sys.stderr)
        return _current


def genres() -> tuple[Genre, ...]:
    return tuple(g.genre for g in registry().genres)


def ids() -> tuple[str, ...]:
    return registry().ids()


def loaded(genre_id: str) -> LoadedGenre:
    """A registered genre with its folder; KeyError naming the known genres."""
    for g in registry().genres:
        if g.genre.id == genre_id:
            return g
    raise KeyError(f"unknown genre {genre_id!r}; known: {', '.join(ids())}")


def get(genre_id: str) -> Genre:
    return loaded(genre_id).genre


# ---------------------------------------------------------------- finding folders


def _sources(root: Path | None) -> list[Source]:
    """Every folder named as holding genres, built-ins first."""
    out: list[Source] = [Source(BUILTIN_DIR, "built-in")]
    out += _config_paths(root)
    for part in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if part.strip():
            out.append(Source(Path(part.strip()).expanduser().resolve(), ENV_VAR))
    out += _entry_point_paths()
    return out


def _config_paths(root: Path | None) -> list[Source]:
    import tomllib

    if root is None:
        return []
    path = root / "crumb.toml"
    if not path.is_file():
        return []
    where = f"{path} [{CONFIG_SECTION}] paths"
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []  # crumb.config reports a broken crumb.toml with its own one-line error
    section = data.get(CONFIG_SECTION)
    if section is None:
        return []
    if isinstance(section, dict) and set(section) - {"paths"}:
        odd = ", ".join(sorted(set(section) - {"paths"}))
        return [Source(path, f"{path} [{CONFIG_SECTION}]", f"takes only paths = [...], not {odd}")]
    paths = section.get("paths") if isinstance(section, dict) else None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return [Source(path, where, "must be a list of folder paths (strings), e.g. paths = [\"my-genres\"]")]
    return [Source((root / p).expanduser().resolve(), where) for p in paths]


def _entry_point_paths() -> list[Source]:
    from importlib.metadata import entry_points

    out: list[Source] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        where = f"entry point {ep.name} = {ep.value!r}"
        try:
            target = ep.load()
        except Exception as exc:  # a third party's package: its failure is a warning, not CRUMB's crash
            out.append(Source(Path(ep.value), where, f"does not load ({type(exc).__name__}: {exc})"))
            continue
        file = getattr(target, "__file__", None)
        if isinstance(target, (str, Path)):
            out.append(Source(Path(target).resolve(), where))
        elif isinstance(file, str):
            out.append(Source(Path(file).resolve().parent, where))
        else:
            out.append(Source(Path(ep.value), where, "loads to neither a module nor a path"))
    return out


def _genre_folders(base: Path) -> list[Path]:
    if (base / MODULE_FILE).is_file():
        return [base]
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


# ---------------------------------------------------------------- loading


class FolderError(Exception):
    """A genre folder that cannot be registered; the message says what is missing."""


def discover(sources: Iterable[Source]) -> Registry:
    """Load every genre folder the sources name; a broken one becomes a warning."""
    from crumb.genres.model import LoadedGenre

    sources = tuple(sources)
    found: dict[str, LoadedGenre] = {}
    warnings: list[str] = []
    for src in sources:
        if src.problem is not None:
            warnings.append(f"{src.where} {src.problem}; fix it (no genres are loaded from it)")
            continue
        if not src.path.is_dir():
            warnings.append(f"genre folder {src.path} (from {src.where}) does not exist; fix the path")
            continue
        for folder in _genre_folders(src.path):
            try:
                genre = load_folder(folder)
            except FolderError as exc:
                warnings.append(f"genre folder {folder}: {exc}; it is skipped")
                continue
            if genre.id in found:
                warnings.append(f"genre folder {folder}: genre {genre.id!r} is already registered from "
                                f"{found[genre.id].folder}; rename its id and folder; it is skipped")
                continue
            found[genre.id] = LoadedGenre(genre=genre, folder=folder)
    ordered = sorted(found.values(), key=lambda g: (g.genre.order, g.genre.id))
    return Registry(genres=tuple(ordered), warnings=tuple(warnings), sources=tuple(sources))


def load_folder(folder: Path) -> Genre:
    """The Genre a folder declares, checked; FolderError saying what is missing or wrong."""
    import hashlib

    from pydantic import ValidationError

    from crumb.genres.model import Genre

    module_path = folder / MODULE_FILE
    if not module_path.is_file():
        raise FolderError(f"no {MODULE_FILE} (it must define GENRE = Genre(...))")
    js_path = folder / JS_FILE
    if not js_path.is_file():
        raise FolderError(f"no {JS_FILE} (the game, calling CrumbGame.register)")
    digest = hashlib.sha1(str(folder).encode()).hexdigest()[:10]
    name = f"crumb_genre_{re.sub(r'[^0-9a-zA-Z_]', '_', folder.name)}_{digest}"
    spec = importlib.util.spec_from_file_location(name, module_path)
    if spec is None or spec.loader is None:
        raise FolderError(f"{MODULE_FILE} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: a module's own models may resolve names through it
    try:
        spec.loader.exec_module(module)
    except ValidationError as exc:
        del sys.modules[name]
        raise FolderError(f"{MODULE_FILE}: {_first_error(exc)}") from None
    except Exception as exc:  # the folder's own code: any failure is reported, never raised
        del sys.modules[name]
        line = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) else ""
        raise FolderError(f"{MODULE_FILE} does not load: {type(exc).__name__}{line}: {exc}") from None
    genre = getattr(module, "GENRE", None)
    if not isinstance(genre, Genre):
        raise FolderError(f"{MODULE_FILE} does not define GENRE = Genre(...) (from crumb.genres import Genre)")
    if genre.id != folder.name:
        raise FolderError(f"GENRE.id is {genre.id!r} but the folder is named {folder.name!r}; make them equal")
    js = js_path.read_text("utf-8", errors="replace")
    for pattern, what in _JS_NEEDS:
        if not re.search(pattern, js):
            raise FolderError(f"{JS_FILE} has no {what}")
    if not re.search(r"genre\s*:\s*[\"']" + re.escape(genre.id) + r"[\"']", js):
        raise FolderError(f"{JS_FILE} does not register genre: \"{genre.id}\"")
    return genre


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg
