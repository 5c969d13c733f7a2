"""The user's config ($XDG_CONFIG_HOME/crumb/config.toml): below a folder's crumb.toml, above a preset,
and shown by `crumb config show` with where each value came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crumb.actors.harness.bindings import resolve_bindings
from crumb.config import ConfigError, load_settings, user_cache_dir, user_config_path

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    (home / "crumb").mkdir(parents=True)
    return home / "crumb" / "config.toml"


def test_the_users_config_sits_below_the_folders_and_above_the_defaults(tmp_path: Path, user: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    user.write_text('[settings.budgets]\nfixes = 7\nverifies = 3\n\n[roles]\nbuilder = "codex"\n')
    assert user_config_path() == user
    settings = load_settings(root)
    assert (settings.budgets.fixes, settings.budgets.verifies) == (7, 3)
    chains = resolve_bindings(root)
    assert (chains["builder"][0].harness, chains["builder"][0].origin) == ("codex", "user config")
    (root / "crumb.toml").write_text('[settings.budgets]\nfixes = 2\n\n[roles]\nbuilder = "gemini"\n')
    settings = load_settings(root)
    assert (settings.budgets.fixes, settings.budgets.verifies) == (2, 3)  # the folder wins where it speaks
    assert resolve_bindings(root)["builder"][0].harness == "gemini"


def test_a_bad_user_config_names_its_file_and_a_relative_xdg_home_is_ignored(tmp_path: Path, user: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    user.write_text('[security]\nallow = ["x"]\n')  # an allow-list of commands is the folder's own
    with pytest.raises(ConfigError, match=str(user)):
        load_settings(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_config_path() == tmp_path / "home" / ".config" / "crumb" / "config.toml"


def test_the_cache_folder_is_under_an_absolute_xdg_cache_home_else_home(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_cache_dir({"XDG_CACHE_HOME": str(tmp_path / "c")}) == tmp_path / "c" / "crumb"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir({"XDG_CACHE_HOME": "relative/dir"}) == tmp_path / "home" / ".cache" / "crumb"
    assert user_cache_dir({}) == tmp_path / "home" / ".cache" / "crumb"


def test_config_show_says_the_preset_came_from_the_users_config(tmp_path: Path, user: Path) -> None:
    user.write_text('preset = "cross-local"\n')
    env = {**os.environ}
    out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "config", "show", "--json"],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["preset"], data["preset_from"], data["user_config"]) == ("cross-local", "user config", str(user))
    text = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "config", "show"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120).stdout
    assert "preset: cross-local (from user config)" in text and f"user config: {user}" in text
