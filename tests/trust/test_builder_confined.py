"""A builder's word is never ground truth: the dispatcher measures the game folder itself, leaves out
links, ignores claimed paths outside it; and a builder should not be able to reach the transcript."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.harness.filesformat import FileFormatError, check_path, write_files
from crumb.dispatcher.dispatch import Dispatcher
from crumb.reducer.effects import from_data
from crumb.store import paths
from crumb.store.reader import read_events
from tests.studio.scripted import Scripted

GAME = "<canvas id=game></canvas><script>window.__crumb={version:1,state(){return {phase:'title'}}}</script>"

# A builder that writes its game, leaves a link to the transcript, claims files it never wrote, and
# reports which transcripts it could reach by walking up from its working folder.
LIAR = r'''
import json, os, sys
from pathlib import Path
req = json.loads(sys.stdin.read())
cwd = Path.cwd()
(cwd / "index.html").write_text(os.environ["CRUMB_TRUST_GAME"])
reachable = []
for up in [cwd, *cwd.parents]:
    for rel in ("transcript.jsonl", f"sessions/{req['session']}/transcript.jsonl"):
        if (up / rel).is_file():
            reachable.append(str(up / rel))
if reachable:
    os.symlink(reachable[0], cwd / "leak.jsonl")
Path(os.environ["CRUMB_TRUST_REPORT"]).write_text(json.dumps({"reachable": reachable}))
print(json.dumps({"payload": {"notes": ["wrote everything"]},
                  "files": ["index.html", "../../transcript.jsonl", "/etc/passwd", "ghost.js"]}))
'''


def run_builder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Scripted, dict[str, Any], dict[str, Any]]:
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    s = Scripted(root)
    s.start()
    s.plan()
    effect = s.pending("run_actor", "builder")
    agent = tmp_path / "builder-agent"
    agent.write_text(f"#!{sys.executable}\n{LIAR}")
    agent.chmod(0o755)
    monkeypatch.setenv("CRUMB_TRUST_REPORT", str(tmp_path / "report.json"))
    monkeypatch.setenv("CRUMB_TRUST_GAME", GAME)
    effect = {**effect, "binding": {"harness": "command", "options": {"command": str(agent)}}}
    dispatcher = Dispatcher(root, workers=1)
    try:
        dispatcher.execute(s.session, from_data(effect), s.state.settings)
    finally:
        dispatcher.shutdown()
    builds = [e for e in read_events(paths.transcript_path(root, s.session)) if e["kind"] == "build"]
    assert builds, "the build was not recorded"
    return s, builds[-1], json.loads((tmp_path / "report.json").read_text())


def test_manifest_is_measured_not_claimed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, build, _ = run_builder(tmp_path, monkeypatch)
    files = build["data"]["manifest"]["files"]
    assert [f["path"] for f in files] == ["index.html"], "claimed or linked paths reached the manifest"
    assert files[0]["sha256"] == hashlib.sha256(GAME.encode()).hexdigest()
    assert build["from"] == "builder"
    text = json.dumps(build)
    assert "/etc/passwd" not in text and "ghost.js" not in text and "../../transcript" not in text


def test_builder_cannot_reach_the_transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, build, report = run_builder(tmp_path, monkeypatch)
    assert report["reachable"] == [], f"the builder can reach {report['reachable']}"


def test_a_link_left_in_the_game_is_not_measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, build, report = run_builder(tmp_path, monkeypatch)
    if report["reachable"]:  # the agent left leak.jsonl -> transcript
        assert any("leak.jsonl left out" in n for n in build["data"]["notes"]), build["data"]["notes"]
    assert all(f["path"] != "leak.jsonl" for f in build["data"]["manifest"]["files"])


ESCAPES = ["../x.js", "/etc/passwd", "a/../../x.js", "..", "C:/x.js", "a\\..\\x.js", "\x1b[2Jx.js", "", "./.."]


@pytest.mark.parametrize("raw", ESCAPES)
def test_files_format_refuses_paths_outside(raw: str) -> None:
    with pytest.raises(FileFormatError):
        check_path(raw)


def test_files_format_refuses_a_link_out_and_writes_nothing(tmp_path: Path) -> None:
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (work / "assets").symlink_to(outside)
    with pytest.raises(FileFormatError, match="resolves outside the game folder"):
        write_files(work, {"index.html": GAME, "assets/evil.js": "x"})
    assert list(outside.iterdir()) == [] and not (work / "index.html").exists()
