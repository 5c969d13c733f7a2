"""Every tool and resource of `crumb mcp` through the official SDK's client: over stdio against the real
`crumb mcp` process (what an agent CLI starts), and in-process against the same server object for the
flows. A session runs on the embedded studio in a real daemon with real QA; refusals are one line and
write nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from crumb.daemon.lock import daemon_status
from crumb.mcp.server import build
from crumb.store import paths
from crumb.store.writer import TranscriptWriter
from tests.core.sim import Sim
from tests.core.test_cli_core import finished_session
from tests.daemon.conftest import events
from tests.wait import wait_until

TOOLS = {"pitch", "steer", "wait", "status", "verdict", "spec", "events", "sessions", "qa"}
GAME = Path(__file__).resolve().parents[1] / "agents" / "game.html"


def session(root: Path, fn: Callable[[Client], Awaitable[Any]]) -> Any:
    """Run `fn` with an SDK client connected in-process to the server for `root`."""
    async def main() -> Any:
        async with Client(build(root)) as client:
            return await fn(client)

    return anyio.run(main)


def call(root: Path, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    """(is_error, the text the model reads) of one tool call."""
    async def one(client: Client) -> tuple[bool, str]:
        result = await client.call_tool(tool, args)
        return bool(result.is_error), "".join(getattr(c, "text", "") for c in result.content)

    return session(root, one)


def ok(root: Path, tool: str, args: dict[str, Any]) -> Any:
    error, text = call(root, tool, args)
    assert not error, text
    return json.loads(text) if text[:1] in "[{" else text


def refused(root: Path, tool: str, args: dict[str, Any]) -> str:
    error, text = call(root, tool, args)
    assert error, text
    assert "\n" not in text and text.startswith(f"Error executing tool {tool}: "), text
    return text


def refused_resource(root: Path, uri: str) -> str:
    """The error a resource read answers with (one line)."""
    async def read(client: Client) -> str:
        try:
            await client.read_resource(uri)
        except Exception as err:  # the SDK raises the server's error for the read
            return str(err)
        raise AssertionError(f"{uri} was read")

    text = session(root, read)
    assert "\n" not in text, text
    return text


def inbox_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and "inbox" in p.parts)


def test_crumb_mcp_lists_every_tool_and_resource_over_stdio(root):
    params = StdioServerParameters(command=sys.executable, args=["-m", "crumb", "--root", str(root), "mcp"],
                                   env={**os.environ})

    async def main() -> tuple[set[str], set[str], str]:
        async with Client(params) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
            listed = await client.call_tool("sessions", {})
            assert all(t.description for t in tools.values())
            assert "/pause" in (tools["steer"].description or "") and "/approve" in (tools["steer"].description or "")
            return set(tools), templates, "".join(getattr(c, "text", "") for c in listed.content)

    tools, templates, listed = anyio.run(main)
    assert tools == TOOLS
    assert templates == {f"crumb://sessions/{{session}}/{r}" for r in ("spec", "transcript", "game")}
    assert json.loads(listed) == []


@pytest.mark.browser
def test_pitch_steer_wait_and_every_read_through_the_client(root, daemon):
    pitched = ok(root, "pitch", {"text": "a 60-second snake game", "preset": "local", "seed": 3})
    sid = pitched["session"]
    assert pitched["daemon_started"] is False and pitched["phase"] != "pitched"  # the daemon took it before the answer
    assert pitched["file"].startswith("inbox/")
    steered = ok(root, "steer", {"session": sid[-6:], "text": "@builder make it red"})
    assert steered["session"] == sid and steered["file"].startswith(f"sessions/{sid}/inbox/mcp-")
    done = ok(root, "wait", {"session": sid, "timeout_s": 240})
    assert done["timed_out"] is False and done["done"] == "pass" and done["exit"] == 0, done
    assert done["game"] == str(paths.game_dir(root, sid) / "index.html")
    message = events(root, sid, "user.intervene")
    assert message and message[0]["data"]["source"]["name"].startswith("mcp-")  # read from the inbox as a person's
    assert ok(root, "verdict", {"session": sid})["verdict"] == "PASS"
    status = ok(root, "status", {"session": sid})
    assert status["phase"] == "done" and status["pitch"] == "a 60-second snake game"
    assert "snake" in ok(root, "spec", {"session": sid}).lower()
    tail = ok(root, "events", {"session": sid, "last": 3})
    assert [e["seq"] for e in tail] == [e["seq"] for e in events(root, sid)][-3:] and tail[-1]["kind"] == "done"
    assert [s["session"] for s in ok(root, "sessions", {})] == [sid]
    qa = ok(root, "qa", {"path": f"sessions/{sid}/artifacts/game"})
    assert qa["ok"] is True

    async def resources(client: Client) -> list[str]:
        out = []
        for part in ("spec", "transcript", "game"):
            read = await client.read_resource(f"crumb://sessions/{sid}/{part}")
            out.append("".join(getattr(c, "text", "") for c in read.contents))
        return out

    spec, transcript, game = session(root, resources)
    assert spec == paths.spec_md_path(root, sid).read_text()
    assert json.loads(transcript.splitlines()[-1])["kind"] == "done"
    assert game == done["game"]


def test_refusals_are_one_line_and_write_nothing(root):
    sid = finished_session(root)
    before = inbox_files(root)
    assert "which an MCP client may not choose" in refused(root, "pitch", {"text": "snake",
                                                                           "bindings": {"builder": "command:./evil"}})
    assert "no preset 'nope'" in refused(root, "pitch", {"text": "snake", "preset": "nope"})
    assert "the pitch is empty" in refused(root, "pitch", {"text": "  "})
    assert "unknown" in refused(root, "steer", {"session": sid[-4:], "text": "/frobnicate now"}).lower()
    assert "no session 'NOPE'" in refused(root, "steer", {"session": "nope", "text": "/pause"})
    assert "outside" in refused(root, "qa", {"path": "/etc"})
    waited = ok(root, "wait", {"session": sid, "timeout_s": 300})  # settled already: answers at once
    assert waited["done"] == "pass" and waited["timed_out"] is False and "note" not in waited
    assert "no game yet" in refused_resource(root, f"crumb://sessions/{sid}/game")
    assert inbox_files(root) == before
    assert daemon_status(root)["running"] is False  # nothing was accepted, so nothing was started


@pytest.mark.browser
def test_a_pitch_with_no_daemon_watching_starts_one(root):
    pitched = ok(root, "pitch", {"text": "a 60-second snake game", "preset": "local"})
    status = daemon_status(root)
    try:
        assert pitched["daemon_started"] is True and status["running"] is True
        assert paths.transcript_path(root, pitched["session"]).is_file()  # it took the pitch before the answer
        assert (root / ".crumb" / "daemon.log").is_file()
    finally:
        if status["pid"]:
            os.kill(status["pid"], signal.SIGTERM)  # the daemon this test's pitch started
            wait_until(lambda: not daemon_status(root)["running"], 60, "the daemon to stop")


def test_qa_runs_on_a_game_inside_the_root_only(root, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(GAME, outside / "index.html")
    assert "is outside" in refused(root, "qa", {"path": str(outside)})
    assert "does not exist" in refused(root, "qa", {"path": "games/none"})


def test_wait_with_no_daemon_watching_says_so_instead_of_waiting_for_nothing(root):
    sid = "01JDZ0RQ3V8KX6T2M4N5P7W9YC"
    Sim(writer=TranscriptWriter(paths.transcript_path(root, sid), sid, fsync="never")).to_spec()  # the Builder runs
    waited = ok(root, "wait", {"session": sid, "timeout_s": 300})
    assert waited["timed_out"] is True and waited["done"] is None and waited["daemon_running"] is False
    assert waited["note"].startswith(f"no crumb daemon is watching {root}") and "`crumb watch`" in waited["note"]
