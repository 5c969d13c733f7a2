"""The embedded offline Builder: writes a self-contained game folder from a Spec.

Every genre is a small JS file on top of one shared runtime (games/runtime.js); the only thing that
differs between two builds of the same genre is config.js, derived here from the Spec. No clock, no
randomness, no network: the same spec and seed always give byte-identical files.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from crumb.protocol.game import Spec

# genre name -> JS file. Order matters: the "wronggenre" fault builds the next existing one.
GENRES: dict[str, str] = {
    "snake": "snake.js",
    "breakout": "breakout.js",
    "flappy": "flappy.js",
    "runner": "runner.js",
    "shooter": "shooter.js",
    "platformer": "platformer.js",
    "pong": "pong.js",
    "dodge": "dodge.js",
    "match3": "match3.js",
    "memory": "memory.js",
    "slide2048": "slide2048.js",
    "blocks": "blocks.js",
    "whack": "whack.js",
    "clicker": "clicker.js",
    "simon": "simon.js",
    "stacker": "stacker.js",
}

# Common ways a Planner or a person names a genre -> the genre that plays like it.
ALIASES: dict[str, str] = {
    "brick breaker": "breakout", "bricks": "breakout", "arkanoid": "breakout",
    "flappy bird": "flappy", "flap": "flappy",
    "endless runner": "runner", "jump": "runner", "dino": "runner",
    "space shooter": "shooter", "shmup": "shooter", "shoot em up": "shooter", "invaders": "shooter",
    "platform": "platformer", "jumper": "platformer",
    "paddle": "pong", "tennis": "pong",
    "dodger": "dodge", "avoid": "dodge", "survive": "dodge",
    "match 3": "match3", "match-3": "match3",
    "2048": "slide2048", "tetris": "blocks", "whack a mole": "whack", "whack-a-mole": "whack",
    "idle": "clicker", "tap": "clicker", "memory match": "memory", "simon says": "simon", "stack": "stacker",
}

FAULTS: tuple[str, ...] = ("blank", "throws", "noinput", "wrongtimer", "syntax", "wronggenre", "wrongnumbers")

PALETTE_KEYS: tuple[str, ...] = ("bg", "accent", "accent2", "danger", "fg", "text")
"""The order spec.theme.palette colours are read in: background first, then the two accents."""

DEFAULT_PALETTES: dict[str, dict[str, str]] = {
    "snake": {"bg": "#101a14", "accent": "#5be37d", "accent2": "#ffcf4a", "danger": "#ff5d73", "fg": "#b8e6c4", "text": "#f3fff6"},
    "breakout": {"bg": "#12132a", "accent": "#6c8cff", "accent2": "#ff9f43", "danger": "#ff4d6d", "fg": "#c9d1ff", "text": "#f5f6ff"},
    "flappy": {"bg": "#1d3557", "accent": "#ffd166", "accent2": "#06d6a0", "danger": "#ef476f", "fg": "#a8dadc", "text": "#ffffff"},
    "runner": {"bg": "#1b1433", "accent": "#ff7ab6", "accent2": "#7afcff", "danger": "#ff4f4f", "fg": "#c7b8ff", "text": "#fff7fd"},
    "shooter": {"bg": "#070b18", "accent": "#48e5c2", "accent2": "#fcd34d", "danger": "#ff4766", "fg": "#93a4c8", "text": "#eef4ff"},
    "platformer": {"bg": "#17243b", "accent": "#7bd389", "accent2": "#ffd23f", "danger": "#ee4266", "fg": "#9fb4d8", "text": "#ffffff"},
    "pong": {"bg": "#0e1116", "accent": "#f1f5f9", "accent2": "#38bdf8", "danger": "#f43f5e", "fg": "#64748b", "text": "#f8fafc"},
    "dodge": {"bg": "#160f24", "accent": "#5eead4", "accent2": "#f472b6", "danger": "#fb7185", "fg": "#a78bfa", "text": "#fdf4ff"},
    "match3": {"bg": "#1a1033", "accent": "#b48cff", "accent2": "#ffd166", "danger": "#ff5d73", "fg": "#cbbcf5", "text": "#fbf7ff"},
    "memory": {"bg": "#14182b", "accent": "#4cc9f0", "accent2": "#ffd166", "danger": "#ef476f", "fg": "#aab4d4", "text": "#f8fbff"},
    "slide2048": {"bg": "#101a24", "accent": "#38bdf8", "accent2": "#fbbf24", "danger": "#f43f5e", "fg": "#9fb3c8", "text": "#f1f5f9"},
    "blocks": {"bg": "#0f1020", "accent": "#7c83ff", "accent2": "#ffd23f", "danger": "#ff4d6d", "fg": "#a9b0d6", "text": "#f5f6ff"},
    "whack": {"bg": "#1f3a1c", "accent": "#9be15d", "accent2": "#ffd54f", "danger": "#ff5252", "fg": "#d7f5c4", "text": "#ffffff"},
    "clicker": {"bg": "#1a1230", "accent": "#8b7bff", "accent2": "#ffc83d", "danger": "#ff5d73", "fg": "#c4b8f0", "text": "#fffaf0"},
    "simon": {"bg": "#111318", "accent": "#60a5fa", "accent2": "#facc15", "danger": "#ef4444", "fg": "#9ca3af", "text": "#f9fafb"},
    "stacker": {"bg": "#0b1526", "accent": "#22d3ee", "accent2": "#f472b6", "danger": "#fb7185", "fg": "#94a3b8", "text": "#f8fafc"},
}
FALLBACK_PALETTE = {"bg": "#14161f", "accent": "#5ad1ff", "accent2": "#ffcf5a", "danger": "#ff5d73", "fg": "#c5cbe0", "text": "#f5f7fb"}

# What a genre plays with when the pitch did not say (each choice is reported in the notes).
GENRE_DEFAULTS: dict[str, dict[str, Any]] = {
    "snake": {},
    "breakout": {"lives": 3},
    "flappy": {"lives": 3},  # one touch ends a livesless round before the first gap
    "runner": {},
    "shooter": {"lives": 3},
    "platformer": {"lives": 3, "levels": 3},
    "pong": {"lives": 5, "targetScore": 30},
    "dodge": {"lives": 3, "timeLimit": 60},
    "match3": {"timeLimit": 60},  # without a clock or a move limit these rounds would never end
    "whack": {"timeLimit": 60},
    "clicker": {"timeLimit": 60},
    "memory": {},
    "slide2048": {},
    "blocks": {},
    "simon": {},
    "stacker": {},
}

HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
KNOB = re.compile(r"^\s*([a-z_]+)\s*[:=]\s*([-+0-9.]+)\s*$")
SPEED_RANGE = (0.25, 4.0)
GRID_RANGE: dict[str, tuple[int, int]] = {"snake": (6, 40)}
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
    palette: dict[str, str] = Field(default_factory=dict)
    textScale: float = 1.0
    sound: bool = False
    extras: list[str] = Field(default_factory=list)
    fault: str | None = None


def games_dir() -> Path:
    """Where the genre files live: next to this module, shipped as package data."""
    return Path(__file__).resolve().parent / "games"


def resolve_genre(name: str) -> str:
    """Map a spec's genre to a known one; raise ValueError naming the known genres."""
    key = re.sub(r"\s+", " ", name.strip().lower().replace("_", " "))
    if key in GENRES:
        return key
    if key.replace(" ", "") in GENRES:
        return key.replace(" ", "")
    if key in ALIASES:
        return ALIASES[key]
    raise ValueError(f"unknown genre {name!r}: use one of {', '.join(GENRES)}")


def available_genres() -> list[str]:
    """Genres whose JS file is present in this installation."""
    base = games_dir()
    return [g for g, f in GENRES.items() if (base / f).is_file()]


def _next_genre(genre: str) -> str:
    names = list(GENRES)
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
    base = dict(DEFAULT_PALETTES.get(genre, FALLBACK_PALETTE))
    given = [c.strip() for c in spec.theme.palette]
    good = [c.lower() for c in given if HEX.match(c)]
    bad = [c for c in given if not HEX.match(c)]
    if bad:
        notes.append(f"palette: ignored {', '.join(map(repr, bad))} (not #rgb or #rrggbb hex colours)")
    for key, color in zip(PALETTE_KEYS, good):
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
    defaults = GENRE_DEFAULTS.get(genre, {})
    picked: dict[str, Any] = {
        "timeLimit": n.time_limit_s,
        "lives": n.lives,
        "targetScore": n.target_score,
        "moves": n.moves,
        "levels": n.levels,
        "grid": n.grid,
    }
    for key, value in defaults.items():
        if picked.get(key) is None:
            picked[key] = value
            notes.append(f"{key}: {value} ({genre} default; the spec did not say)")
    if fault == "wrongnumbers":  # a builder that ignores what the spec states: every number probe must catch it
        for key in ("lives", "targetScore", "levels", "moves", "grid"):
            if picked[key] is not None:
                picked[key] += 1 if key != "grid" or picked[key] < 8 else -1
                notes.append(f"fault injected: {key} built as {picked[key]}, not as the spec says")
    if picked["grid"] is not None and genre in GRID_RANGE:
        picked["grid"] = int(_clamp(picked["grid"], *GRID_RANGE[genre], "grid", notes))
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
        sound=knobs.get("sound", 0) > 0,
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
    genre_file = GENRES[genre]
    base = games_dir()
    genre_js = (base / genre_file).read_text(encoding="utf-8")
    if fault == "syntax":
        genre_js += "\n/* fault injected: syntax */\nCrumbGame.register({ genre: \"broken\", init(api) { return {; } });\n"
    config = make_config(spec, genre, seed=spec.seed if seed is None else seed, fault=fault, notes=notes)
    files = {
        "index.html": _index_html(spec, genre_file, _canvas_size(genre_js)),
        "style.css": (base / "style.css").read_text(encoding="utf-8"),
        "runtime.js": (base / "runtime.js").read_text(encoding="utf-8"),
        genre_file: genre_js,
        "config.js": _config_js(config),
    }
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in set(GENRES.values()) - {genre_file}:
        (out_dir / stale).unlink(missing_ok=True)
    for name, text in files.items():
        (out_dir / name).write_bytes(text.encode("utf-8"))
    notes.insert(0, f"built {genre} ({genre_file}) for {spec.title!r}, seed {config.seed}")
    return notes
