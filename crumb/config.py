"""crumb.toml and preset files: read them, and refuse keys CRUMB would otherwise silently ignore.

Settings precedence: CLI > crumb.toml > preset > defaults. Bindings (`[roles]`) are resolved in
crumb/actors/harness/bindings.py from the same files.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from crumb.settings import SECTIONS, Settings, SettingsError
from crumb.store import paths

#: top-level keys each file may hold; anything else is a typo or a misplaced section
CONFIG_KEYS = ("preset", "roles", "settings", "security", "genres")  # security: crumb/actors/harness/local_only.py; genres: crumb/genres/registry.py
PRESET_KEYS = ("description", "roles", "settings")
#: a misplaced top-level key -> where it belongs
MOVED = {"bindings": "[roles]", "binding": "[roles]", "role": "[roles]", "actors": "[roles] (or [settings.actors])",
         "presets": "preset = \"name\""}


class ConfigError(ValueError):
    """A config or preset file is wrong; the message names the file and the fix."""


def config_path(root: Path) -> Path:
    return paths.config_path(root)


def read_toml(path: Path, *, allowed: tuple[str, ...]) -> dict[str, Any]:
    """A TOML file as a dict; ConfigError naming the file and the fix when it is unreadable, not TOML, or
    has a top-level key outside `allowed` (a `[bindings]` table would otherwise be dropped without a word)."""
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML (not UTF-8: bad byte at offset {exc.start}); fix the file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    for key in data:
        if key in allowed:
            continue
        if key in MOVED:
            fix = f"put it under {MOVED[key]}"
        elif key in SECTIONS:
            fix = f"settings go under [settings.{key}]"
        else:
            fix = "remove it or fix the spelling"
        raise ConfigError(f"{path}: unknown key {key!r} (allowed: {', '.join(allowed)}); {fix}")
    return data


def load_config(root: Path) -> dict[str, Any]:
    """crumb.toml in root, or {} when there is none."""
    path = config_path(root)
    return read_toml(path, allowed=CONFIG_KEYS) if path.is_file() else {}


def load_settings(root: Path, *, preset: dict[str, Any] | None = None,
                  overrides: dict[str, Any] | None = None) -> Settings:
    """Defaults, then the preset's [settings], then crumb.toml's [settings], then explicit overrides."""
    settings = Settings()
    layers = [("preset", (preset or {}).get("settings")), (str(config_path(root)), load_config(root).get("settings")),
              ("overrides", overrides)]
    for origin, layer in layers:
        if not layer:
            continue
        try:
            settings = settings.merged(layer)
        except SettingsError as err:  # names the key: "budgets.fixes: Expected `int` >= 0"
            raise ConfigError(f"{origin}: bad [settings]: {err}") from None
    return settings
