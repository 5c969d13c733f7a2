"""CRUMB driven from inside the real Claude Code and Gemini CLI through `crumb mcp`: the files `crumb integrate`
writes are what each CLI loads, and the vendor's fake model server plays a model that calls CRUMB's tools —
pitch, steer '/pause', steer plain text, steer '/resume', wait, verdict — then answers in text. The session
runs on the embedded studio (preset local) in a real daemon with real QA, and its transcript records each
steering message as a user event read from the session's inbox."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.agents.clis import BIN, FOREIGN, cli, point_at
from tests.agents.fake_anthropic import FakeAnthropic
from tests.agents.fake_base import Recorded
from tests.agents.fake_gemini import FakeGemini
from tests.daemon.conftest import events, state

pytestmark = pytest.mark.browser
PITCH = "a 60-second snake game"
SESSION_RE = re.compile(r'"session": "([0-9A-Z]{26})"')
#: what the model sends, in order; {session} is the id the pitch tool answered with
#: how often the model asks Claude Code to wait for CRUMB's server before it gives up (each wait is seconds)
WAITS = 20
PLAN: list[tuple[str, dict[str, Any]]] = [
    ("pitch", {"text": PITCH, "preset": "local"}),
    ("steer", {"session": "{session}", "text": "/pause"}),
    ("steer", {"session": "{session}", "text": "make it red"}),
    ("steer", {"session": "{session}", "text": "/resume"}),
    ("wait", {"session": "{session}", "timeout_s": 240}),
    ("verdict", {"session": "{session}"}),
]


class Driver:
    """The model's side of the conversation: the next CRUMB tool call from the tool results so far."""

    def __init__(self) -> None:
        self.results: list[str] = []  # the text of each CRUMB tool result, in order
        self.offered: list[str] = []  # the tool names the CLI offered the model (last request)

    def next_call(self, names: list[str], results: list[str]) -> tuple[str, dict[str, Any]] | str:
        """(tool name as the CLI offers it, arguments), or the final text once every step has answered."""
        self.offered, self.results = names, results
        if len(results) >= len(PLAN):
            return f"CRUMB finished: {results[-1][:2000]}"
        tool, args = PLAN[len(results)]
        found = SESSION_RE.search(results[0]) if results else None
        session = found.group(1) if found else "none"
        filled = {k: v.replace("{session}", session) if isinstance(v, str) else v for k, v in args.items()}
        offered = [n for n in names if n == tool or n.endswith(f"__{tool}") or n.endswith(f"_{tool}")]
        return (offered[0], filled) if offered else f"no CRUMB tool {tool!r} among {names}"


class ClaudeDriver(FakeAnthropic):
    driver = Driver()

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        from tests.agents.fake_base import SSE

        body = rec.body
        names = [str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict)]
        messages = body.get("messages") or []
        waits = json.dumps(messages).count('"name": "WaitForMcpServers"')
        ours = any(n.startswith("mcp__crumb__") for n in names)
        if not ours and ("WaitForMcpServers" not in names or waits >= WAITS):
            super().handle(h, rec)  # a side request (a title, a summary), or CRUMB's server never came: plain text
            return
        ids = {}
        results = []
        for m in messages:
            for b in m.get("content") if isinstance(m.get("content"), list) else []:
                if b.get("type") == "tool_use":
                    ids[b.get("id")] = b.get("name")
                elif b.get("type") == "tool_result" and str(ids.get(b.get("tool_use_id"), "")).startswith("mcp__crumb__"):
                    results.append(_text(b.get("content")))
        # Claude Code connects MCP servers in the background: a model that finds CRUMB's server still
        # starting asks the CLI to wait for it ("try again or proceed without", says the tool)
        step = self.driver.next_call(names, results) if ours else ("WaitForMcpServers", {})
        sse = SSE(h)
        sse.event({"type": "message_start", "message": {
            "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": self.model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}, "message_start")
        if isinstance(step, str):
            self._text(sse, step)
        else:
            self._tools(sse, [(step[0], "mcp", step[1])])


class GeminiDriver(FakeGemini):
    driver = Driver()

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        from tests.agents.fake_base import SSE

        names = [str(d.get("name")) for t in rec.body.get("tools") or [] if isinstance(t, dict)
                 for d in t.get("functionDeclarations") or [] if isinstance(d, dict)]
        if "streamGenerateContent" not in h.path or not any(n.endswith("pitch") for n in names):
            super().handle(h, rec)
            return
        crumb_tools = {n for n in names if any(n == t or n.endswith(f"_{t}") for t, _ in PLAN)}
        results = [_longest(p["functionResponse"].get("response")) for c in rec.body.get("contents") or []
                   for p in c.get("parts") or [] if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict)
                   and p["functionResponse"].get("name") in crumb_tools]
        step = self.driver.next_call(names, results)
        parts = [{"text": step}] if isinstance(step, str) else [{"functionCall": {"name": step[0], "args": step[1]}}]
        SSE(h).event(self._chunk(parts, self.model))


def _text(content: Any) -> str:
    """A tool result's text: a string, or its text blocks joined."""
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if isinstance(b, dict))


def _longest(value: Any) -> str:
    """The tool's text inside Gemini CLI's functionResponse (its shape differs by version): the longest string."""
    if isinstance(value, str):
        return value
    found = [_longest(v) for v in (value.values() if isinstance(value, dict) else value if isinstance(value, list) else [])]
    return max(found, key=len, default="")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    env.update({"HOME": str(home), "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "CLAUDE_CODE_MAX_RETRIES": "0"})
    return env


def _integrate(root: Path, host: str, env: dict[str, str]) -> str:
    run = subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), "integrate", host], capture_output=True,
                         text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _assert_steered_to_pass(root: Path, driver: Driver, answer: str) -> None:
    """The session the model pitched passed, and each steering message is a user event from its inbox."""
    assert len(driver.results) == len(PLAN), (driver.offered, driver.results, answer)
    sid = SESSION_RE.search(driver.results[0]).group(1)  # type: ignore[union-attr]
    final = state(root, sid)
    assert final.done is not None and final.done["reason"] == "pass", final.errors
    steered = [(e["kind"], e["data"]["source"]["name"]) for e in events(root, sid) if e["kind"].startswith("user.")]
    assert [k for k, _ in steered] == ["user.pause", "user.intervene", "user.resume"], steered
    assert all(name.startswith("mcp-") for _, name in steered), steered  # the MCP server's inbox files
    message = [e for e in events(root, sid, "user.intervene")][0]
    assert message["from"] == "user" and "make it red" in json.dumps(message["data"])
    goal = events(root, sid, "goal")[0]
    assert goal["data"]["pitch"] == PITCH and goal["data"]["source"]["name"].startswith("mcp-pitch")
    assert '"verdict": "PASS"' in driver.results[-1], driver.results[-1][:1000]  # what the verdict tool told the model
    assert '"verdict": "PASS"' in answer or "PASS" in answer  # the CLI's final answer carries the verdict


def test_claude_code_pitches_and_steers_a_session_through_crumb_mcp(root, daemon, tmp_path):
    cli("claude")
    home = tmp_path / "home"
    home.mkdir()
    env = _env(home)
    wrote = _integrate(root, "claude", env)
    assert ".mcp.json (mcpServers.crumb)" in wrote and "crumb-approve.md" in wrote
    with ClaudeDriver() as server:
        server.driver = Driver()
        point_at("claude", server.base_url, home, env)
        run = subprocess.run(
            [str(BIN / "claude"), "-p", "pitch a tapping game to CRUMB and steer it", "--output-format", "json",
             "--allowedTools", "mcp__crumb", "--no-session-persistence"],
            cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    result = json.loads(run.stdout)
    _assert_steered_to_pass(root, server.driver, result["result"])
    assert any(n.startswith("mcp__crumb__") for n in server.driver.offered)


def test_gemini_cli_pitches_and_steers_a_session_through_the_crumb_extension(root, daemon, tmp_path):
    cli("gemini")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    env = _env(home)
    wrote = _integrate(root, "gemini", env)
    assert "extensions/crumb/gemini-extension.json" in wrote
    with GeminiDriver() as server:
        server.driver = Driver()
        point_at("gemini", server.base_url, home, env)
        run = subprocess.run(
            [str(BIN / "gemini"), "-p", "pitch a tapping game to CRUMB and steer it", "--output-format", "json",
             "--approval-mode", "yolo", "--skip-trust", "-m", "gemini-2.5-pro"],
            cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    result = json.loads(run.stdout)
    _assert_steered_to_pass(root, server.driver, result["response"])



def test_codex_reads_the_server_entry_integrate_writes_and_loses_it_on_remove(tmp_path):
    """Codex's own `codex mcp get` reads the [mcp_servers.crumb] block (no model run: the session flow is the
    one Claude Code and Gemini CLI drive above)."""
    codex = cli("codex")
    root, home = tmp_path / "root", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    env = {**_env(home), "CODEX_HOME": str(home / ".codex")}
    _integrate(root, "codex", env)
    got = subprocess.run([str(codex), "mcp", "get", "crumb", "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    transport = json.loads(got.stdout)["transport"]
    assert [transport["command"], *transport["args"]] == [sys.executable, "-m", "crumb", "--root", str(root), "mcp"]
    removed = subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), "integrate", "codex", "--remove"],
                             env=env, capture_output=True, text=True, timeout=60)
    assert removed.returncode == 0, removed.stderr
    gone = subprocess.run([str(codex), "mcp", "get", "crumb", "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert gone.returncode != 0
