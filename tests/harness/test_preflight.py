"""The pre-flight check itself (crumb/actors/harness/preflight.py): real executables on a real PATH,
real loopback sockets and servers; what `crumb pitch`, the Studio and the daemon ask before a start."""

from __future__ import annotations

import socket
import stat
import threading
import time
from pathlib import Path

import pytest

from crumb.actors.base import Binding
from crumb.actors.harness.bindings import parse_binding, resolve_bindings
from crumb.actors.harness.preflight import CLI_HINT, refusal, server_answers, unrunnable, why_not
from tests.loopback import AnsweringServer, refusing_port, silent_server


def executable(path: Path, mode: int = 0o755) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(mode)
    return path


def spec(text: str) -> Binding:
    return parse_binding(text, origin="flag")


def test_an_agent_cli_is_looked_up_on_the_path_given(tmp_path: Path) -> None:
    empty = {"PATH": str(tmp_path / "nothing")}
    reason, fix = why_not(spec("claude:sonnet"), tmp_path, empty) or ("", "")
    assert reason == "'claude' is not on PATH" and "npm install -g @anthropic-ai/claude-code" in fix
    executable(tmp_path / "bin" / "codex")
    assert why_not(spec("codex"), tmp_path, {"PATH": str(tmp_path / "bin")}) is None
    assert why_not(spec("gemini"), tmp_path, {"PATH": str(tmp_path / "bin")}) == (
        "'gemini' is not on PATH", "install it (npm install -g @google/gemini-cli)")


def test_a_relative_bin_or_command_is_read_from_the_project_root(tmp_path: Path) -> None:
    root, env = tmp_path / "project", {"PATH": str(tmp_path / "nothing")}
    claude = Binding(harness="claude", model="sonnet", options={"bin": "./tools/claude"}, origin="crumb.toml")
    assert why_not(claude, root, env) == (f"{root}/tools/claude does not exist",
                                          "fix the path (a relative one is read from the project root)")
    executable(root / "tools" / "claude")
    assert why_not(claude, root, env) is None
    tool = spec("command:./tools/agent --fast 'two words'")
    assert why_not(tool, root, env) is not None
    executable(root / "tools" / "agent", mode=stat.S_IRUSR | stat.S_IWUSR)
    assert why_not(tool, root, env) == (f"{root}/tools/agent is not executable", f"chmod +x {root}/tools/agent")
    (root / "tools" / "agent").chmod(0o755)
    assert why_not(tool, root, env) is None
    (root / "tools" / "dir").mkdir()
    assert why_not(spec("command:./tools/dir"), root, env) is not None  # a folder is not a program
    assert why_not(spec("command:sh -c true"), root, {"PATH": "/bin:/usr/bin"}) is None  # a bare name: PATH
    assert why_not(spec("command:./tools/agent 'unclosed"), root, env) == (
        "\"command:./tools/agent 'unclosed\" is not a command line (No closing quotation)", "close the quote or escape it")


def test_a_model_server_must_answer(tmp_path: Path) -> None:
    with refusing_port() as port:
        reason, fix = why_not(spec(f"openai:ollama/m@http://127.0.0.1:{port}/v1"), tmp_path) or ("", "")
    assert reason == f"no model server answers at http://127.0.0.1:{port}/v1 (connection refused)"
    assert "ollama serve" in fix
    with AnsweringServer() as server:  # 401 to everything: still a server that answers
        assert why_not(spec(f"openai:vllm/m@{server.base_url}"), tmp_path) is None
        assert server.paths == ["/v1/models"]
    assert why_not(spec("openai:nosuch/m"), tmp_path) == (
        "provider 'nosuch' has no known base URL", "add @http://host:port/v1 to the binding or set options.base_url")


def test_a_server_that_never_answers_is_given_up_on_after_the_timeout() -> None:
    with silent_server() as base:
        started = time.monotonic()
        problem = server_answers(base, timeout=0.3)
        took = time.monotonic() - started
    assert problem == "no answer within 0.3 s"
    assert took < 5  # the probe's own deadline, not a hang (generous: a loaded machine)


def test_the_probe_reads_the_answer_so_the_server_sees_a_clean_close() -> None:
    """Closing a connection with bytes of the answer still unread resets it, and the server logs "connection
    reset by peer" for every pre-flight (CI once saw http.server's traceback: the body of a short answer had
    arrived just after its headers were read). Here the answer is longer than what reading the headers takes
    in, so the bytes are always there: the probe must read them before it closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[str] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)  # the request
            body = b"[" + b" " * 59_998 + b"]"
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                         % (len(body), body))
            try:  # kept alive: the next request, or the close
                seen.append("closed" if conn.recv(65536) == b"" else "more")
            except ConnectionResetError:
                seen.append("reset")

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        assert server_answers(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", timeout=10) is None
        server.join(30)
    finally:
        listener.close()
    assert seen == ["closed"]


def test_local_always_runs_and_only_the_binding_in_force_is_checked(tmp_path: Path) -> None:
    assert why_not(Binding(harness="local"), tmp_path, {"PATH": ""}) is None
    chains = resolve_bindings(tmp_path, flags={"builder": "codex", "verifier": "local"}, env={})
    found = unrunnable(chains, tmp_path, {"PATH": str(tmp_path)})
    assert list(found) == ["builder"]  # the builder's chain ends in local, but codex is what was asked for
    assert (found["builder"].binding, found["builder"].origin) == ("codex", "flag")


def test_the_refusal_is_one_line_naming_roles_harness_and_fix(tmp_path: Path) -> None:
    chains = resolve_bindings(tmp_path, preset="cross", env={})
    found = unrunnable(chains, tmp_path, {"PATH": str(tmp_path)})
    line = refusal(found, CLI_HINT)
    assert "\n" not in line
    assert line.startswith("planner, builder and researcher are bound to claude:sonnet (from preset:cross), "
                           "which cannot run here: 'claude' is not on PATH; install it (npm install -g "
                           "@anthropic-ai/claude-code), or bind them to another harness; verifier is bound to codex")
    assert line.endswith("; or pass --allow-fallback to start anyway and let the role fall back along its chain "
                         "(in the end to local)")


@pytest.mark.parametrize("text", ["openai:ollama/m@http://127.0.0.1:1/v1", "openai:ollama/m@ftp://x/v1"])
def test_an_unusable_base_url_is_a_reason_not_a_crash(tmp_path: Path, text: str) -> None:
    problem = why_not(spec(text), tmp_path)
    assert problem is not None and problem[0].startswith("no model server answers at ")


def test_the_pitchs_own_fallback_choice_wins_over_the_setting() -> None:
    from crumb.daemon.session_start import fallback_allowed
    from crumb.settings import Settings

    allow, refuse = Settings().merged({"harness": {"fallback": "allow"}}), Settings()
    assert refuse.harness.fallback == "refuse"  # the default: no silent fallback
    assert [fallback_allowed(c, allow) for c in (None, "allow", "refuse")] == [True, True, False]
    assert [fallback_allowed(c, refuse) for c in (None, "allow", "refuse")] == [False, True, False]
