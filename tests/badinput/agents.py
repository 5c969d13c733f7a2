"""Drive the harness adapters with hostile agent output: the `command` harness with a tiny script,
the OpenAI-compatible harness against the fake chat server (tests/agents/fake_chat.py), and the
dispatcher's manifest measure."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.dispatcher.manifest import measure
from tests.agents.fake_chat import FakeChat
from tests.badinput.corpus import Case, assert_names, one_line
from tests.harness.conftest import Progress, make_request


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under folder (links as their target), to show nothing appeared or went missing."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        out[rel] = f"-> {os.readlink(p)}" if p.is_symlink() else (p.read_bytes() if p.is_file() else "dir")
    return out


def _prepare(tmp: Path, inp: dict[str, Any]) -> tuple[Path, Path]:
    """tmp/outside (must stay untouched) and tmp/work with the case's existing files and links."""
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not for agents\n")
    work = tmp / "work"
    work.mkdir()
    for rel, text in inp.get("existing", {}).items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    for rel, target in inp.get("links", {}).items():
        (work / rel).symlink_to(target.replace("{OUTSIDE}", str(outside)))
    return outside, work


def run_agent(tmp: Path, case: Case) -> None:
    inp = case.input
    outside, work = _prepare(tmp, inp)
    outside_before, work_before = tree(outside), tree(work)
    role = inp.get("role", "builder")
    if case.outcome == "manifest_note":
        manifest, notes = measure(work, relative_to=tmp)
        listed = [f.path for f in manifest.files]
        for rel in inp["links"]:
            assert rel not in listed and not any(p.startswith(rel + "/") for p in listed), f"{rel} is in the manifest"
        assert notes, "the left-out link has no note"
        for note in notes:
            one_line(note)
        assert_names(" | ".join(notes), case.expect)
        assert [f.path for f in manifest.files] == sorted(inp.get("existing", {})), "a real file was left out"
    elif case.outcome == "actor_error":
        if inp["harness"] == "command":
            script = tmp / "agent"
            script.write_text(f"#!{sys.executable}\n{inp['script']}")
            script.chmod(0o755)
            binding = Binding(harness="command", options={"command": str(script)}, origin="test")
            with pytest.raises(ActorError) as err:
                get_adapter("command").run(make_request(role, work, binding, wall_s=60, idle_s=30,
                                                        log_path=tmp / "run.log"),
                                           Progress(), threading.Event())
        else:
            with FakeChat() as server:
                server.control = inp.get("control", {})
                binding = Binding(harness="openai", provider="ollama", model=inp.get("model", "qwen2.5-coder:7b") or None,
                                  options={"base_url": server.base_url}, origin="test")
                with pytest.raises(ActorError) as err:
                    get_adapter("openai").run(make_request(role, work, binding, log_path=tmp / "run.log"),
                                              Progress(), threading.Event())
        assert_names(one_line(str(err.value)), case.expect)
        if inp.get("writes_nothing", True):
            assert tree(work) == work_before, "the refused answer still wrote into the work folder"
    else:
        raise AssertionError(f"unknown agent outcome {case.outcome!r}")
    assert tree(outside) == outside_before, "something outside the work folder changed"
