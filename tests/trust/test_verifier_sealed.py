"""The Verifier runs where it can read its projected input and a copy of the game, nothing else of
the session: not the transcript, not earlier scores, not through a relative path, not through a link
a hostile builder left in the game folder. Driven through the real dispatcher and `command` harness."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from crumb.dispatcher.dispatch import Dispatcher
from crumb.reducer.effects import from_data
from crumb.store import paths
from crumb.store.reader import read_events
from tests.studio.scripted import Scripted

MARKER = "EARLIER-SCORE-MARKER"

# The verifier (a `command` agent) looks around from its working folder like a curious agent would, writes what
# it found to $CRUMB_TRUST_REPORT, and answers a valid judgement.
PROBE = r'''
import json, os, sys
from pathlib import Path
req = json.loads(sys.stdin.read())
cwd = Path.cwd()
seen, readable = [], {}
for p in sorted(cwd.rglob("*")):
    rel = p.relative_to(cwd).as_posix()
    seen.append(rel + ("@" if p.is_symlink() else ""))
    try:
        if p.is_file():
            readable[rel] = p.read_text(errors="replace")
    except OSError:
        pass
reachable = []
for up in [cwd, *cwd.parents]:
    for rel in ("transcript.jsonl", f"sessions/{req['session']}/transcript.jsonl", f"{req['session']}/transcript.jsonl"):
        if (up / rel).is_file():
            reachable.append(str(up / rel))
Path(os.environ["CRUMB_TRUST_REPORT"]).write_text(json.dumps(
    {"cwd": str(cwd), "seen": seen, "readable": readable, "reachable": reachable}))
scores = {d: {"score": 4, "evidence": ["qa"]} for d in ("goal_fit", "runs", "controls", "rules", "visuals", "performance")}
print(json.dumps({"payload": {"judge": {"verdict": "PASS", "total": 4, "scores": scores, "feedback": "fine"}}}))
'''


@pytest.fixture
def second_verify(tmp_path: Path) -> tuple[Scripted, dict[str, Any]]:
    """A session on its second verification: an earlier judgement (with MARKER) is in the transcript,
    and the builder left a link to the transcript in the game folder."""
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    s = Scripted(root)
    s.start()
    s.plan()
    s.build()
    s.qa()
    eff = s.pending("run_actor", "verifier")
    scores = {d: {"score": 3.0, "evidence": ["qa"]} for d in ("goal_fit", "runs", "controls", "rules", "visuals", "performance")}
    s.append("judge.score", {"verdict": "PARTIAL", "severity": "Minor", "scores": scores, "total": 3.0,
                             "feedback": f"{MARKER}: the fruit is hard to see"}, from_="verifier", effect=eff["id"])
    s.flush_records()
    s.append("user.veto", {"reason": "make it better"}, from_="user")
    s.build()
    (paths.artifacts_dir(root, s.session) / "game" / "leak.txt").symlink_to(paths.transcript_path(root, s.session))
    s.qa()
    return s, s.pending("run_actor", "verifier")


def test_verifier_reads_only_its_projection(second_verify: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s, effect = second_verify
    agent = tmp_path / "verifier-agent"
    agent.write_text(f"#!{sys.executable}\n{PROBE}")
    agent.chmod(0o755)
    report = tmp_path / "report.json"
    monkeypatch.setenv("CRUMB_TRUST_REPORT", str(report))
    effect = {**effect, "binding": {"harness": "command", "options": {"command": str(agent)}}}
    dispatcher = Dispatcher(s.root, workers=1)
    try:
        dispatcher.execute(s.session, from_data(effect), s.state.settings)
    finally:
        dispatcher.shutdown()

    kinds = [e["kind"] for e in read_events(paths.transcript_path(s.root, s.session))]
    assert kinds[-1] == "judge.score", f"the verifier run was not recorded: {kinds[-3:]}"
    found = json.loads(report.read_text())
    assert sorted(found["seen"]) == ["game", "game/index.html", "input.json"], found["seen"]
    assert found["reachable"] == [], f"the transcript is reachable from the verifier's folder: {found['reachable']}"
    for rel, text in found["readable"].items():
        assert MARKER not in text, f"{rel} shows the verifier an earlier score"
        assert '"kind":"judge.score"' not in text, f"{rel} is (part of) the transcript"
    projected = json.loads(found["readable"]["input.json"])
    assert set(projected) == {"goal", "spec", "build", "qa"}
    session_dir = paths.session_dir(s.root, s.session).resolve()
    assert not Path(found["cwd"]).resolve().is_relative_to(session_dir), "the verifier runs inside the session folder"
    assert os.path.realpath(found["cwd"]) != os.path.realpath(s.root)
    assert not Path(found["cwd"]).exists(), "the sealed copy outlived the run (a later verifier could browse it)"
