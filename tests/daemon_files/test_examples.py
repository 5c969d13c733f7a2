"""examples/: the git post-commit hook and pitch-all.sh, on real git repos with the real crumb CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crumb.daemon.grammar import parse_pitch, parse_steering
from crumb.daemon.watcher import Watcher
from crumb.reducer.reduce import apply, initial_state
from crumb.settings import Settings
from crumb.store.reader import read_events
from crumb.store.writer import TranscriptWriter

from .helpers import wait_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CRUMB = Path(sys.executable).with_name("crumb")

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CRUMB"))}
    out.update({"CRUMB": str(CRUMB), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})
    out.update(extra)
    return out


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    hook = repo / ".git" / "hooks" / "post-commit"
    shutil.copy(EXAMPLES / "git" / "post-commit", hook)
    hook.chmod(0o755)
    return repo


def commit(repo: Path, *messages: str, **extra: str) -> subprocess.CompletedProcess[str]:
    args = ["git", "-C", str(repo), "commit", "-q", "--allow-empty"]
    for m in messages:
        args += ["-m", m]
    return subprocess.run(args, env=env(**extra), capture_output=True, text=True, check=True, timeout=120)


def make_session(root: Path, session: str) -> TranscriptWriter:
    """A session as the daemon would have started it, through CRUMB's own transcript writer."""
    writer = TranscriptWriter(root / "sessions" / session / "transcript.jsonl", session)
    (root / "sessions" / session / "inbox").mkdir(parents=True, exist_ok=True)
    writer.append("session.start", {"settings": Settings().to_data()}, from_="daemon")
    writer.append("goal", {"pitch": "snake"}, from_="user")
    return writer


def finish(root: Path, session: str, reason: str) -> None:
    """Play the daemon's part to the end: a cancel, then the dispatcher's done for the effect the
    reducer issued, with `reason` ("pass" → crumb wait exits 0, anything else → 1)."""
    writer = make_session(root, session)
    writer.append("user.cancel", {"reason": "the test is over"}, from_="user")
    state = initial_state(session)
    for event in read_events(writer.path):
        apply(state, event)
    (effect_id,) = [k for k, e in state.pending.items() if "done" in e.closes]
    writer.append("done", {"reason": reason, "verdict": "PASS" if reason == "pass" else "FAIL"}, effect=effect_id)


def files_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def test_hook_turns_a_pitch_commit_into_a_pitch_file(repo: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    done = commit(repo, "Pitch: 60-second snake", "The walls wrap around.", CRUMB_ROOT=str(root))
    (dropped,) = files_in(root / "inbox")
    request = parse_pitch(dropped.read_text())
    assert request.pitch == "60-second snake\nThe walls wrap around."
    assert request.session and f"pitched session {request.session}" in done.stderr


def test_hook_turns_a_steer_commit_into_a_steering_file(repo: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    session = "01JC0000000000000000000ABC"
    make_session(root, session)
    done = commit(repo, f"steer({session[-4:]}): /approve", "@builder keep the speed", CRUMB_ROOT=str(root))
    (dropped,) = files_in(root / "sessions" / session / "inbox")
    assert parse_steering(dropped.read_text()) == [
        ("user.approve", {}, 1),
        ("user.intervene", {"actor": "builder", "text": "keep the speed"}, 2),
    ]
    assert f"steered {session[-4:]}" in done.stderr
    assert files_in(root / "inbox") == []


def test_hook_uses_git_config_crumb_root_and_is_seen_by_a_watcher(repo: Path, tmp_path: Path) -> None:
    root = tmp_path / "configured-root"
    subprocess.run(["git", "-C", str(repo), "config", "crumb.root", str(root)], check=True)
    with Watcher(root) as w:
        commit(repo, "pitch: breakout with power-ups")
        (event,) = wait_for(w, lambda evs: len(evs) >= 1)
    assert event.kind == "pitch_file" and event.path.parent == root / "inbox"
    assert parse_pitch(event.path.read_text()).pitch == "breakout with power-ups"


def test_hook_defaults_to_the_repository_as_root(repo: Path) -> None:
    commit(repo, "pitch: tiny golf")
    (dropped,) = files_in(repo / "inbox")
    assert parse_pitch(dropped.read_text()).pitch == "tiny golf"


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("fix a typo", ""),
        ("pitching: not a prefix", ""),
        ("pitch:   ", "with nothing after it"),
        ("steer(): /approve", "steer(<session>): <message>"),
        ("steer(NOPE): /approve", "no session"),
    ],
)
def test_hook_leaves_other_commits_alone_and_never_fails_them(repo: Path, tmp_path: Path, message: str, said: str) -> None:
    root = tmp_path / "root"
    done = commit(repo, message, CRUMB_ROOT=str(root))  # check=True: the commit itself succeeded
    assert files_in(root / "inbox") == []
    assert said in done.stderr
    if not said:
        assert done.stderr == ""


def test_hook_without_crumb_installed_says_how_to_fix_it(repo: Path, tmp_path: Path) -> None:
    done = commit(repo, "pitch: snake", CRUMB=str(tmp_path / "no-such-crumb"), CRUMB_ROOT=str(tmp_path / "root"))
    assert "not found" in done.stderr and "CRUMB=" in done.stderr
    assert not (tmp_path / "root").exists()


# ---------------------------------------------------------------- pitch-all.sh


def run_pitch_all(root: Path, ideas: Path, timeout: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["sh", str(EXAMPLES / "pitch-all.sh"), str(ideas), str(timeout)],
        env=env(CRUMB_ROOT=str(root)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_pitch_all_pitches_every_line_and_waits_for_every_session(tmp_path: Path) -> None:
    root = tmp_path / "root"
    ideas = tmp_path / "ideas.txt"
    ideas.write_text("# my ideas\n60-second snake\n\n  breakout with power-ups  \nflappy bird clone")
    with Watcher(root) as w:
        proc = run_pitch_all(root, ideas, timeout=120)
        events = wait_for(w, lambda evs: len(evs) >= 3, deadline=60)
        pitches = {parse_pitch(e.path.read_text()).pitch: parse_pitch(e.path.read_text()).session for e in events}
        assert sorted(pitches) == ["60-second snake", "breakout with power-ups", "flappy bird clone"]
        # play the daemon's part: start each session and finish it (one without a pass)
        for pitch, session in pitches.items():
            finish(root, str(session), "budget" if pitch.startswith("flappy") else "pass")
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err  # one finished without a pass
    lines = sorted(out.splitlines())
    assert lines == sorted([
        f"PASS {pitches['60-second snake']}  60-second snake",
        f"PASS {pitches['breakout with power-ups']}  breakout with power-ups",
        f"DONE {pitches['flappy bird clone']}  flappy bird clone",
    ])


def test_pitch_all_exits_0_when_all_pass(tmp_path: Path) -> None:
    root = tmp_path / "root"
    ideas = tmp_path / "ideas.txt"
    ideas.write_text("snake\n")
    with Watcher(root) as w:
        proc = run_pitch_all(root, ideas, timeout=120)
        (event,) = wait_for(w, lambda evs: len(evs) >= 1, deadline=60)
        finish(root, str(parse_pitch(event.path.read_text()).session), "pass")
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith("PASS ")


def test_pitch_all_times_out_with_exit_2_when_nothing_runs_the_sessions(tmp_path: Path) -> None:
    root = tmp_path / "root"
    ideas = tmp_path / "ideas.txt"
    ideas.write_text("snake\npong\n")
    proc = run_pitch_all(root, ideas, timeout=1)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert sorted(line.split()[0] for line in out.splitlines()) == ["TIMEOUT", "TIMEOUT"]
    assert len(files_in(root / "inbox")) == 2  # both were pitched all the same


def test_pitch_all_usage_errors(tmp_path: Path) -> None:
    missing = subprocess.run(["sh", str(EXAMPLES / "pitch-all.sh"), str(tmp_path / "nope.txt")],
                             env=env(), capture_output=True, text=True, timeout=60)
    assert missing.returncode == 64 and "usage:" in missing.stderr
    ideas = tmp_path / "ideas.txt"
    ideas.write_text("snake\n")
    bad = subprocess.run(["sh", str(EXAMPLES / "pitch-all.sh"), str(ideas), "soon"],
                         env=env(), capture_output=True, text=True, timeout=60)
    assert bad.returncode == 64 and "whole number" in bad.stderr
