"""CRUMB installed from its wheel, as a user installs a Python tool, and run from an empty folder.

The wheel is built from a copy of the checkout's tracked files (setuptools writes build/ and *.egg-info
beside the sources; not into ours), with pip as a user would build it. It must carry every file git
tracks under crumb/ (games, genres' game.js and genre.py, prompts, presets, Studio templates and static
files, the docs the code reads). It is then installed with `--no-deps` into a fresh venv, and the dev
venv's site-packages is made visible to that venv through one `.pth` line, so that the test needs no
network and takes seconds.

What this proves, and what not: the wheel's own files are complete and its metadata works (the `crumb`
script, `crumb --version`, the `crumb.harnesses` entry points of the new distribution name): `crumb` is
imported from the new venv (checked: `crumb.__file__`), never from the checkout, and a session runs to
PASS with QA in a real Chromium from a folder holding nothing. The third-party dependencies come from the
dev venv, so this does not prove that pyproject's dependency list resolves on a fresh machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(600)]


def tracked(under: str = "") -> list[str]:
    """The files git tracks (under a folder), or every file but the caches when this is not a clone."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", under or "."], cwd=ROOT, capture_output=True,
                             check=True, timeout=60).stdout
        return [p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", ".cache", "sessions", "inbox", "build", "batches", "__pycache__"}
        base = ROOT / under if under else ROOT
        return [str(p.relative_to(ROOT)) for p in base.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and not p.name.endswith(".pyc")
                and ".egg-info" not in str(p)]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("src") / "crumb"
    for rel in tracked():
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, source / rel)
    out = tmp_path_factory.mktemp("wheel")
    tries = []
    # as a user builds it (the build backend fetched into an isolated env), then with this venv's setuptools
    for extra in ([], ["--no-build-isolation"]):
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", *extra, "-w", str(out),
                                str(source)], capture_output=True, text=True, timeout=300, cwd=out)
        tries.append(built.stderr[-1500:])
        if built.returncode == 0:
            break
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, tries
    return wheels[0]


def test_the_wheel_carries_every_file_of_the_package(wheel: Path) -> None:
    name = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
    assert wheel.name.startswith(name.replace("-", "_") + "-"), wheel.name
    inside = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(p for p in tracked("crumb") if p not in inside)
    assert not missing, f"tracked under crumb/ but not in the wheel (package-data in pyproject.toml): {missing}"
    for must in ("crumb/actors/embedded/games", "crumb/genres/snake/game.js", "crumb/genres/snake/genre.py",
                 "crumb/prompts/", "crumb/actors/harness/presets/local.toml", "crumb/studio/templates/",
                 "crumb/studio/static/"):
        assert any(p.startswith(must) for p in inside), must
    # the presets at the top of the checkout are what the package carries
    for preset in (ROOT / "presets").glob("*.toml"):
        packaged = zipfile.ZipFile(wheel).read(f"crumb/actors/harness/presets/{preset.name}")
        assert packaged == preset.read_bytes(), preset.name


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # without PYTHONPATH: a checkout on it (its crumb_games.egg-info) would make pip take the wheel as installed
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                                "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True, timeout=300,
                               env=clean_env())
    assert installed.returncode == 0, installed.stderr[-2000:]
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    # a plain path line: the dev venv's packages after the new venv's own; its .pth files (the editable
    # install of this checkout among them) are not run, so `crumb` can only come from the wheel
    (Path(purelib) / "crumb-dev-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def clean_env() -> dict[str, str]:
    """This environment without what points Python at the checkout or the dev venv, or configures crumb."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and (not k.startswith("CRUMB_") or k == "CRUMB_CHROMIUM")}


def run(venv: Path, cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CONFIG_HOME"] = str(cwd.parent / "xdg-config")  # no user config of the machine's
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=timeout)


def test_crumb_from_the_wheel_runs_a_session_in_an_empty_folder(venv: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    where = run(venv, empty, "python", "-c", "import crumb, importlib.metadata as m; "
                f"print(crumb.__file__); print(m.version({project['name']!r}))")
    assert where.returncode == 0, where.stderr
    file, version = where.stdout.split()
    assert Path(file).resolve().is_relative_to(venv.resolve()), file
    assert not Path(file).resolve().is_relative_to(ROOT), file
    assert version == project["version"]

    shown = run(venv, empty, "crumb", "--version")
    assert shown.returncode == 0 and shown.stdout.strip() == f"crumb, version {version}", shown

    doctor = run(venv, empty, "crumb", "doctor", "--json")
    report = json.loads(doctor.stdout)
    assert report["plugin_problems"] == [], report["plugin_problems"]
    assert {"local", "claude", "codex", "gemini", "openai", "command"} <= set(report["harnesses"]) | set(report["agents"])
    assert report["harnesses"]["local"]["package"] == project["name"], report["harnesses"]

    ran = run(venv, empty, "crumb", "run", "60-second snake", "--json")
    assert ran.returncode == 0, (ran.stdout[-2000:], ran.stderr[-2000:])
    got = json.loads(ran.stdout)
    assert (got["done"], got["verdict"]) == ("pass", "PASS"), got
    game = Path(got["game"])
    assert game.is_file() and game.resolve().is_relative_to(empty.resolve()), got["game"]
    assert "<canvas" in game.read_text() or "<script" in game.read_text()
    assert (empty / "sessions" / got["session"] / "transcript.jsonl").is_file()
