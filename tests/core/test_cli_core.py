"""`crumb schema` and `crumb replay` as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from crumb.protocol.events import json_schema
from crumb.store.writer import TranscriptWriter
from tests.core.sim import Sim

ROOT = Path(__file__).resolve().parents[2]


def crumb(*args: str, root: Path | None = None) -> subprocess.CompletedProcess[str]:
    base = [sys.executable, "-m", "crumb"] + (["--root", str(root)] if root else [])
    return subprocess.run(base + list(args), capture_output=True, text=True, timeout=120)


def test_the_committed_schema_matches_the_code():
    committed = json.loads((ROOT / "docs" / "transcript.schema.json").read_text())
    assert committed == json_schema(), "docs/transcript.schema.json drifted: run `crumb schema > docs/transcript.schema.json`"
    out = crumb("schema", "--check", str(ROOT / "docs" / "transcript.schema.json"))
    assert out.returncode == 0, out.stderr
    printed = crumb("schema")
    assert printed.returncode == 0 and json.loads(printed.stdout) == committed


def test_schema_check_fails_naming_the_fix(tmp_path: Path):
    stale = tmp_path / "old.json"
    stale.write_text("{}")
    out = crumb("schema", "--check", str(stale))
    assert out.returncode == 1 and "crumb schema >" in out.stderr


def finished_session(root: Path) -> str:
    sid = "01JDZ0RQ3V8KX6T2M4N5P7W9YB"
    path = root / "sessions" / sid / "transcript.jsonl"
    sim = Sim(writer=TranscriptWriter(path, sid, fsync="never"))
    sim.to_spec()
    sim.to_qa()
    sim.judge("PASS", total=5.0)
    sim.finish()
    return sid


def test_replay_prints_a_readable_summary_and_json_with_a_stable_hash(tmp_path: Path):
    sid = finished_session(tmp_path)
    text = crumb("replay", sid[-6:], root=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "phase     done" in text.stdout and "done      pass" in text.stdout and "PASS" in text.stdout
    first = json.loads(crumb("replay", sid, "--json", root=tmp_path).stdout)
    second = json.loads(crumb("replay", sid, "--json", root=tmp_path).stdout)
    assert first["state_hash"] == second["state_hash"] and first["done"]["reason"] == "pass"
    assert first["pending"] == {}


def test_replay_names_a_damaged_line_and_exits_1(tmp_path: Path):
    sid = finished_session(tmp_path)
    path = tmp_path / "sessions" / sid / "transcript.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = b'{"not": "an event"}\n'
    path.write_bytes(b"".join(lines))
    out = crumb("replay", sid, root=tmp_path)
    assert out.returncode == 1 and "transcript.jsonl:3:" in out.stderr


def test_make_replay_works(tmp_path: Path):
    sid = finished_session(tmp_path)
    out = subprocess.run(["make", "-s", "-C", str(ROOT), "replay", f"SESSION={sid}", f"CRUMB=.venv/bin/crumb --root {tmp_path}"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "done      pass" in out.stdout


def test_replay_mid_session_shows_what_is_pending_and_runs_nothing(tmp_path: Path):
    sid = "01JDZ0RQ3V8KX6T2M4N5P7W9YC"
    folder = tmp_path / "sessions" / sid
    sim = Sim(writer=TranscriptWriter(folder / "transcript.jsonl", sid, fsync="never"))
    sim.to_spec()  # the Builder is running when the daemon dies
    builder = sim.pending("run_actor", "builder")
    before = {p: p.read_bytes() for p in folder.rglob("*")}
    out = crumb("replay", sid, root=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "phase     building" in out.stdout and "round 1" in out.stdout
    assert f"pending   run_actor builder (attempt 1) {builder['id']}" in out.stdout
    assert "budgets   redesigns 0/2, fixes 0/4, verifies 0/8" in out.stdout
    assert {p: p.read_bytes() for p in folder.rglob("*")} == before  # no effect ran: nothing written, nothing new


def test_replay_of_a_missing_or_empty_transcript_file_says_so(tmp_path: Path):
    missing = crumb("replay", str(tmp_path / "nothere.jsonl"))
    assert missing.returncode == 1 and f"no transcript at {tmp_path / 'nothere.jsonl'}" in missing.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    out = crumb("replay", str(empty))
    assert out.returncode == 0 and "is empty: no events to replay" in out.stderr and "events    0" in out.stdout
