"""`crumb integrate`'s writers: what a host CLI reads is put in place once, next to whatever else the file
holds, and `--remove` takes out exactly that; a file that cannot be read as it should be is one line."""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from pathlib import Path

import pytest

from crumb.integrate.files import IntegrateError, JsonKey, JsonListItem, TomlBlock, WholeFile, apply, remove
from crumb.integrate.hosts import COMMANDS, entries
from tests.daemon.conftest import crumb


def test_a_json_key_joins_the_servers_already_there_and_leaves_with_only_itself(tmp_path: Path):
    path = tmp_path / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}, "note": 1}))
    entry = JsonKey(path, ("mcpServers", "crumb"), {"command": "py"})
    assert apply(entry).action == "wrote" and apply(entry).action == "unchanged"
    assert json.loads(path.read_text()) == {"mcpServers": {"other": {"command": "x"}, "crumb": {"command": "py"}}, "note": 1}
    assert remove(entry).action == "removed" and remove(entry).action == "absent"
    assert json.loads(path.read_text()) == {"mcpServers": {"other": {"command": "x"}}, "note": 1}


def test_a_private_settings_file_stays_private_when_crumb_joins_it(tmp_path: Path):
    """A host's settings file may hold a key: crumb's entry must not make a 0o600 file readable by others."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"apiKey": "k"}))
    path.chmod(0o600)
    apply(JsonKey(path, ("mcpServers", "crumb"), {"command": "py"}))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and json.loads(path.read_text())["apiKey"] == "k"
    fresh = tmp_path / "new" / ".mcp.json"
    apply(JsonKey(fresh, ("mcpServers", "crumb"), {"command": "py"}))
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644 & ~_umask()


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def test_a_json_file_crumb_alone_made_goes_away_with_it(tmp_path: Path):
    path = tmp_path / ".claude" / "settings.local.json"
    item = JsonListItem(path, "enabledMcpjsonServers", "crumb")
    apply(item)
    assert json.loads(path.read_text()) == {"enabledMcpjsonServers": ["crumb"]}
    remove(item)
    assert not path.exists()


def test_a_toml_block_is_added_once_and_taken_out_without_the_rest(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text('model = "gpt-5.5"\n\n[mcp_servers.other]\ncommand = "x"\n')
    block = TomlBlock(path, "mcp_servers.crumb", '[mcp_servers.crumb]\ncommand = "py"\nargs = ["-m", "crumb"]\n')
    assert apply(block).action == "wrote" and apply(block).action == "unchanged"
    assert tomllib.loads(path.read_text())["mcp_servers"] == {"other": {"command": "x"},
                                                             "crumb": {"command": "py", "args": ["-m", "crumb"]}}
    remove(block)
    assert path.read_text() == 'model = "gpt-5.5"\n\n[mcp_servers.other]\ncommand = "x"\n'


def test_a_table_defined_by_hand_is_not_defined_twice(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text('[mcp_servers.crumb]\ncommand = "mine"\n')
    with pytest.raises(IntegrateError, match=r"already defines \[mcp_servers.crumb\] outside CRUMB's block"):
        apply(TomlBlock(path, "mcp_servers.crumb", "[mcp_servers.crumb]\n"))
    assert path.read_text() == '[mcp_servers.crumb]\ncommand = "mine"\n'


def test_a_file_changed_since_it_was_written_is_kept_on_remove(tmp_path: Path):
    entry = WholeFile(tmp_path / "commands" / "crumb-pause.md", "pause it\n")
    apply(entry)
    entry.path.write_text("my own words\n")
    assert remove(entry).action == "kept" and entry.path.read_text() == "my own words\n"


def test_a_broken_json_file_is_one_line_naming_it_and_is_left_alone(tmp_path: Path):
    path = tmp_path / ".mcp.json"
    path.write_text("{not json")
    with pytest.raises(IntegrateError, match=r"\.mcp\.json is not valid JSON .*: fix or move it"):
        apply(JsonKey(path, ("mcpServers", "crumb"), {}))
    assert path.read_text() == "{not json"


def test_each_host_gets_a_server_started_by_this_python_and_every_command(tmp_path: Path):
    env = {"HOME": str(tmp_path / "home")}
    claude = entries("claude", tmp_path, env)
    server = next(e for e in claude if isinstance(e, JsonKey)).value
    assert server == {"type": "stdio", "command": sys.executable, "args": ["-m", "crumb", "--root", str(tmp_path), "mcp"]}
    names = {c.name for c in COMMANDS}
    assert names == {"pitch", "approve", "veto", "pause", "resume", "redo", "cancel", "watch"}
    assert {e.path.name for e in claude if isinstance(e, WholeFile)} >= {f"crumb-{n}.md" for n in names}
    codex = entries("codex", tmp_path, {**env, "CODEX_HOME": str(tmp_path / "codex")})
    block = next(e for e in codex if isinstance(e, TomlBlock))
    assert tomllib.loads(block.text)["mcp_servers"]["crumb"]["args"][-1] == "mcp"
    gemini = entries("gemini", None, env)
    manifest = json.loads(next(e for e in gemini if e.path.name == "gemini-extension.json").text)  # type: ignore[union-attr]
    assert manifest["mcpServers"]["crumb"]["args"][3] == "${workspacePath}"  # the folder Gemini CLI runs in
    assert {e.path.name for e in gemini if isinstance(e, WholeFile)} >= {f"{n}.toml" for n in names}


def test_the_command_prints_each_part_and_a_second_run_changes_nothing(tmp_path: Path):
    root = tmp_path / "root"
    root.mkdir()
    first = crumb(root, "integrate", "claude")
    assert first.returncode == 0 and f"wrote     {root}/.mcp.json (mcpServers.crumb)" in first.stdout.splitlines()
    again = crumb(root, "integrate", "claude")
    assert {line.split()[0] for line in again.stdout.splitlines()} == {"unchanged"}
    gone = crumb(root, "integrate", "claude", "--remove")
    assert {line.split()[0] for line in gone.stdout.splitlines()} == {"removed"}
    assert sorted(p.name for p in root.rglob("*")) == [".claude"]  # the folder the CLI keeps its own settings in
    missing = crumb(root, "integrate", "claude", "--project", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and missing.stderr.startswith("Error: ") and "is not a folder" in missing.stderr
