"""The harness registry: built-ins come in through the `crumb.harnesses` entry points like any plugin, and a
bad plugin (an import error, not a harness, a name taken) is a one-line warning naming its package and the
fix, never a crash of `crumb`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.actors.harness import registry
from crumb.actors.harness.bindings import parse_binding

ROOT = Path(__file__).resolve().parents[2]


def fake_dist(site: Path, package: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
    """An installed distribution as pip leaves one: NAME.dist-info with METADATA and entry_points.txt."""
    info = site / f"{package.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[crumb.harnesses]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
    for name, text in modules.items():
        (site / f"{name}.py").write_text(text)


@pytest.fixture
def bad_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    fake_dist(site, "crumb-broken", {"broken": "broken_plugin:Broken"}, {"broken_plugin": "import no_such_module_here\n"})
    fake_dist(site, "crumb-norun", {"norun": "norun_plugin:NoRun", "Bad:Name": "norun_plugin:NoRun"},
              {"norun_plugin": "from crumb.actors.harness.plugin import Harness\nclass NoRun(Harness):\n    name = 'norun'\n"})
    fake_dist(site, "crumb-dup", {"claude": "dup_plugin:Claude"},
              {"dup_plugin": "from crumb.actors.harness.plugin import Harness\nclass Claude(Harness):\n    name = 'claude'\n"})
    fake_dist(site, "crumb-good", {"echo": "good_plugin:Echo"},
              {"good_plugin": "from crumb.actors.harness.plugin import Harness\n"
                              "class Echo(Harness):\n    name = 'echo'\n    provider = 'local'\n    def run(self, r, p, c):\n        raise NotImplementedError\n"})
    return site


@pytest.fixture
def with_site(bad_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(bad_site))
    registry.reload()
    yield bad_site
    monkeypatch.undo()
    registry.reload()


def test_the_built_ins_are_the_entry_points_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["entry-points"]["crumb.harnesses"]
    assert declared == registry.BUILTINS
    assert registry.OWN == project["name"]
    entries = registry.entries()
    assert list(entries)[:6] == list(declared)
    assert all(entries[n].package == "crumb-games" for n in declared)


def test_bad_plugins_are_one_line_warnings_naming_the_package_and_the_fix(with_site: Path) -> None:
    problems = registry.problems()
    assert len(problems) == 4, problems
    assert any("'Bad:Name'" in p and "rename the entry point" in p for p in problems)
    broken, norun, dup = (next(p for p in problems if f"package {pkg!r}" in p and "Bad:Name" not in p)
                          for pkg in ("crumb-broken", "crumb-norun", "crumb-dup"))
    assert "ModuleNotFoundError" in broken and "pip uninstall crumb-broken" in broken
    assert "has no run" in norun and "subclass crumb.actors.harness.plugin.Harness" in norun
    assert "the name is taken by package 'crumb-games'" in dup and "rename the entry point" in dup
    assert all("\n" not in p for p in problems)
    # the good plugin and every built-in still work; the clash left claude as it was
    assert {"claude", "codex", "gemini", "openai", "command", "local", "echo"} <= set(registry.names())
    assert type(registry.get_harness("claude")).__module__ == "crumb.actors.harness.claude"
    assert parse_binding("echo:m1", origin="flag").provider == "local"
    with pytest.raises(ValueError, match="unknown harness 'broken' in 'broken'; known: local, claude"):
        parse_binding("broken", origin="flag")


def test_the_cli_names_bad_plugins_and_keeps_working(bad_site: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(bad_site)}
    doctor = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "doctor", "--json"],
                            capture_output=True, text=True, timeout=120, env=env)
    report = json.loads(doctor.stdout)
    assert doctor.returncode == 0 and len(report["plugin_problems"]) == 4, doctor.stderr
    assert "echo" in report["harnesses"] and report["harnesses"]["echo"]["package"] == "crumb-good"
    text = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "doctor"],
                          capture_output=True, text=True, timeout=120, env=env).stdout
    assert sum(line.startswith("warning: harness plugin ") for line in text.splitlines()) == 4, text
    shown = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "config", "show", "--role", "builder=echo"],
                           capture_output=True, text=True, timeout=120, env=env)
    assert shown.returncode == 0 and "echo" in shown.stdout, shown.stderr


def test_a_plugin_that_raises_is_one_failed_attempt_naming_its_package(with_site: Path, tmp_path: Path) -> None:
    import threading

    from crumb.actors.base import ActorError, ActorRequest, Binding

    request = ActorRequest(role="planner", session="s", effect_id="e", work_dir=tmp_path, input={},
                           binding=Binding(harness="echo"))
    with pytest.raises(ActorError, match=r"echo planner: the plugin \(package 'crumb-good'\) raised NotImplementedError"):
        registry.get_adapter("echo").run(request, lambda u: None, threading.Event())


def test_an_install_without_the_entry_points_still_finds_the_built_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout run without `pip install -e .`, or an install older than the registry: the fallback table."""
    monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [])
    try:
        assert registry.reload() and registry.names() == tuple(registry.BUILTINS)
        assert registry.problems() == []
    finally:
        monkeypatch.undo()
        registry.reload()
