"""Process control: wall and idle limits, cancel, floods, and no process of a run outliving it."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

import pytest

from crumb import procfs
from crumb.actors.base import ActorError, Binding, Limits
from crumb.actors.harness import run_process
from crumb.actors.harness.process import ArgvTooLarge, group_alive
from tests.agents.conftest import codex, gemini, throwaway_home, vendor_for  # noqa: F401  (fixtures)
from tests.agents.test_roles import run as run_role
from tests.wait import wait_until

PY = sys.executable
# a parent that starts a grandchild in its own group, prints the grandchild's pid, then waits forever
TREE = (
    "import subprocess, sys, time\n"
    "c = subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)'])\n"
    "print(c.pid, flush=True)\n"
    "while True: time.sleep(1)\n"
)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pid: int, deadline_s: float = 5.0) -> bool:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def run(argv, tmp_path, *, wall=30.0, idle=30.0, cancel=None, stdin=None, on_line=None, **kw):
    return run_process(
        argv, cwd=tmp_path, stdin_text=stdin, env=None, limits=Limits(wall_s=wall, idle_s=idle),
        log_path=tmp_path / "run.log", cancel=cancel or threading.Event(), on_line=on_line, **kw,
    )


def test_ok_run_streams_lines_to_log_and_callback(tmp_path):
    lines: list[str] = []
    res = run([PY, "-c", "import sys; print('a'); print('b', file=sys.stderr); print(input())"], tmp_path,
              stdin="from stdin\n", on_line=lines.append)
    assert res.ok and res.returncode == 0
    assert lines == ["a", "from stdin"]
    log = (tmp_path / "run.log").read_text()
    assert "a\n" in log and "[stderr] b" in log and "# exit 0" in log


def run_tree(code: str, tmp_path, *, wall: float, idle: float) -> tuple[Any, list[str], float]:
    """Run a script that starts a child and prints its pid, under short limits. A limit that ran out
    before the script even started its child (a host that had just dropped its page cache once took
    over 8 s to start Python) says nothing about the limit: that run is done again with 8 times the room.
    Returns the result, the lines printed and the scale the limits had."""
    for scale in (1, 8):
        pids: list[str] = []
        res = run([PY, "-c", code], tmp_path, wall=wall * scale, idle=idle * scale, on_line=pids.append)
        if pids:
            break
    return res, pids, scale


def test_wall_limit_kills_the_whole_group(tmp_path):
    # it keeps printing, so only the wall limit can stop it
    code = TREE.rsplit("while True", 1)[0] + "while True:\n    print('.', flush=True); time.sleep(0.05)\n"
    res, pids, _ = run_tree(code, tmp_path, wall=2.5, idle=30)
    assert res.stopped == "wall" and pids, "the script did not get to start its child"
    grandchild = int(pids[0])
    assert wait_gone(grandchild), "a grandchild survived the wall timeout"
    assert not group_alive(res.pid)


def test_idle_limit_kills_the_whole_group(tmp_path):
    res, pids, scale = run_tree(TREE, tmp_path, wall=60, idle=2.0)
    assert res.stopped == "idle" and pids, "the script did not get to start its child"
    assert 2000 * scale <= res.duration_ms < 2000 * scale + 28_000
    assert wait_gone(int(pids[0]))


def test_cancel_stops_the_run_promptly(tmp_path):
    cancel = threading.Event()
    pids: list[str] = []

    def on_line(line: str) -> None:
        pids.append(line)
        cancel.set()  # cancel as soon as the run is visibly under way

    res = run([PY, "-c", TREE], tmp_path, cancel=cancel, on_line=on_line)
    assert res.stopped == "cancel"
    assert wait_gone(int(pids[0]))


def test_flood_is_cut_off(tmp_path):
    res = run([PY, "-c", "import sys\nwhile True: sys.stdout.write('x'*1000+'\\n')"], tmp_path, max_output_bytes=200_000)
    assert res.stopped == "flood"
    assert len(res.stdout) <= 200_000


def test_background_child_holding_the_pipes_does_not_block(tmp_path):
    code = "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\nprint('done')"
    res = run([PY, "-c", code], tmp_path, idle=30)
    assert res.returncode == 0 and res.stopped is None and res.stdout == "done\n"
    assert res.duration_ms < 10_000


def test_huge_argv_is_refused(tmp_path):
    with pytest.raises(ArgvTooLarge, match="stdin"):
        run([PY, "-c", "pass", "x" * 110_000], tmp_path)


def test_huge_prompt_goes_through_stdin(tmp_path):
    text = "y" * 500_000
    res = run([PY, "-c", "import sys; print(len(sys.stdin.read()))"], tmp_path, stdin=text)
    assert res.stdout.strip() == "500000"


def test_a_child_in_a_session_of_its_own_goes_too(tmp_path):
    """CLIs start their tools with setsid (Gemini CLI's shell tool does): such a child is in no group of
    the agent's, and must not outlive the run. The agent here ignores SIGTERM, as a busy one may."""
    code = ("import signal, subprocess, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "c = subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)'], start_new_session=True)\n"
            "print(c.pid, flush=True)\nwhile True: time.sleep(1)\n")
    out: list[Any] = []
    runner = threading.Thread(target=lambda: out.append(run_tree(code, tmp_path, wall=60, idle=2.0)), daemon=True)
    runner.start()
    runner.join(timeout=120)  # a surviving child holds the pipes: the run used to never return
    assert out, "the run did not return: the child kept its pipes open"
    res, pids, _ = out[0]
    assert res.stopped == "idle" and pids, "the script did not get to start its child"
    assert wait_gone(int(pids[0])), "a child in its own session survived the run"


class Sampler:
    """Notes every process of a CLI (by its throwaway HOME) while a run goes on."""

    def __init__(self, vendor) -> None:
        self.vendor, self.seen, self.done = vendor, {}, threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(0.1):
            self.seen.update(self.vendor.processes())

    def stop(self) -> dict[int, str]:
        self.done.set()
        self.thread.join()
        return self.seen


#: per CLI, the binding that lets the planner run a shell command (headless runs cannot ask)
SHELL_ALLOWED = {"claude": {"allowed_tools": ["Bash"]}, "gemini": {"approval_mode": "yolo"}}


@pytest.mark.parametrize("harness, stop", [("gemini", "idle"), ("claude", "wall")])
def test_adapter_timeout_kills_agent_and_its_children(throwaway_home, monkeypatch, tmp_path, harness, stop):  # noqa: F811
    """The model has the CLI run a command that never ends: at the limit the CLI and that command go."""
    for vendor in vendor_for(harness, throwaway_home, monkeypatch):
        vendor.script.command = "exec sleep 600"
        # the limits leave room for a slow start (gemini is silent for seconds while Node starts)
        limits = {"idle_s": 20, "wall_s": 120} if stop == "idle" else {"idle_s": 120, "wall_s": 25}
        sampler = Sampler(vendor)
        try:
            with pytest.raises(ActorError, match="wall limit" if stop == "wall" else "idle limit"):
                run_role(vendor, "planner", tmp_path, binding=Binding(harness=harness, options=SHELL_ALLOWED[harness]), **limits)
        finally:
            seen = sampler.stop()
        assert vendor.server.role_requests("planner"), "the CLI never asked the model"
        assert any(cmd.startswith("sleep 600") for cmd in seen.values()), f"the CLI did not start the command: {seen}"
        assert wait_until(lambda vendor=vendor: not vendor.processes(), 10, "the CLI and its command to be gone")


def test_adapter_cancel_returns_soon(codex, tmp_path):  # noqa: F811
    codex.script.always = "hang"  # the model server takes the request and never answers
    cancel = threading.Event()
    cancelled_at: list[float] = []

    def cancel_once_asked() -> None:
        wait_until(lambda: codex.server.role_requests("planner"), 120, "codex to ask the model")
        cancelled_at.append(time.monotonic())
        cancel.set()

    threading.Thread(target=cancel_once_asked, daemon=True).start()
    with pytest.raises(ActorError, match="cancelled"):
        run_role(codex, "planner", tmp_path, cancel=cancel)
    assert time.monotonic() - cancelled_at[0] < 5
    assert wait_until(lambda: not codex.processes(), 10, "codex to be gone")


def test_adapter_flood_is_a_clear_error(gemini, tmp_path, monkeypatch):  # noqa: F811
    """The model streams text without end; gemini prints each piece: CRUMB stops it at the output cap."""
    import crumb.actors.harness.process as process

    monkeypatch.setattr(process, "MAX_OUTPUT_BYTES", 300_000)  # ~300 chunks: gemini's own work per chunk is slow under load
    gemini.script.always = "flood"
    with pytest.raises(ActorError, match="flooded its output"):
        run_role(gemini, "planner", tmp_path)
    assert wait_until(lambda: not gemini.processes(), 10, "gemini to be gone")


def test_flood_without_newlines_is_cut_off(tmp_path):
    res = run([PY, "-c", "import sys\nwhile True: sys.stdout.write('x'*100000)"], tmp_path, max_output_bytes=3_000_000)
    assert res.stopped == "flood" and len(res.stdout) <= 3_000_000


def test_a_long_json_line_arrives_whole(tmp_path):
    lines: list[str] = []
    code = "import json; print(json.dumps({'content': 'z' * 3_000_000}))"
    res = run([PY, "-c", code], tmp_path, on_line=lines.append)
    assert res.ok and len(lines) == 1 and len(lines[0]) == len('{"content": ""}') + 3_000_000


def _children_of_this_process() -> list[str]:
    """Command lines of this process's live children (the run's reaper would be one)."""
    return [procfs.cmdline(p.pid).replace(b"\0", b" ").decode(errors="replace")
            for p in procfs.processes() if p.ppid == os.getpid() and p.alive]


def test_a_run_leaves_no_reaper_behind(tmp_path):
    """Each run has a reaper that kills the agent's group should CRUMB die; a run that ends normally
    takes its reaper with it (one left per run would pile up in a daemon that runs for days)."""
    flag = tmp_path / "go"
    agent = f"import os, time\nwhile not os.path.exists({str(flag)!r}): time.sleep(0.02)"
    done: list = []
    runner = threading.Thread(target=lambda: done.append(run([PY, "-c", agent], tmp_path, wall=120)))
    runner.start()
    try:  # the reaper is a forked python that may take a moment to show its command line on a busy machine
        wait_until(lambda: any("killpg" in cmd for cmd in _children_of_this_process()), 60, "a reaper beside the agent")
    finally:
        flag.touch()
        runner.join(120)
    assert done and done[0].ok
    assert not any("killpg" in cmd for cmd in _children_of_this_process())
