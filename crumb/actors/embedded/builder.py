"""The embedded offline Builder: writes a self-contained game folder from a Spec.

Every genre is a folder in the genre registry (crumb/genres/<id>/game.js and its genre.py: palette,
defaults, the numbers it honours) on top of one shared runtime (games/runtime.js, index.html,
style.css here); the only thing that differs between two builds of the same genre is config.js,
derived from the Spec. No clock, no randomness, no network: the same spec and seed always give
byte-identical files.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from crumb.actors.embedded.catalogue import NO_CLOCK
from crumb.genres import PALETTE_KEYS, Genre, genres, ids, loaded
from crumb.protocol.game import Spec
from crumb.protocol.names import BUILD_FAULTS

# GENRES and ALIASES come from the module __getattr__ below (read from the registry when asked)
__all__ = ["FAULTS", "GENRES", "ALIASES",  # noqa: F822
           "PALETTE_KEYS", "GameConfig", "available_genres", "build_game", "genre_file",
           "games_dir", "make_config", "resolve_genre"]


def genre_file(genre: str) -> str:
    """The name a genre's game.js gets in a built folder."""
    return f"{genre}.js"


def __getattr__(name: str) -> object:
    # read from the registry when used: genre name -> built file, in registry order (the "wronggenre"
    # fault builds the next one), and the other names a Planner may write for a genre
    if name == "GENRES":
        return {g: genre_file(g) for g in ids()}
    if name == "ALIASES":
        return {alias: g.id for g in genres() for alias in g.aliases}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

FAULTS = BUILD_FAULTS

FALLBACK_PALETTE = {"bg": "#14161f", "accent": "#5ad1ff", "accent2": "#ffcf5a", "danger": "#ff5d73", "fg": "#c5cbe0", "text": "#f5f7fb"}

#: spec number -> window.CRUMB_CONFIG key (the genres' defaults are spec numbers)
CONFIG_KEY: dict[str, str] = {"time_limit_s": "timeLimit", "lives": "lives", "target_score": "targetScore",
                              "moves": "moves", "levels": "levels", "grid": "grid", "level_time_s": "levelTime"}

HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
KNOB = re.compile(r"^\s*([a-z_]+)\s*[:=]\s*([-+0-9.]+)\s*$")
SPEED_RANGE = (0.25, 4.0)
TEXT_SCALE_RANGE = (0.6, 2.5)


class GameConfig(BaseModel):
    """window.CRUMB_CONFIG: the one file that differs between two builds of a genre."""

    model_config = ConfigDict(extra="forbid")

    genre: str
    title: str
    seed: int
    timeLimit: int | None = None
    lives: int | None = None
    targetScore: int | None = None
    moves: int | None = None
    levels: int | None = None
    speed: float = 1.0
    grid: int | None = None
    levelTime: int | None = None
    palette: dict[str, str] = Field(default_factory=dict)
    textScale: float = 1.0
    sound: bool = False
    extras: list[str] = Field(default_factory=list)
    fault: str | None = None


def games_dir() -> Path:
    """Where the shared runtime lives (runtime.js, index.html, style.css): next to this module."""
    return Path(__file__).resolve().parent / "games"


def resolve_genre(name: str) -> str:
    """Map a spec's genre to a registered one; raise ValueError naming the known genres."""
    key = re.sub(r"\s+", " ", name.strip().lower().replace("_", " "))
    known = ids()
    if key in known:
        return key
    if key.replace(" ", "") in known:
        return key.replace(" ", "")
    for g in genres():
        if key in g.aliases:
            return g.id
    raise ValueError(f"unknown genre {name!r}: use one of {', '.join(known)}")


def available_genres() -> list[str]:
    """Registered genres whose game.js is present (the registry skips a folder without one)."""
    return [g for g in ids() if loaded(g).js.is_file()]


def _next_genre(genre: str) -> str:
    names = list(ids())
    present = set(available_genres())
    i = names.index(genre)
    for step in range(1, len(names)):
        candidate = names[(i + step) % len(names)]
        if candidate in present:
            return candidate
    raise ValueError("fault 'wronggenre' needs at least two genres installed")


def _knobs(extras: list[str]) -> dict[str, float]:
    """Numeric "key:value" items in spec.extras (text_scale:1.3, speed:1.5, sound:1)."""
    out: dict[str, float] = {}
    for item in extras:
        m = KNOB.match(item)
        if m:
            try:
                out[m.group(1)] = float(m.group(2))
            except ValueError:
                continue
    return out


def _luminance(color: str) -> float:
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _palette(spec: Spec, genre: str, notes: list[str]) -> dict[str, str]:
    base = dict(loaded(genre).genre.palette) if genre in ids() else dict(FALLBACK_PALETTE)
    given = [c.strip() for c in spec.theme.palette]
    good = [c.lower() for c in given if HEX.match(c)]
    bad = [c for c in given if not HEX.match(c)]
    if bad:
        notes.append(f"palette: ignored {', '.join(map(repr, bad))} (not #rgb or #rrggbb hex colours)")
    for key, color in zip(PALETTE_KEYS, good, strict=False):
        base[key] = color
    if good and len(good) < len(PALETTE_KEYS):
        notes.append(f"palette: {len(good)} colour(s) from the spec ({', '.join(PALETTE_KEYS[:len(good)])}), rest from the {genre} default")
    elif not good:
        notes.append(f"palette: the {genre} default (the spec gave none)")
    # Keep text readable on whatever background the spec chose (unless the spec chose the text colours).
    light_bg = _luminance(base["bg"]) > 0.55
    if len(good) < 6:
        base["text"] = "#15171c" if light_bg else (base["text"] if _luminance(base["text"]) > 0.5 else "#f5f7fb")
    if len(good) < 5 and light_bg:
        base["fg"] = "#3b4252"
    return {k: base[k] for k in ("bg", "fg", "accent", "accent2", "danger", "text")}


def _clamp(value: float, lo: float, hi: float, name: str, notes: list[str]) -> float:
    if value < lo or value > hi:
        clamped = min(max(value, lo), hi)
        notes.append(f"{name}: {value:g} is outside {lo:g}..{hi:g}, used {clamped:g}")
        return clamped
    return value


def make_config(spec: Spec, genre: str, *, seed: int, fault: str | None, notes: list[str]) -> GameConfig:
    """Derive window.CRUMB_CONFIG from the spec, noting every default the builder chose."""
    n = spec.numbers
    g: Genre | None = loaded(genre).genre if genre in ids() else None
    defaults = {CONFIG_KEY[k]: v for k, v in g.defaults.items()} if g else {}
    picked: dict[str, Any] = {
        "timeLimit": n.time_limit_s,
        "lives": n.lives,
        "targetScore": n.target_score,
        "moves": n.moves,
        "levels": n.levels,
        "grid": n.grid,
        "levelTime": n.level_time_s,
    }
    for key, value in defaults.items():
        if key == "timeLimit" and NO_CLOCK in spec.extras and picked[key] is None:
            notes.append(f"timeLimit: none (the spec asks for no time limit; {genre}'s default clock dropped)")
            continue
        if key == "timeLimit" and n.levels is not None and picked[key] is None:
            # stated levels are the round: a default clock would end it before they can be played
            notes.append(f"timeLimit: none (the spec's {n.levels:g} levels are the round; {genre}'s default clock dropped)")
            continue
        if picked.get(key) is None:
            picked[key] = value
            notes.append(f"{key}: {value} ({genre} default; the spec did not say)")
    if g is not None:  # a number the game does not play is not reported either: its test hook says what it plays
        honoured = g.supported()
        for field, key in CONFIG_KEY.items():
            if picked[key] is not None and field not in honoured:
                notes.append(f"{key}: {picked[key]:g} is not built (the {genre} game has no {field}); reported as none")
                picked[key] = None
    if fault == "wrongnumbers":  # a builder that ignores what the spec states: every number probe must catch it
        for key in ("lives", "targetScore", "levels", "moves", "grid"):
            if picked[key] is not None:
                picked[key] += 1 if key != "grid" or picked[key] < 8 else -1
                notes.append(f"fault injected: {key} built as {picked[key]}, not as the spec says")
    grid_range = g.supported().get("grid") if g else None
    if picked["grid"] is not None and grid_range is not None:
        picked["grid"] = int(_clamp(picked["grid"], *grid_range, "grid", notes))
    knobs = _knobs(spec.extras)
    speed = n.speed if n.speed is not None else knobs.get("speed", 1.0)
    speed = _clamp(float(speed), *SPEED_RANGE, "speed", notes)
    text_scale = _clamp(float(knobs.get("text_scale", 1.0)), *TEXT_SCALE_RANGE, "text_scale", notes)
    return GameConfig(
        genre=genre,
        title=spec.title,
        seed=seed,
        speed=round(speed, 4),
        textScale=round(text_scale, 4),
        palette=_palette(spec, genre, notes),
        extras=list(spec.extras),
        sound=knobs.get("sound", 0) > 0 or "sound" in spec.extras,  # a pitch's "with sound" turns it on
        fault=fault if fault in ("blank", "throws", "noinput", "wrongtimer") else None,
        **picked,
    )


def _config_js(config: GameConfig) -> str:
    data = json.dumps(config.model_dump(), ensure_ascii=True, indent=1, sort_keys=False)
    return "/* Written by the CRUMB builder from the spec. */\nwindow.CRUMB_CONFIG = " + data + ";\n"


def _index_html(spec: Spec, genre_file: str, size: tuple[int, int]) -> str:
    template = (games_dir() / "index.html").read_text(encoding="utf-8")
    values = {
        "lang": html.escape(spec.language or "en", quote=True),
        "title": html.escape(spec.title, quote=True),
        "genre_file": genre_file,
        "width": str(size[0]),
        "height": str(size[1]),
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], template)


def _canvas_size(js: str) -> tuple[int, int]:
    m = re.search(r"size:\s*\[(\d+),\s*(\d+)\]", js)
    return (int(m.group(1)), int(m.group(2))) if m else (480, 720)


def build_game(spec: Spec, out_dir: Path, *, fault: str | None = None, seed: int | None = None) -> list[str]:
    """Write a complete self-contained game folder for spec into out_dir (index.html, style.css,
    runtime.js, <genre>.js, config.js); return human-readable notes of what it chose."""
    if fault is not None and fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}: use one of {', '.join(FAULTS)} or none")
    notes: list[str] = []
    genre = resolve_genre(spec.genre)
    if genre != spec.genre:
        notes.append(f"genre: {spec.genre!r} plays as {genre!r}")
    if genre not in available_genres():
        raise ValueError(f"genre {genre!r} is not installed yet: use one of {', '.join(available_genres())}")
    if fault == "wronggenre":
        wrong = _next_genre(genre)
        notes.append(f"fault injected: wronggenre (built {wrong!r} instead of {genre!r})")
        genre = wrong
    elif fault:
        notes.append(f"fault injected: {fault}")
    js_name = genre_file(genre)
    base = games_dir()
    genre_js = loaded(genre).js.read_text(encoding="utf-8")
    if fault == "syntax":
        genre_js += "\n/* fault injected: syntax */\nCrumbGame.register({ genre: \"broken\", init(api) { return {; } });\n"
    config = make_config(spec, genre, seed=spec.seed if seed is None else seed, fault=fault, notes=notes)
    files = {
        "index.html": _index_html(spec, js_name, _canvas_size(genre_js)),
        "style.css": (base / "style.css").read_text(encoding="utf-8"),
        "runtime.js": (base / "runtime.js").read_text(encoding="utf-8"),
        js_name: genre_js,
        "config.js": _config_js(config),
    }
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in {genre_file(g) for g in ids()} - {js_name}:
        (out_dir / stale).unlink(missing_ok=True)
    for name, text in files.items():
        (out_dir / name).write_bytes(text.encode("utf-8"))
    notes.insert(0, f"built {genre} ({js_name}) for {spec.title!r}, seed {config.seed}")
    return notes
