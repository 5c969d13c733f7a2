"""The private configuration folder of one codex or gemini run: only sign-in and provider files go in,
the user's own settings win, a refreshed token comes back, and the folder is gone afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from crumb.actors.harness.private_home import codex_home, gemini_home, private_home, write_back


def test_codex_gets_its_config_and_sign_in_only_and_the_folder_goes(tmp_path: Path) -> None:
    user = tmp_path / "home" / ".codex"
    (user / "sessions").mkdir(parents=True)
    for name in ("config.toml", "auth.json", "history.jsonl", "sessions/old.jsonl"):
        (user / name).write_text(name)
    env = {"HOME": str(tmp_path / "home")}
    with private_home("codex") as folder:
        assert codex_home(folder, env) == {"CODEX_HOME": str(folder)}
        assert sorted(p.name for p in folder.iterdir()) == ["auth.json", "config.toml"]
        (folder / "auth.json").write_text("refreshed")
        write_back(("auth.json",), folder, user)
    assert not folder.exists()
    assert (user / "auth.json").read_text() == "refreshed" and (user / "history.jsonl").read_text() == "history.jsonl"


def test_gemini_settings_get_an_auth_type_and_bounded_attempts_unless_the_user_chose(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "GEMINI_API_KEY": "k"}
    with private_home("gemini") as folder:
        assert gemini_home(folder, env) == {"GEMINI_CLI_HOME": str(folder)}
        settings = json.loads((folder / ".gemini" / "settings.json").read_text())
    assert settings == {"general": {"maxAttempts": 2}, "security": {"auth": {"selectedType": "gemini-api-key"}}}
    user = tmp_path / "home" / ".gemini"
    user.mkdir(parents=True)
    (user / "settings.json").write_text(json.dumps({"general": {"maxAttempts": 5}, "security": {"auth": {"selectedType": "oauth-personal"}}}))
    (user / "tmp").mkdir()
    (user / "tmp" / "chat.json").write_text("the Builder's conversation")
    with private_home("gemini") as folder:
        gemini_home(folder, env)
        settings = json.loads((folder / ".gemini" / "settings.json").read_text())
        assert sorted(p.name for p in (folder / ".gemini").iterdir()) == ["settings.json"]
    assert settings["general"]["maxAttempts"] == 5 and settings["security"]["auth"]["selectedType"] == "oauth-personal"
