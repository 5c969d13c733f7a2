"""The example plugin package (examples/harness-plugin/) installed the way a user would (`pip install`,
here into a folder on PYTHONPATH) and used end to end through real `crumb` processes: `crumb doctor` lists
it, pre-flight probes its server, a session binds the verifier to it and ends PASS with the plugin named as
the verifier, its model and tokens recorded. Nothing outside the plugin's own package names it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugin.fake_ollama import FakeOllama

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "harness-plugin"
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin installed with pip into a folder of its own, as a user would (its build backend from the index)."""
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("src") / "harness-plugin"  # setuptools builds in the source tree: not in ours
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
                   check=True, capture_output=True, text=True, timeout=300, cwd=source.parent)
    assert (target / "crumb_ollama").is_dir()
    return target


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as s:
        yield s


def crumb(root: Path, site: Path | None, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=root)


def test_doctor_lists_the_installed_plugin_and_not_without_it(site: Path, tmp_path: Path) -> None:
    with_it = crumb(tmp_path, site, "doctor", "--json")
    report = json.loads(with_it.stdout)
    assert report["harnesses"]["ollama"]["package"] == "crumb-ollama-native", report["harnesses"]
    assert report["plugin_problems"] == []
    assert "ollama" in crumb(tmp_path, site, "doctor").stdout
    without = json.loads(crumb(tmp_path, None, "doctor", "--json").stdout)
    assert "ollama" not in without["harnesses"] and "ollama" not in without["agents"]


def test_a_session_with_the_plugin_as_verifier_ends_pass_naming_it(site: Path, server: FakeOllama, tmp_path: Path) -> None:
    binding = f"verifier=ollama:qwen2.5-coder:7b@{server.base_url}"
    ran = crumb(tmp_path, site, "run", "--json", "60-second snake", "--role", binding)
    assert ran.returncode == 0, (ran.stdout, ran.stderr)
    got = json.loads(ran.stdout)
    assert (got["done"], got["verdict"]) == ("pass", "PASS"), got
    verifier = got["played"]["verifier"]
    assert (verifier["harness"], verifier["fallback"]) == ("ollama", False), verifier
    asked = server.role_requests("verifier")
    assert asked and asked[0].body["options"]["num_ctx"] >= 32768  # the plugin's reason to exist
    transcript = tmp_path / "sessions" / got["session"] / "transcript.jsonl"
    events = [json.loads(line) for line in transcript.read_text().splitlines() if line.strip()]
    judged = [e for e in events if e["kind"] == "judge.score"]
    assert judged, [e["kind"] for e in events]
    meta = judged[-1].get("meta") or judged[-1]["data"].get("meta") or {}
    assert (meta.get("harness"), meta.get("model"), meta.get("tokens_in")) == ("ollama", "qwen2.5-coder:7b", 900), judged[-1]


def test_pre_flight_refuses_the_plugin_binding_when_its_server_is_down(site: Path, tmp_path: Path) -> None:
    ran = crumb(tmp_path, site, "run", "60-second snake", "--role", "verifier=ollama:qwen2.5-coder:7b@http://127.0.0.1:9")
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    assert "verifier is bound to ollama:qwen2.5-coder:7b@http://127.0.0.1:9" in ran.stderr
    assert "no Ollama server answers" in ran.stderr and "ollama serve" in ran.stderr
