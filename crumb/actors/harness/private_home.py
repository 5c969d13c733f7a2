"""A private configuration folder for one CLI run, removed when the run ends.

Gemini CLI keeps every conversation under its home (`~/.gemini/tmp/<dir>/chats/`) and has no flag
against it; Codex keeps state and logs databases under CODEX_HOME even with --ephemeral. So each run
gets a fresh folder (mode 0700) holding copies of only the files the CLI needs to sign in and find its
provider, pointed to by the CLI's own variable (GEMINI_CLI_HOME, CODEX_HOME): what the agent writes
there goes with the folder, and a later run (a Verifier after a Builder) cannot read it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: what each CLI needs from its real configuration folder
CODEX_FILES = ("config.toml", "auth.json")
GEMINI_FILES = ("settings.json", "oauth_creds.json", "google_accounts.json")
#: sign-in files a CLI may refresh during a run (rotated tokens): copied back so the user's stay valid
CODEX_CREDENTIALS = ("auth.json",)
GEMINI_CREDENTIALS = ("oauth_creds.json",)
#: the setting that says how Gemini CLI signs in (a custom base URL otherwise reads as "gateway", exit 41)
GEMINI_AUTH_SETTING = "security.auth.selectedType"
#: general.maxAttempts for the main model when the user set none: its default, 10 with backoff, keeps a
#: rate-limited or failing run going for minutes before CRUMB's circuit breaker hears of it
GEMINI_MAX_ATTEMPTS = 2


def codex_source(env: Mapping[str, str]) -> Path:
    """The user's Codex configuration folder: $CODEX_HOME, else ~/.codex."""
    return Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else Path(env.get("HOME") or Path.home()) / ".codex"


def gemini_source(env: Mapping[str, str]) -> Path:
    """The user's Gemini configuration folder: $GEMINI_CLI_HOME/.gemini, else ~/.gemini."""
    return Path(env.get("GEMINI_CLI_HOME") or env.get("HOME") or Path.home()) / ".gemini"


def codex_config(env: Mapping[str, str]) -> dict[str, Any]:
    """The user's codex config.toml as data ({} when absent or unreadable)."""
    try:
        return tomllib.loads((codex_source(env) / "config.toml").read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def codex_provider(env: Mapping[str, str]) -> tuple[str, dict[str, Any]] | None:
    """(name, table) of a model provider config.toml selects, if it defines one of its own."""
    config = codex_config(env)
    name = config.get("model_provider")
    providers = config.get("model_providers")
    if isinstance(name, str) and isinstance(providers, dict) and isinstance(providers.get(name), dict):
        return name, providers[name]
    return None


def _copy(names: Sequence[str], source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True, mode=0o700)
    for name in names:
        src = source / name
        if src.is_file():
            shutil.copy2(src, target / name)


def write_back(names: Sequence[str], private: Path, source: Path) -> None:
    """Copy sign-in files the CLI changed during the run back to the user's folder (an OAuth refresh may
    rotate the refresh token; losing the new one with the private folder would sign the user out)."""
    for name in names:
        new, old = private / name, source / name
        try:
            if new.is_file() and old.is_file() and new.read_bytes() != old.read_bytes():
                shutil.copy2(new, old)
        except OSError:
            continue


@contextmanager
def private_home(harness: str) -> Iterator[Path]:
    """A fresh 0700 folder for one run of `harness`, deleted afterwards whatever happened."""
    folder = Path(tempfile.mkdtemp(prefix=f"crumb-{harness}-home-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def codex_home(folder: Path, env: Mapping[str, str]) -> dict[str, str]:
    """Fill `folder` as a CODEX_HOME (config and sign-in only); the variables that point codex at it."""
    _copy(CODEX_FILES, codex_source(env), folder)
    return {"CODEX_HOME": str(folder)}


def gemini_home(folder: Path, env: Mapping[str, str]) -> dict[str, str]:
    """Fill `folder` as a GEMINI_CLI_HOME (settings and sign-in only); the variables that point gemini at it.

    Retries of the main model are bounded (GEMINI_MAX_ATTEMPTS) unless the user's settings say otherwise.
    With an API key and no sign-in type chosen, the settings say `gemini-api-key`: Gemini CLI 0.61
    otherwise takes a custom GOOGLE_GEMINI_BASE_URL for a gateway and refuses to run headless."""
    target = folder / ".gemini"
    _copy(GEMINI_FILES, gemini_source(env), target)
    settings_path = target / "settings.json"
    try:
        settings = json.loads(settings_path.read_text("utf-8")) if settings_path.exists() else {}
    except ValueError:
        settings = {}
    if not isinstance(settings, dict):
        settings = {}
    general = settings.setdefault("general", {})
    if isinstance(general, dict):
        general.setdefault("maxAttempts", GEMINI_MAX_ATTEMPTS)
    if env.get("GEMINI_API_KEY"):
        auth = settings.setdefault("security", {}).setdefault("auth", {})
        if isinstance(auth, dict) and not auth.get("selectedType"):
            auth["selectedType"] = "gemini-api-key"
    settings_path.write_text(json.dumps(settings, indent=1))
    os.chmod(folder, 0o700)
    return {"GEMINI_CLI_HOME": str(folder)}
