"""No silent fallback for a harness that cannot run at all: `crumb pitch`, `crumb run`, a pitch file in a
running daemon and the Studio refuse a pitch whose bound harness cannot run here (an executable not on
PATH, a model server that does not answer), with one line naming the role, the harness and the fix,
and write nothing; `--allow-fallback`, front matter `fallback: allow` and `[settings.harness]
fallback = "allow"` start it anyway, and the circuit breaker falls back as designed. Real processes,
a real PATH, real loopback sockets and HTTP servers, a real daemon and a real Studio."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from crumb.daemon.files import why_name
from crumb.daemon.grammar import parse_pitch
from crumb.daemon.session_start import session_start_data
from crumb.store import paths
from tests.daemon.conftest import crumb, drop, events, wait_done
from tests.loopback import AMBIENT, AnsweringServer, env_without, path_without, refusing_port, silent_server
from tests.wait import wait_until

AGENTS = ("claude", "codex", "gemini")
ALLOW = "pass --allow-fallback to start anyway"


def written(root: Path) -> list[str]:
    """Every file and folder under root but the empty inbox/ the fixture made."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p != root / "inbox")


def error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr
    return lines[0]


# (arguments, files to write first, words the one line must hold); {root} and {port} are filled in
REFUSED: list[tuple[list[str], dict[str, str], list[str]]] = [
    (["--role", "builder=claude:sonnet"], {},
     ["builder is bound to claude:sonnet (from flag)", "'claude' is not on PATH",
      "install it (npm install -g @anthropic-ai/claude-code)"]),
    (["--preset", "claude"], {},
     ["planner, builder, verifier and researcher are bound to claude:sonnet (from preset:claude)",
      "'claude' is not on PATH"]),
    ([], {"crumb.toml": 'preset = "codex"\n'},
     ["are bound to codex (from preset:codex)", "'codex' is not on PATH", "npm install -g @openai/codex"]),
    ([], {"crumb.toml": '[roles.verifier]\nharness = "gemini"\nmodel = "gemini-2.5-pro"\n'},
     ["verifier is bound to gemini:gemini-2.5-pro (from crumb.toml)", "'gemini' is not on PATH"]),
    (["--role", "builder=command:./tools/agent --fast"], {},
     ["builder is bound to command:./tools/agent --fast (from flag)", "{root}/tools/agent does not exist"]),
    (["--role", "all=openai:ollama/qwen@http://127.0.0.1:{port}/v1"], {},
     ["are bound to openai:ollama/qwen@http://127.0.0.1:{port}/v1 (from flag)",
      "no model server answers at http://127.0.0.1:{port}/v1 (connection refused)", "ollama serve"]),
]


@pytest.mark.parametrize("command", ["pitch", "run"])
@pytest.mark.parametrize("args,files,words", REFUSED, ids=["flag", "preset", "toml-preset", "toml-role", "command",
                                                            "openai"])
def test_a_harness_that_cannot_run_is_refused_before_anything_is_written(
        root: Path, command: str, args: list[str], files: dict[str, str], words: list[str]) -> None:
    for rel, text in files.items():
        (root / rel).write_text(text)
    before = written(root)
    with refusing_port() as port:
        fill = lambda s: s.replace("{root}", str(root)).replace("{port}", str(port))  # noqa: E731
        out = crumb(root, command, "60-second snake", *map(fill, args), env=env_without(*AGENTS), timeout=60)
    assert out.returncode == 2, out.stderr
    line = error_line(out.stderr)
    for w in words:
        assert fill(w) in line, (w, line)
    assert line.endswith(f"or {ALLOW} and let the role fall back along its chain (in the end to local)")
    assert out.stdout == ""  # no session id
    assert written(root) == before  # no inbox file, no session folder


def test_an_answering_server_and_an_installed_cli_are_accepted(root: Path, tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    claude = tools / "claude"  # on PATH is all the check asks; nothing runs it here
    claude.write_text("#!/bin/sh\nexit 0\n")
    claude.chmod(0o755)
    env = env_without(*AGENTS) | {"PATH": f"{tools}{os.pathsep}{path_without(*AGENTS)}"}
    with AnsweringServer() as server:  # a real HTTP server that answers 401 to everything: it is there
        out = crumb(root, "pitch", "--json", "60-second snake", "--role", "builder=claude:sonnet",
                    "--role", f"verifier=openai:vllm/m@{server.base_url}", env=env)
        asked = list(server.paths)
    assert out.returncode == 0, out.stderr
    assert asked == ["/v1/models"]
    text = (root / json_of(out.stdout)["file"]).read_text()
    assert "builder: claude:sonnet\n" in text and "fallback:" not in text


def test_a_server_that_never_answers_is_refused_within_the_probe_timeout_set_in_crumb_toml(root: Path) -> None:
    (root / "crumb.toml").write_text("[settings.harness]\nprobe_timeout_s = 0.5\n")
    with silent_server() as base:
        out = crumb(root, "pitch", "60-second snake", "--role", f"builder=openai:ollama/m@{base}", timeout=60)
    assert out.returncode == 2
    assert f"no model server answers at {base} (no answer within 0.5 s)" in error_line(out.stderr)
    assert list((root / "inbox").iterdir()) == []


def test_fallback_allowed_in_crumb_toml_lets_the_pitch_start_and_is_recorded(root: Path, monkeypatch: Any) -> None:
    (root / "crumb.toml").write_text('[settings.harness]\nfallback = "allow"\n')
    env = env_without(*AGENTS)
    out = crumb(root, "pitch", "--json", "60-second snake", "--role", "builder=codex", env=env)
    assert out.returncode == 0, out.stderr
    req = parse_pitch((root / json_of(out.stdout)["file"]).read_text())
    assert req.fallback is None  # the setting decides, in the daemon too
    monkeypatch.setenv("PATH", env["PATH"])
    data, _ = session_start_data(root, req)
    assert data["fallback"] == "allow" and data["settings"]["harness"]["fallback"] == "allow"
    assert data["unrunnable"] == {"builder": {"binding": "codex", "origin": "flag", "reason": "'codex' is not on PATH",
                                              "fix": "install it (npm install -g @openai/codex)"}}


def test_run_with_allow_fallback_runs_and_falls_back_to_local(root: Path) -> None:
    out = crumb(root, "run", "--json", "60-second snake", "--role", "builder=claude:sonnet", "--allow-fallback",
                env=env_without(*AGENTS), timeout=300)
    assert out.returncode != 2, out.stderr  # started: not refused (how a fallback run exits is the summary's job)
    sid = json_of(out.stdout)["session"]
    start = events(root, sid, "session.start")[0]["data"]
    assert start["fallback"] == "allow" and start["unrunnable"]["builder"]["reason"] == "'claude' is not on PATH"
    failed = [e["data"] for e in events(root, sid, "effect.failed")]
    assert [f["adapter"] for f in failed] == ["claude"] * 3 and "'claude' not found" in failed[0]["error"]
    swapped = events(root, sid, "adapter.swapped")[0]["data"]
    assert (swapped["actor"], swapped["before"], swapped["after"]) == ("builder", "claude", "local")
    assert events(root, sid, "build")[0]["meta"]["harness"] == "local"
    assert events(root, sid, "done")[0]["data"]["reason"] == "pass"


# ---------------------------------------------------------------- a pitch file in a running daemon


def test_a_pitch_file_bound_to_a_missing_cli_is_refused_into_rejected(root: Path, daemon: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PATH", path_without(*AGENTS))
    for var in AMBIENT:
        monkeypatch.delenv(var, raising=False)
    text = "---\nbuilder: claude:sonnet\n---\n60-second snake\n"
    drop(root / "inbox", "pitch.txt", text)
    why = root / "inbox" / "rejected" / why_name("pitch.txt")
    reason = wait_until(lambda: why.is_file() and why.read_text(), 60, "the pitch's refusal")
    assert reason.count("\n") == 1 and reason.startswith(
        "builder is bound to claude:sonnet (from the front matter), which cannot run here: 'claude' is not on PATH")
    assert "add 'fallback: allow' to the front matter" in reason
    assert (root / "inbox" / "rejected" / "pitch.txt").read_text() == text  # kept as it was
    assert not (root / "inbox" / "pitch.txt").exists() and paths.list_sessions(root) == []


def test_a_pitch_file_bound_to_an_unreachable_server_is_refused(root: Path, daemon: Any) -> None:
    with refusing_port() as port:
        base = f"http://127.0.0.1:{port}/v1"
        drop(root / "inbox", "idea.md", f"---\nall: openai:ollama/qwen@{base}\n---\n60-second snake\n")
        why = root / "inbox" / "rejected" / why_name("idea.md")
        reason = wait_until(lambda: why.is_file() and why.read_text(), 60, "the pitch's refusal")
    assert f"no model server answers at {base} (connection refused)" in reason
    assert reason.startswith("planner, builder, verifier and researcher are bound to openai:ollama/qwen@")
    assert paths.list_sessions(root) == []


def test_a_pitch_file_with_fallback_allow_starts_and_falls_back(root: Path, daemon: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PATH", path_without(*AGENTS))
    for var in AMBIENT:
        monkeypatch.delenv(var, raising=False)
    drop(root / "inbox", "pitch.txt", "---\nfallback: allow\nbuilder: codex\n---\n60-second snake\n")
    sid = wait_until(lambda: paths.list_sessions(root) and paths.list_sessions(root)[0], 60, "the session")
    final = wait_done(root, sid, timeout=240)
    start = events(root, sid, "session.start")[0]
    assert start["data"]["fallback"] == "allow" and list(start["data"]["unrunnable"]) == ["builder"]
    assert "fallback allowed" in start["body"]
    assert final.done["reason"] == "pass"
    assert [e["data"]["after"] for e in events(root, sid, "adapter.swapped")] == ["local"]
    assert not (root / "inbox" / "rejected").exists()


# ---------------------------------------------------------------- the Studio's pitch API


def test_the_studio_refuses_a_binding_that_cannot_run_and_allows_it_when_asked(tmp_path: Path, monkeypatch: Any) -> None:
    from crumb.studio.server import Studio
    from tests.studio.conftest import post_headers

    monkeypatch.setenv("PATH", path_without(*AGENTS))
    for var in AMBIENT:
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "inbox").mkdir()
    studio = Studio(tmp_path, port=0).start()
    try:
        with httpx.Client(base_url=studio.url.rstrip("/"), timeout=30) as client:
            body = {"pitch": "60-second snake", "bindings": {"builder": "gemini:gemini-2.5-pro"}}
            r = client.post("/api/pitch", json=body, headers=post_headers(studio))
            assert r.status_code == 400, r.text
            error = r.json()["error"]
            assert "\n" not in error and error.startswith(
                "builder is bound to gemini:gemini-2.5-pro (from the pitch form), which cannot run here: "
                "'gemini' is not on PATH; install it (npm install -g @google/gemini-cli)")
            assert "tick Allow fallback" in error
            assert list((tmp_path / "inbox").iterdir()) == []
            r = client.post("/api/pitch", json=body | {"allow_fallback": True}, headers=post_headers(studio))
            assert r.status_code == 201, r.text
    finally:
        studio.stop()
    text = (tmp_path / "inbox" / r.json()["file"]).read_text()
    assert "fallback: allow\n" in text and "builder: gemini:gemini-2.5-pro\n" in text


def json_of(stdout: str) -> dict[str, Any]:
    import json

    obj: dict[str, Any] = json.loads(stdout)
    return obj


def test_pitch_wait_and_wait_stop_at_once_when_the_daemon_refuses_the_pitch(
        root: Path, daemon: Any, monkeypatch: Any, tmp_path: Path) -> None:
    """The CLI sees a claude on its PATH, the daemon does not: the daemon refuses the pitch file, and the
    commands waiting on that session say so at once instead of waiting out their timeout."""
    monkeypatch.setenv("PATH", path_without(*AGENTS))
    for var in AMBIENT:
        monkeypatch.delenv(var, raising=False)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "claude").write_text("#!/bin/sh\nexit 0\n")
    (tools / "claude").chmod(0o755)
    env = env_without(*AGENTS) | {"PATH": f"{tools}{os.pathsep}{path_without(*AGENTS)}"}
    out = crumb(root, "pitch", "--wait", "--timeout", "600", "60-second snake", "--role", "builder=claude:sonnet",
                env=env, timeout=300)
    sid = out.stdout.strip().splitlines()[0]
    assert out.returncode == 1, out.stderr
    line = error_line(out.stderr)
    assert line.startswith(f"Error: the daemon refused the pitch of {sid}: builder is bound to claude:sonnet"), line
    assert "'claude' is not on PATH" in line and "inbox/rejected/" in line
    waited = crumb(root, "wait", sid, "--timeout", "600", env=env, timeout=300)
    assert waited.returncode == 1 and "the daemon refused the pitch" in waited.stderr, waited.stderr
