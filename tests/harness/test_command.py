"""The `command` harness: any executable speaking the JSON contract on stdin/stdout."""

from __future__ import annotations

import json
import sys
import threading

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.protocol.game import Spec

from .conftest import JSON_AGENT, make_request


def binding(mode: str = "ok") -> Binding:
    return Binding(harness="command", options={"command": [sys.executable, str(JSON_AGENT), mode]})


def run(role, tmp_path, progress, mode="ok"):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return get_adapter("command").run(make_request(role, work, binding(mode)), progress, threading.Event())


def test_planner(tmp_path, progress):
    result = run("planner", tmp_path, progress)
    assert Spec.model_validate(result.payload["spec"]).title == "Tap Dash"
    assert (result.usage.model, result.usage.tokens_in, result.usage.cost_usd) == ("my-model", 10, 0.01)
    assert result.usage.cost_estimated is False
    assert progress.updates[0].message == "thinking"


def test_builder_writes_files_and_the_request_carries_the_contract(tmp_path, progress):
    result = run("builder", tmp_path, progress)
    assert result.files == ["index.html"] and "index.html" in progress.files
    echo = run("builder", tmp_path, progress, mode="echo").payload["notes"]
    request = json.loads(echo[0])
    assert request["crumb"] == 1 and request["role"] == "builder" and request["input"]["round"] == 1
    assert echo[1:] == ["builder", "True", "True"]


def test_pretty_printed_result_is_accepted(tmp_path, progress):
    assert "spec" in run("planner", tmp_path, progress, mode="pretty").payload


@pytest.mark.parametrize(
    "mode, words",
    [("error", "the model refused"), ("exit3", "exit 3: fatal: no credits left"), ("nothing", "no result object")],
)
def test_failures(tmp_path, progress, mode, words):
    with pytest.raises(ActorError, match=words):
        run("planner", tmp_path, progress, mode=mode)


def test_a_command_string_from_a_flag_is_split_like_a_shell(tmp_path, progress):
    b = Binding(harness="command", options={"command": f"{sys.executable} {JSON_AGENT} ok"})
    (tmp_path / "w").mkdir()
    assert "spec" in get_adapter("command").run(make_request("planner", tmp_path / "w", b), progress, threading.Event()).payload


def test_no_command_names_the_fix(tmp_path, progress):
    (tmp_path / "w").mkdir()
    with pytest.raises(ActorError, match="no command given"):
        get_adapter("command").run(make_request("planner", tmp_path / "w", Binding(harness="command")), progress, threading.Event())


def test_a_relative_command_is_found_from_where_crumb_runs(tmp_path, progress, monkeypatch):
    tool = tmp_path / "tools" / "agent"
    tool.parent.mkdir()
    tool.write_text(f"#!{sys.executable}\nimport runpy\nrunpy.run_path({str(JSON_AGENT)!r}, run_name='__main__')\n")
    tool.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    b = Binding(harness="command", options={"command": "./tools/agent ok"})
    assert "spec" in get_adapter("command").run(make_request("planner", tmp_path / "w", b), progress, threading.Event()).payload
    missing = Binding(harness="command", options={"command": "./tools/nope"})
    with pytest.raises(ActorError, match="'./tools/nope' is not an executable"):
        get_adapter("command").run(make_request("planner", tmp_path / "w", missing), progress, threading.Event())
