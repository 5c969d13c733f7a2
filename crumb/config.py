"""crumb.toml and preset files: read them, and refuse keys CRUMB would otherwise silently ignore.

Settings precedence: CLI > crumb.toml > the user's config > preset > defaults. Bindings (`[roles]`) are
resolved in crumb/actors/harness/bindings.py from the same files. The user's config
($XDG_CONFIG_HOME/crumb/config.toml, else ~/.config/crumb/config.toml) holds what a person wants in every
folder (a preset, their roles, budgets); a folder's crumb.toml overrides it.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from crumb.settings import SECTIONS, Settings, SettingsError
from crumb.store import paths

#: top-level keys each file may hold; anything else is a typo or a misplaced section
CONFIG_KEYS = ("preset", "roles", "settings", "security", "genres")  # security: crumb/actors/harness/local_only.py; genres: crumb/genres/registry.py
#: the user's config: no [security] (an allow-list of commands is the folder's own) and no [genres]
USER_CONFIG_KEYS = ("preset", "roles", "settings")
USER_ORIGIN = "user config"  # how `crumb config show` names a value that came from it
PRESET_KEYS = ("description", "roles", "settings", "fault")  # fault: the embedded studio's broken first build (--fault)
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


def user_config_path(env: Mapping[str, str] | None = None) -> Path:
    """$XDG_CONFIG_HOME/crumb/config.toml (an absolute XDG_CONFIG_HOME only, as the XDG spec says), else
    ~/.config/crumb/config.toml."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".config") / "crumb" / "config.toml"


def user_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """$XDG_CACHE_HOME/crumb (an absolute XDG_CACHE_HOME only), else ~/.cache/crumb: what CRUMB can
    rebuild at any time, kept only to start faster."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "crumb"


def load_user_config() -> dict[str, Any]:
    """The user's config, or {} when there is none."""
    path = user_config_path()
    return read_toml(path, allowed=USER_CONFIG_KEYS) if path.is_file() else {}


def load_settings(root: Path, *, preset: dict[str, Any] | None = None,
                  overrides: dict[str, Any] | None = None) -> Settings:
    """Defaults, then the preset's [settings], the user's config's, crumb.toml's, then explicit overrides."""
    settings = Settings()
    layers = [("preset", (preset or {}).get("settings")), (str(user_config_path()), load_user_config().get("settings")),
              (str(config_path(root)), load_config(root).get("settings")), ("overrides", overrides)]
    for origin, layer in layers:
        if not layer:
            continue
        try:
            settings = settings.merged(layer)
        except SettingsError as err:  # names the key: "budgets.fixes: Expected `int` >= 0"
            raise ConfigError(f"{origin}: bad [settings]: {err}") from None
    return settings
