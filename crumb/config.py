"""crumb.toml: the optional project config. Settings precedence: CLI > crumb.toml > preset > defaults."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from crumb.settings import Settings


class ConfigError(ValueError):
    """A config or preset file is wrong; the message names the file and the fix."""


def config_path(root: Path) -> Path:
    return root / "crumb.toml"


def load_config(root: Path) -> dict[str, Any]:
    path = config_path(root)
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not valid TOML ({err}); fix the file or remove it") from None


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
        except (ValidationError, ValueError) as err:
            if isinstance(err, ValidationError):  # name the key: "budgets.fixes: Input should be ..."
                first = err.errors()[0]
                msg = ".".join(str(p) for p in first["loc"]) + ": " + first["msg"]
            else:
                msg = str(err)
            raise ConfigError(f"{origin}: bad [settings]: {msg}") from None
    return settings
