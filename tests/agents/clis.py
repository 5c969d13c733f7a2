"""The real agent CLIs installed by `make agents` (tests/agents/package.json, pinned by its lock) and the
environment that points each at a fake model server with a throwaway HOME."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: where `make agents` installs the pinned CLIs (git-ignored)
INSTALL = ROOT / ".cache" / "agents"
BIN = INSTALL / "node_modules" / ".bin"
PINNED: dict[str, str] = json.loads((Path(__file__).with_name("package.json")).read_text())["dependencies"]
QUIET_CLAUDE = {"DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}


def cli(name: str) -> Path:
    """The installed CLI, or skip naming how to install it (never a silent pass)."""
    path = BIN / name
    if not os.access(path, os.X_OK):
        pytest.skip(f"the real {name} CLI is not installed in {INSTALL}: run `make agents` (needs npm and the registry)")
    return path


#: variables of the user's own setup that must not reach a test's CLI
FOREIGN = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_THREAD_ID", "CODEX_CI", "CODEX_SANDBOX_NETWORK_DISABLED",
           "GEMINI_CLI", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_OAUTH_TOKEN",
           "OPENAI_API_KEY", "CODEX_API_KEY", "CODEX_HOME", "GEMINI_API_KEY", "GOOGLE_API_KEY",
           "GOOGLE_GEMINI_BASE_URL", "GEMINI_CLI_HOME", "GOOGLE_GENAI_USE_VERTEXAI", "CLAUDE_CODE_MAX_RETRIES")
#: the variable the fake codex provider reads its key from
CODEX_KEY_VAR = "CRUMB_FAKE_OPENAI_KEY"


def point_at(harness: str, base_url: str, home: Path, env: dict[str, str]) -> None:
    """The documented settings that make `harness` talk to a fake server at `base_url` (AGENT-CLIS.md,
    "Running the real CLIs offline"), written into `env` and the throwaway `home`. Gemini's auth-type
    setting is CRUMB's to write (private_home.py), so it is not written here."""
    if harness == "claude":
        env.update({"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": "fake-key", **QUIET_CLAUDE})
    elif harness == "codex":
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        (home / ".codex" / "config.toml").write_text(
            'model_provider = "fake"\nmodel = "gpt-5.5"\n\n[model_providers.fake]\nname = "fake"\n'
            f'base_url = "{base_url}/v1"\nenv_key = "{CODEX_KEY_VAR}"\nwire_api = "responses"\n'
            "request_max_retries = 1\nstream_max_retries = 1\n")  # its default 4-5 retries take ~30 s
        env[CODEX_KEY_VAR] = "fake-key"
    elif harness == "gemini":
        env.update({"GEMINI_API_KEY": "fake-key", "GOOGLE_GEMINI_BASE_URL": base_url})
    else:
        raise ValueError(harness)


def live_processes_with(marker: str) -> dict[int, str]:
    """Live processes (not zombies, not this one) whose environment holds `marker`, with their command
    lines: a test's throwaway HOME reaches everything its CLI starts."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() not in (entry / "environ").read_bytes():
                continue
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError):
            continue
    return found
