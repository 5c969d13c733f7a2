"""The daemon end to end: pitch by file, steer by file, spec edits, exactly-once, crash-resume, one per root."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys

import pytest

from crumb.daemon.lock import daemon_status
from crumb.reducer.replay import replay_file
from crumb.store import paths
from tests.agents.conftest import gemini, throwaway_home  # noqa: F401  (fixtures)
from tests.daemon.conftest import (
    RunningDaemon,
    crumb,
    drop,
    events,
    kill9,
    sessions,
    start_watch,
    state,
    wait_done,
    wait_until,
)


def test_a_pitch_file_becomes_a_session_that_runs_to_its_end(root, daemon):
    text = "60-second snake with 3 lives\n"
    drop(root / "inbox", "pitch.txt", text)
    sid = wait_until(lambda: sessions(root) and sessions(root)[0], 120, "a session")
    final = wait_done(root, sid)
    assert final.done["reason"] == "pass"
    goal = events(root, sid, "goal")
    assert len(goal) == 1 and goal[0]["data"]["pitch"] == text.strip()
    assert goal[0]["data"]["source"]["name"] == "pitch.txt"
    assert goal[0]["data"]["source"]["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    sdir = paths.session_dir(root, sid)
    assert (sdir / "archive" / "pitch.txt").read_text() == text  # archived, never deleted
    assert not (root / "inbox" / "pitch.txt").exists()
    assert (sdir / "artifacts" / "game" / "index.html").is_file() and (sdir / "artifacts" / "spec.md").is_file()
    assert final.spec["data"]["numbers"]["lives"] == 3 and final.spec["data"]["numbers"]["time_limit_s"] == 60
    # the daemon's state is exactly what replay rebuilds (once it has reduced the last line, which it
    # reads back after the file has it: wait for that, not for the file)
    replayed = replay_file(paths.transcript_path(root, sid))
    live = daemon.daemon.sessions[sid]
    wait_until(lambda: live.state.last_seq == replayed.last_seq, 120, "the daemon to reduce every line")
    assert live.state.state_hash() == replayed.state_hash()


def test_steering_lines_become_user_events_once_each_and_unknown_commands_get_an_error(root, daemon):
    sid = crumb(root, "pitch", "breakout with 5 lives").stdout.strip()
    wait_done(root, sid)
    drop(paths.session_inbox(root, sid), "steer.txt", "/note first look is fine\n@builder make it red\n/frobnicate now\n")
    wait_until(lambda: events(root, sid, "error"), 120, "the unknown-command error")
    notes = events(root, sid, "user.note")
    intervene = events(root, sid, "user.intervene")
    errors = [e for e in events(root, sid, "error") if e["data"].get("source")]
    assert [n["data"]["text"] for n in notes] == ["first look is fine"]
    assert [(i["data"]["actor"], i["data"]["text"]) for i in intervene] == [("builder", "make it red")]
    assert "unknown command /frobnicate" in errors[0]["data"]["message"]
    assert {e["data"]["source"]["name"] for e in notes + intervene + errors} == {"steer.txt"}
    wait_until((paths.session_dir(root, sid) / "archive" / "steer.txt").exists, 120, "the file archived")
    # the message for the finished session is kept and answered, not lost
    wait_until(lambda: any("done (pass)" in e["data"]["message"] for e in events(root, sid, "error")), 120, "answer")


def test_the_same_text_saved_twice_is_two_messages(root, daemon):
    sid = crumb(root, "pitch", "pong to 5 points").stdout.strip()
    wait_done(root, sid)
    inbox = paths.session_inbox(root, sid)
    drop(inbox, "note.txt", "/note again\n")
    wait_until(lambda: len(events(root, sid, "user.note")) == 1, 120, "first note")
    drop(inbox, "note.txt", "/note again\n")
    wait_until(lambda: len(events(root, sid, "user.note")) == 2, 120, "second note")


@pytest.mark.skipif(shutil.which("vim") is None, reason="vim is not installed")
def test_a_message_saved_with_real_vim_is_recorded_exactly_once(root, daemon):
    sid = crumb(root, "pitch", "memory cards with 8 pairs").stdout.strip()
    wait_done(root, sid)
    target = paths.session_inbox(root, sid) / "msg.txt"
    subprocess.run(["vim", "-N", "-es", "-c", "normal! i/note saved from vim", "-c", "wq", str(target)],
                   check=True, timeout=30, stdin=subprocess.DEVNULL)
    wait_until(lambda: events(root, sid, "user.note"), 120, "the vim note")
    wait_until(lambda: not any(p.name == "msg.txt" for p in paths.session_inbox(root, sid).iterdir()), 120, "archived")
    notes = events(root, sid, "user.note")
    assert [n["data"]["text"] for n in notes] == ["saved from vim"]


def test_editing_spec_md_by_hand_rebuilds_from_it(root, daemon):
    sid = crumb(root, "pitch", "60-second snake").stdout.strip()
    first = wait_done(root, sid)
    spec_md = paths.artifacts_dir(root, sid) / "spec.md"
    text = spec_md.read_text()
    assert "60" in text
    spec_md.write_text(text.replace(first.spec["data"]["title"], "Snake Deluxe", 1))
    wait_until(lambda: events(root, sid, "spec.update"), 120, "the person's spec update")
    update = events(root, sid, "spec.update")[0]
    assert update["data"]["by"] == "user" and update["data"]["title"] == "Snake Deluxe"
    assert update["data"]["source"]["name"] == "artifacts/spec.md"
    final = wait_until(lambda: (s := state(root, sid)).round == 2 and s.done is not None and s, 120, "the rebuild")
    assert final.spec["data"]["title"] == "Snake Deluxe"


def test_a_genre_changed_in_spec_md_is_followed_by_its_rules_and_an_unknown_one_is_named(root, daemon):
    """The daemon reads spec.md with the embedded studio's rules (dispatch.spec_rules): a genre it does
    not know gets an error naming the nearest; a known one brings its own rules and criteria."""
    sid = crumb(root, "pitch", "60-second snake").stdout.strip()
    wait_done(root, sid)
    spec_md = paths.artifacts_dir(root, sid) / "spec.md"
    text = spec_md.read_text()
    assert "- genre: snake" in text
    spec_md.write_text(text.replace("- genre: snake", "- genre: tetris", 1))
    errors = wait_until(lambda: [e for e in events(root, sid, "error") if "spec.md" in e["data"]["message"]], 30,
                        "the refused edit")
    assert "unknown genre 'tetris'; did you mean 'blocks'?" in errors[0]["data"]["message"]
    assert not events(root, sid, "spec.update")
    spec_md.write_text(text.replace("- genre: snake", "- genre: pong", 1))
    wait_until(lambda: events(root, sid, "spec.update"), 120, "the person's spec update")
    update = events(root, sid, "spec.update")[0]["data"]
    assert update["genre"] == "pong" and update["by"] == "user"
    genre_probe = next(c for c in update["criteria"] if c["id"] == "genre")["probe"]
    assert genre_probe["expect"] == [{"path": "genre", "op": "==", "value": "pong"}]
    assert "paddle" in update["core_loop"]  # pong's rules, not snake's


def test_a_rejected_inbox_file_is_kept_with_an_error_event(root, daemon):
    sid = crumb(root, "pitch", "whack-a-mole for 30 seconds").stdout.strip()
    wait_done(root, sid)
    inbox = paths.session_inbox(root, sid)
    (inbox / ".bin.tmp").write_bytes(b"\x00\x01\x02 binary")
    (inbox / ".bin.tmp").rename(inbox / "blob.txt")
    wait_until(lambda: any("blob.txt" in e["data"]["message"] for e in events(root, sid, "error")), 120, "the rejection")
    kept = paths.session_dir(root, sid) / "archive" / "rejected" / "blob.txt"
    wait_until(kept.is_file, 120, "the rejected file moved aside")  # the error is recorded first, then the move
    assert kept.read_bytes().startswith(b"\x00")


def test_a_pitch_with_bad_front_matter_is_kept_with_the_reason(root, daemon):
    drop(root / "inbox", "idea.md", "---\ncolour: red\n---\nsnake\n")
    why = root / "inbox" / "rejected" / "idea.md.why.txt"
    wait_until(why.exists, 120, "the rejection note")
    assert "unknown front matter key 'colour'" in why.read_text()
    assert (root / "inbox" / "rejected" / "idea.md").exists() and sessions(root) == []


def test_pause_holds_the_session_and_resume_lets_it_finish(root, daemon):
    sid = crumb(root, "pitch", "flappy bird with 3 lives").stdout.strip()
    drop(paths.session_inbox(root, sid) if paths.session_dir(root, sid).exists() else root / "x", "p.txt", "/pause\n") \
        if False else None
    wait_until(lambda: paths.session_inbox(root, sid).exists(), 120, "session folder")
    drop(paths.session_inbox(root, sid), "pause.txt", "/pause @verifier\n")
    wait_until(lambda: state(root, sid).deferred, 60, "the verifier held back")
    assert state(root, sid).done is None and state(root, sid).phase == "verifying"
    drop(paths.session_inbox(root, sid), "resume.txt", "/resume @verifier\n")
    assert wait_done(root, sid).done["reason"] == "pass"


def test_a_second_daemon_refuses_naming_the_first_and_a_dead_ones_lock_is_taken_over(root):
    first = start_watch(root)
    try:
        second = crumb(root, "watch", timeout=30)
        assert second.returncode == 1
        assert f"pid {first.pid}" in second.stderr and "already watching" in second.stderr
    finally:
        kill9(first)
    assert not daemon_status(root)["running"]
    again = start_watch(root)
    try:
        assert daemon_status(root)["pid"] == again.pid
    finally:
        kill9(again)


def test_after_sigkill_a_restarted_daemon_finishes_the_work_without_doubling_anything(root, qa_runner):
    proc = start_watch(root)
    try:
        sid = crumb(root, "pitch", "60-second space shooter").stdout.strip()
        wait_until(lambda: sessions(root) and any(e["kind"] == "effect.started" for e in events(root, sid)), 60, "work")
    finally:
        kill9(proc)
    with RunningDaemon(root, qa_runner):
        final = wait_done(root, sid)
    assert final.done["reason"] == "pass"
    assert len(events(root, sid, "goal")) == 1 and len(events(root, sid, "session.start")) == 1
    assert [e["seq"] for e in events(root, sid)] == list(range(1, final.last_seq + 1))


def test_a_pitch_consumed_just_before_a_crash_is_not_pitched_twice(root, qa_runner):
    """Crash after the goal is recorded but before the file is archived: the restart only archives it."""
    pitch = drop(root / "inbox", "pitch.txt", "snake\n")
    with RunningDaemon(root, qa_runner):
        sid = wait_until(lambda: sessions(root) and sessions(root)[0], 120, "a session")
        wait_done(root, sid)
    # put the consumed file back, as if the archive step never happened
    archived = paths.session_dir(root, sid) / "archive" / "pitch.txt"
    shutil.copy2(archived, pitch)
    import os

    os.utime(pitch, ns=(archived.stat().st_atime_ns, archived.stat().st_mtime_ns))
    os.rename(archived, pitch)  # same inode and mtime: the very file the goal recorded
    with RunningDaemon(root, qa_runner):
        wait_until(lambda: not pitch.exists(), 120, "the file archived again")
    assert sessions(root) == [sid]
    assert len(events(root, sid, "goal")) == 1


def test_the_inbox_limit_comes_from_crumb_toml_and_a_rejection_names_that_setting(root, qa_runner):
    (root / "crumb.toml").write_text("[settings.inbox]\nmax_bytes = 200\n")
    with RunningDaemon(root, qa_runner):
        sid = crumb(root, "pitch", "60-second snake").stdout.strip()
        wait_until(paths.session_inbox(root, sid).exists, 120, "the session folder")
        inbox = paths.session_inbox(root, sid)
        drop(inbox, "long.txt", "/note " + "x" * 300 + "\n")
        error = wait_until(lambda: [e for e in events(root, sid, "error") if "long.txt" in e["data"]["message"]], 30,
                           "the rejection")[0]["data"]["message"]
        assert "over the inbox limit of 200 bytes" in error
        assert "[settings.inbox]" in error  # the fix it names is a setting crumb.toml accepts (as this test shows)
        wait_until((paths.session_dir(root, sid) / "archive" / "rejected" / "long.txt").is_file, 120, "kept")
        drop(inbox, "short.txt", "/note short enough\n")
        wait_until(lambda: events(root, sid, "user.note"), 120, "the note under the limit")
        wait_done(root, sid)


def test_a_line_another_process_appends_with_crumbs_writer_is_reduced_and_its_effects_run(root, daemon):
    sid = crumb(root, "pitch", "breakout with 3 lives").stdout.strip()
    wait_done(root, sid)
    script = ("import sys; from pathlib import Path; from crumb.store.writer import TranscriptWriter; "
              "TranscriptWriter(Path(sys.argv[1]), sys.argv[2], role='inbox')"
              ".append('user.redo', {'actor': 'builder'}, from_='user', body='redo from a script')")
    subprocess.run([sys.executable, "-c", script, str(paths.transcript_path(root, sid)), sid], check=True, timeout=60)
    final = wait_until(lambda: (s := state(root, sid)).round == 2 and s.done is not None and s, 120, "the rebuild")
    assert final.done["reason"] == "pass"
    assert [e["data"]["actor"] for e in events(root, sid, "user.redo")] == ["builder"]


def test_effects_of_different_sessions_run_at_the_same_time(root, daemon, gemini):  # noqa: F811
    gemini.script.always = "hang"  # the real gemini CLI asks its model server, which never answers
    stuck = crumb(root, "pitch", "snake", "--role", "planner=gemini").stdout.strip()
    wait_until(lambda: gemini.server.role_requests("planner"), 120, "the planner's gemini to ask its model")
    other = crumb(root, "pitch", "pong to 5 points").stdout.strip()
    assert wait_done(root, other).done["reason"] == "pass"  # while the first session's planner still runs
    assert state(root, stuck).done is None and not events(root, stuck, "spec")
    drop(paths.session_inbox(root, stuck), "stop.txt", "/cancel\n")
    assert wait_done(root, stuck, timeout=60).done["reason"] == "cancelled"


def test_after_a_crash_a_paused_session_stays_paused_and_an_ended_one_stays_ended(root, qa_runner):
    ended = crumb(root, "pitch", "whack-a-mole for 30 seconds").stdout.strip()
    held = crumb(root, "pitch", "memory cards with 8 pairs").stdout.strip()
    drop(paths.session_inbox(root, held), "pause.txt", "/pause\n")  # waiting before the daemon starts: no race
    proc = start_watch(root)
    try:
        wait_done(root, ended)
        wait_until(lambda: (s := state(root, held)).paused and s.deferred and not s.pending, 60, "held, nothing running")
    finally:
        kill9(proc)
    ended_seq, held_seq = state(root, ended).last_seq, state(root, held).last_seq
    with RunningDaemon(root, qa_runner):
        drop(paths.session_inbox(root, held), "note.txt", "/note still there?\n")
        wait_until(lambda: events(root, held, "user.note"), 120, "the restarted daemon took the note")
        after = [e["kind"] for e in events(root, held) if e["seq"] > held_seq]
        assert after == ["user.note"]  # nothing held back was dispatched
        assert state(root, held).paused and state(root, held).done is None
        assert state(root, ended).last_seq == ended_seq  # nothing done again
        drop(paths.session_inbox(root, held), "resume.txt", "/resume\n")
        assert wait_done(root, held).done["reason"] == "pass"


def test_the_polling_backend_runs_pitches_and_steering_too(root, qa_runner):
    with RunningDaemon(root, qa_runner, poll=True) as running:
        assert running.daemon.watcher.backend == "poll"
        drop(root / "inbox", "idea.md", "pong to 3 points\n")
        sid = wait_until(lambda: sessions(root) and sessions(root)[0], 120, "a session")
        assert wait_done(root, sid).done["reason"] == "pass"
        drop(paths.session_inbox(root, sid), "note.txt", "/note polled\n")
        wait_until(lambda: events(root, sid, "user.note"), 120, "the polled note")
