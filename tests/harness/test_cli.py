"""`crumb config show` and `crumb doctor`, run as a user would (through the click entry point)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crumb.actors.base import ActorError
from crumb.actors.harness import chains_as_data, resolve_bindings
from crumb.cli import main
from crumb.store import paths
from crumb.store.writer import TranscriptWriter
from tests.agents.clis import PINNED, cli
from tests.agents.conftest import Offline, throwaway_home  # noqa: F401  (fixture)
from tests.agents.fake_responses import FakeResponses
from tests.agents.test_roles import run

SESSION = "01JCRBMTESTSESSX0000000000"


def crumb(root, *args, env=None):
    return CliRunner().invoke(main, ["--root", str(root), *args], env=env, catch_exceptions=False)


def test_config_show_explains_every_binding(tmp_path, monkeypatch):
    monkeypatch.delenv("CLAUDECODE", raising=False)
    (tmp_path / "crumb.toml").write_text('preset = "cross"\n[roles]\nplanner = "gemini:gemini-2.5-flash"\n')
    result = crumb(tmp_path, "config", "show", "--role", "verifier=openai:ollama/qwen2.5-coder:7b")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "preset: cross (from crumb.toml)"
    row = {line.split()[0]: line.split() for line in lines if line.split() and line.split()[0] in ("planner", "builder", "verifier")}
    assert row["planner"][1:] == ["gemini", "google", "gemini-2.5-flash", "crumb.toml", "-"]
    assert row["builder"][1:] == ["claude", "anthropic", "sonnet", "preset:cross", "-"]
    assert row["verifier"][1:] == ["openai", "ollama", "qwen2.5-coder:7b", "flag", "-"]


def test_config_show_prints_binding_options_and_where_implied_values_come_from(tmp_path):
    result = crumb(tmp_path, "config", "show", "--preset", "ollama")
    assert result.exit_code == 0, result.output
    planner = next(line for line in result.output.splitlines() if line.startswith("planner"))
    assert planner.split()[1:] == ["openai", "ollama", "qwen2.5-coder:7b", "preset:ollama",
                                   "base_url=http://localhost:11434/v1", "temperature=0.2"]
    assert "implied by the harness (claude: anthropic" in result.output


def test_config_show_json(tmp_path):
    result = crumb(tmp_path, "config", "show", "--preset", "codex", "--json")
    data = json.loads(result.output)
    assert data["preset"] == "codex" and data["roles"]["builder"][0]["origin"] == "preset:codex"
    assert data["roles"]["builder"][-1]["harness"] == "local"


def test_config_show_bad_config_is_one_line(tmp_path):
    (tmp_path / "crumb.toml").write_text("[roles]\nbuilder = 3\n")
    result = crumb(tmp_path, "config", "show")
    assert result.exit_code == 1
    assert "crumb.toml: roles.builder: expected a string like 'claude:sonnet'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_config_show_session_reads_what_the_session_recorded(tmp_path):
    chains = chains_as_data(resolve_bindings(tmp_path, preset="cross", env={}))
    writer = TranscriptWriter(paths.transcript_path(tmp_path, SESSION), SESSION, fsync="never")
    writer.append("session.start", {"settings": {}, "bindings": chains, "preset": "cross"})
    writer.append("circuit.opened", {"actor": "builder", "adapter": "claude", "failures": 3})
    writer.append("adapter.swapped", {"actor": "builder", "before": "claude", "after": "codex", "reason": "circuit"})
    # today's config differs from what the session recorded: the session's record wins
    (tmp_path / "crumb.toml").write_text('preset = "gemini"\n')
    result = crumb(tmp_path, "config", "show", "--session", SESSION[-12:])
    assert result.exit_code == 0, result.output
    assert f"session {SESSION}" in result.output and "preset cross" in result.output
    assert "builder swapped claude -> codex (circuit)" in result.output
    assert "circuit opened for builder on claude after 3 failures" in result.output
    assert "gemini" in result.output  # the verifier's recorded fallback, not today's preset
    assert crumb(tmp_path, "config", "show", "--session", "NOPE").exit_code == 1


def test_doctor_with_agents_installed(throwaway_home, tmp_path):  # noqa: F811
    """With the real CLIs on PATH: their versions, and who is signed in by what."""
    for name in ("claude", "codex", "gemini"):
        cli(name)
    (throwaway_home / ".codex").mkdir(parents=True)
    (throwaway_home / ".codex" / "auth.json").write_text("{}")
    env = {"HOME": str(throwaway_home), "ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": "", "CODEX_API_KEY": "",
           "GEMINI_API_KEY": "", "GOOGLE_API_KEY": "", "CLAUDE_CODE_OAUTH_TOKEN": "", "CODEX_HOME": ""}
    result = crumb(tmp_path, "doctor", "--json", env=env)
    report = json.loads(result.output)
    agents = report["agents"]
    for name, package in (("claude", "@anthropic-ai/claude-code"), ("codex", "@openai/codex"), ("gemini", "@google/gemini-cli")):
        assert agents[name]["installed"] and PINNED[package] in agents[name]["version"], agents[name]
    assert agents["codex"]["signed_in"] is True and "auth.json exists" in agents["codex"]["how"]
    assert agents["claude"]["signed_in"] is False and agents["gemini"]["signed_in"] is False
    assert report["presets"]["claude"]["runnable"] and report["presets"]["cross"]["runnable"]
    assert report["presets"]["local"]["runnable"] is report["local"]["ok"]
    assert result.exit_code == (0 if report["ok"] else 1)


def test_doctor_exit_status_follows_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no agent CLIs at all
    (tmp_path / "crumb.toml").write_text('preset = "claude"\n')
    result = crumb(tmp_path, "doctor")
    assert result.exit_code == 1
    assert "default (planner=claude" in result.output and "does NOT work: claude: 'claude' is not on PATH" in result.output
    assert "not installed (npm install -g @anthropic-ai/claude-code)" in result.output


def test_doctor_sees_a_local_model_server(tmp_path, openai_server):
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "mine.toml").write_text(
        f'[roles.all]\nharness = "openai"\nprovider = "ollama"\nmodel = "m"\noptions = {{ base_url = "{openai_server.base_url}" }}\n'
    )
    report = json.loads(crumb(tmp_path, "doctor", "--json").stdout)  # stdout: a server thread of this process may write to stderr
    assert report["presets"]["mine"] == {"runnable": True, "missing": []}


def test_doctor_understands_a_codex_provider_configured_in_config_toml(throwaway_home, tmp_path, monkeypatch):  # noqa: F811
    """Doctor's verdict on a provider in config.toml is what the real codex does with it: with the
    provider's key variable empty codex cannot sign in; with it set, codex talks to that provider."""
    cli("codex")
    with FakeResponses() as server:
        (throwaway_home / ".codex").mkdir(parents=True)
        (throwaway_home / ".codex" / "config.toml").write_text(
            f'model_provider = "mine"\nmodel = "gpt-5.5"\n[model_providers.mine]\nname = "mine"\nbase_url = "{server.base_url}/v1"\n'
            'env_key = "MY_KEY"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n')
        env = {"HOME": str(throwaway_home), "OPENAI_API_KEY": "", "CODEX_API_KEY": "", "CODEX_HOME": "", "MY_KEY": ""}
        codex = json.loads(crumb(tmp_path, "doctor", "--json", env=env).stdout)["agents"]["codex"]
        assert codex["signed_in"] is False  # the provider's key variable is empty
        monkeypatch.setenv("MY_KEY", "")
        with pytest.raises(ActorError, match="codex planner: exit 1: .*MY_KEY"):
            run(Offline("codex"), "planner", tmp_path)
        assert server.requests == []

        codex = json.loads(crumb(tmp_path, "doctor", "--json", env={**env, "MY_KEY": "k"}).stdout)["agents"]["codex"]
        assert codex["signed_in"] is True and codex["how"] == "provider 'mine' in config.toml, $MY_KEY is set"
        monkeypatch.setenv("MY_KEY", "k")
        assert "spec" in run(Offline("codex"), "planner", tmp_path)[0].payload
        assert server.role_requests("planner")[0].headers["authorization"] == "Bearer k"
