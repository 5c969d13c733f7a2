"""The CLI starts light: `crumb --help` imports no command module, and `ls`, `status`, `steer` import
none of the heavy parts (browser, Studio server, embedded studio, harnesses). Asserted on the modules a
fresh process ends up with, never on time: bench/cli.py measures the time.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import crumb.cli
from crumb.daemon.lock import DaemonLock
from tests.core.test_cli_core import finished_session

ROOT = Path(__file__).resolve().parents[2]

#: what no start of ls, status or steer may import (nor --help)
HEAVY = ("playwright", "starlette", "uvicorn", "httpx", "lingua", "crumb.studio", "crumb.qa", "crumb.actors",
         "crumb.dispatcher", "crumb.daemon.daemon", "crumb.daemon.watcher", "mcp", "mcp_types", "crumb.mcp",
         "opentelemetry", "google.protobuf", "crumb.export.otel", "crumb.daemon.otel_stream")
#: what --help does not need either: it lists the commands from crumb.cli.TABLE
NOT_FOR_HELP = (*HEAVY, "pydantic", "msgspec", "ulid", "crumb.cli.", "crumb.genres", "crumb.protocol", "crumb.reducer")
#: `ls` and `status` replay transcripts: the reducer reads the kinds' names (crumb.protocol.names), no event model;
#: settings and the pitch reading are msgspec structs, so no pydantic at all; ulid only where a file is written
NOT_FOR_READING = (*HEAVY, "pydantic", "pydantic_core", "ulid", "crumb.protocol.events", "crumb.protocol.game",
                   "crumb.daemon.drop")
#: `steer` writes one file: no model, no transcript
NOT_FOR_STEER = (*HEAVY, "pydantic", "msgspec", "crumb.protocol", "crumb.reducer", "crumb.genres.model")

PROBE = """
import json, sys
from crumb.cli import main
out, args = sys.argv[1], sys.argv[2:]
code = 0
try:
    main(args, prog_name="crumb")
except SystemExit as exit:
    code = exit.code
with open(out, "w") as f:
    json.dump({"exit": code, "modules": sorted(sys.modules)}, f)
"""


def start(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """Run `crumb ARGS` in a fresh process: its exit code and every module it imported."""
    out = tmp_path / "modules.json"
    run = subprocess.run([sys.executable, "-c", PROBE, str(out), *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.exists(), run.stderr
    found = json.loads(out.read_text())
    return found["exit"], found["modules"]


def loaded(modules: list[str], banned: tuple[str, ...]) -> list[str]:
    """The modules that are one of `banned` or inside one (a name ending in '.' bans only what is inside)."""
    return [m for m in modules
            if any(m == b or m.startswith(b if b.endswith(".") else b + ".") for b in banned)]


def test_the_table_is_what_the_command_modules_define() -> None:
    """crumb.cli.TABLE lets `crumb --help` list commands without importing them; this keeps it honest."""
    defined: dict[str, tuple[str, str]] = {}
    for info in pkgutil.iter_modules(crumb.cli.__path__):
        module = importlib.import_module(f"crumb.cli.{info.name}")
        for command in getattr(module, "COMMANDS", ()):
            assert isinstance(command, click.Command) and command.name is not None
            assert command.name not in defined, f"{command.name} is defined twice"
            defined[command.name] = (info.name, command.get_short_help_str(limit=10**6))
    assert crumb.cli.TABLE == defined
    # click ends a short help at the first word ending in '.', so an "e.g." inside the first sentence cuts it
    cut = {name: text for name, (_, text) in defined.items() if not text.endswith((".", ")", "`")) or text.endswith("e.g.")}
    assert cut == {}, "one-line helps cut short: reword the docstring's first sentence"


def test_help_lists_every_command_and_imports_none(tmp_path: Path) -> None:
    exit_code, modules = start(tmp_path, "--help")
    assert exit_code == 0
    assert loaded(modules, NOT_FOR_HELP) == []
    listed = subprocess.run([sys.executable, "-m", "crumb", "--help"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120).stdout
    commands = listed.partition("Commands:")[2].split("\n")
    assert sorted(line.split()[0] for line in commands if line.strip()) == sorted(crumb.cli.TABLE)


@pytest.mark.parametrize("args, banned", [
    (["ls"], NOT_FOR_READING),
    (["status", "W9YB"], NOT_FOR_READING),
    (["steer", "W9YB", "faster please"], NOT_FOR_STEER),
])
def test_session_commands_start_without_the_heavy_parts(tmp_path: Path, args: list[str], banned: tuple[str, ...]) -> None:
    root = tmp_path / "root"
    finished_session(root)
    exit_code, modules = start(tmp_path, "--root", str(root), *args)
    assert exit_code == 0
    assert f"crumb.cli.{'steer' if args[0] == 'steer' else 'sessions'}" in modules  # the command did run
    assert loaded(modules, banned) == []


def test_run_loads_nothing_heavy_before_it_starts_the_browser(tmp_path: Path) -> None:
    """`crumb run` starts QA's browser first, so that it boots while the rest loads and the pitch is
    planned and built: the command itself (`run --help` loads it and stops) imports neither the browser
    nor the pitch's models, which would otherwise load before the browser could start."""
    exit_code, modules = start(tmp_path, "run", "--help")
    assert exit_code == 0 and "crumb.cli.watch" in modules
    light = tuple(m for m in HEAVY if m != "crumb.actors")  # crumb.actors.harness.local_only is a file check
    assert loaded(modules, (*light, "crumb.actors.embedded", "pydantic", "ulid", "crumb.genres.model",
                            "crumb.protocol.events", "crumb.daemon.pitch_file", "crumb.daemon.rejected")) == []


def test_verify_starts_without_the_reducer_or_any_model(tmp_path: Path) -> None:
    """`crumb verify` reads bytes and hashes them: no reducer, no pydantic, no ulid (and none of the heavy parts)."""
    root = tmp_path / "root"
    finished_session(root)
    exit_code, modules = start(tmp_path, "--root", str(root), "verify", "W9YB")
    assert exit_code == 1  # the simulated build's files were never written: verify names them missing
    assert "crumb.cli.verify" in modules and "crumb.store.chain" in modules
    assert loaded(modules, (*NOT_FOR_READING, "crumb.reducer", "crumb.cli.sessions")) == []


AT_DRIVER = """
import json, os, sys
import crumb.qa.boot
from crumb.cli import main
out, args = sys.argv[1], sys.argv[2:]

def start_driver():
    with open(out, "w") as f:
        json.dump(sorted(sys.modules), f)
    os._exit(0)  # the moment the driver is asked for is all this wants to know: nothing is started

crumb.qa.boot.start_driver = start_driver
main(args, prog_name="crumb")
"""


@pytest.mark.browser
def test_run_starts_playwrights_driver_before_it_loads_the_rest_of_qa(tmp_path: Path) -> None:
    """The driver takes ~0.3 s to start and needs none of QA's Python: a cold `crumb run` asks for it
    before it imports the runner, the protocol's models, Pillow or the embedded studio, so the two overlap."""
    out = tmp_path / "modules.json"
    run = subprocess.run([sys.executable, "-c", AT_DRIVER, str(out), "--root", str(tmp_path / "root"), "run",
                          "a snake game"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.exists(), run.stderr
    modules = json.loads(out.read_text())
    assert "crumb.cli.watch" in modules
    assert loaded(modules, ("crumb.qa.runner", "crumb.qa.play", "crumb.protocol.game", "PIL", "pydantic",
                            "crumb.actors.embedded", "crumb.daemon.daemon", "lingua")) == []


def test_run_handed_to_a_running_daemon_leaves_the_genres_to_it(tmp_path: Path) -> None:
    """With a daemon watching, `crumb run` drops the pitch and follows it: the daemon plans with the
    genres it loaded (and named any broken folder of) when it started, so the client does not load
    them again before the pitch is dropped (~0.1 s of a warm run)."""
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    lock = DaemonLock(root)  # a daemon, as far as `crumb run` can tell: nothing runs the pitch here
    lock.acquire()
    try:
        exit_code, modules = start(tmp_path, "--root", str(root), "run", "a snake game", "--timeout", "0")
    finally:
        lock.release()
    assert exit_code == 2  # dropped, then not done within the timeout: nobody ran it
    assert [p.name for p in (root / "inbox").iterdir()] != []
    assert "crumb.cli.watch" in modules and "crumb.daemon.pitch_file" in modules
    assert loaded(modules, ("crumb.genres.model", "crumb.qa", "playwright")) == []
