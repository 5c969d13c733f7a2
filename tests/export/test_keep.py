"""`crumb release` / `versions`, `crumb rm` / `gc`, `crumb open` and shell completion, on real session
folders and real processes: copies of one real session, the real daemon lock, a real Studio, click's
own completion protocol."""

from __future__ import annotations

import hashlib
import json
import stat
import tarfile
from pathlib import Path
from typing import Any

import pytest

from crumb.daemon.lock import DaemonLock
from crumb.reducer.replay import replay_file
from crumb.store import paths
from crumb.store.reader import read_events
from crumb.store.writer import AppendRefused, TranscriptWriter
from tests.daemon.conftest import RunningDaemon
from tests.export.conftest import Made, crumb
from tests.wait import wait_until


def releases(transcript: Path) -> list[dict[str, Any]]:
    return [e for e in read_events(transcript, validate=True) if e["kind"] == "release"]


def test_release_copies_every_file_and_the_daemon_records_what_it_measures(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    transcript = paths.transcript_path(root, made.session)
    inbox = paths.session_inbox(root, made.session)
    before = replay_file(transcript)
    with RunningDaemon(root, None):
        first = crumb("--root", str(root), "release", made.session, "--label", "first cut", "--json")
        assert first.returncode == 0, first.stderr
        assert "no crumb daemon" not in first.stderr
        v1 = json.loads(first.stdout)
        assert v1["name"] == "v1" and v1["parent"] is None and v1["verdict"] == "PASS" and v1["label"] == "first cut"
        game = paths.game_dir(root, made.session)
        assert len(v1["files"]) == len([p for p in game.rglob("*") if p.is_file()]) > 1
        for f in v1["files"]:  # every file, its bytes and its hash
            copy = root / "versions" / "v1" / "game" / f["path"]
            assert copy.read_bytes() == (game / f["path"]).read_bytes()
            assert hashlib.sha256(copy.read_bytes()).hexdigest() == f["sha256"]
        build = [e for e in read_events(transcript) if e["kind"] == "build"][-1]
        assert v1["build"] == build["id"] and v1["session"] == made.session and v1["scorecard"]
        wait_until(lambda: len(releases(transcript)) == 1, 30, "the daemon records v1")

        again = crumb("--root", str(root), "release", made.session, "--as", "v1")
        assert again.returncode == 1 and "version v1 exists" in again.stderr
        second = crumb("--root", str(root), "release", made.session[-4:], "--json")
        assert json.loads(second.stdout)["name"] == "v2" and json.loads(second.stdout)["parent"] == "v1"
        wait_until(lambda: len(releases(transcript)) == 2, 30, "the daemon records v2")
        wait_until(lambda: not any(inbox.iterdir()), 30, "the inbox files archived")

    recorded = releases(transcript)
    assert [(e["data"]["name"], e["from"]) for e in recorded] == [("v1", "user"), ("v2", "user")]
    manifest = (root / "versions" / "v1" / "manifest.json").read_bytes()
    data = recorded[0]["data"]
    assert data["manifest_sha256"] == hashlib.sha256(manifest).hexdigest()  # hashed by the daemon: the file
    asked = paths.archive_dir(root, made.session) / data["source"]["name"]  # the CLI dropped names v1 only
    assert asked.read_text() == "/release v1\n" and data["line"] == 1
    assert (data["build"], data["verdict"], data["files"], data["label"], data["path"]) == (
        v1["build"], "PASS", len(v1["files"]), "first cut", "versions/v1")
    after = replay_file(transcript)  # the reducer counts a release and nothing else
    assert (after.events, after.last_seq) == (before.events + 2, before.last_seq + 2)
    assert {**after.to_dict(), "events": 0, "last_seq": 0} == {**before.to_dict(), "events": 0, "last_seq": 0}
    assert crumb("--root", str(root), "replay", made.session, "--strict").returncode == 0

    (root / "versions" / "v2" / "game" / "index.html").write_text("edited")
    listed = crumb("--root", str(root), "versions")
    lines = listed.stdout.splitlines()
    assert lines[0].startswith("v1 ") and lines[1].strip().startswith("└ v2") and "first cut" in lines[0]
    assert "changed since release: index.html" in lines[1]
    as_json = [json.loads(x) for x in crumb("--root", str(root), "versions", "--json").stdout.splitlines()]
    assert [(v["name"], v["depth"], v["parent"]) for v in as_json] == [("v1", 0, None), ("v2", 1, "v1")]


def test_release_without_a_daemon_keeps_the_version_and_its_record_waits_in_the_inbox(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    transcript = paths.transcript_path(root, made.session)
    before = transcript.read_bytes()
    run = crumb("--root", str(root), "release", made.session)
    assert run.returncode == 0, run.stderr
    assert (root / "versions" / "v1" / "manifest.json").is_file()
    waiting = list(paths.session_inbox(root, made.session).iterdir())
    assert [p.read_text() for p in waiting] == ["/release v1\n"]
    said = " ".join(run.stderr.split())
    assert "version v1 is kept in versions/v1" in said and "no crumb daemon is watching" in said
    assert f"waits in {waiting[0].relative_to(root).as_posix()} until" in said and "watch` runs" in said
    assert transcript.read_bytes() == before  # the CLI never writes the transcript

    with RunningDaemon(root, None):
        recorded = wait_until(lambda: releases(transcript), 30, "the waiting release recorded")
    manifest = (root / "versions" / "v1" / "manifest.json").read_bytes()
    assert recorded[0]["data"]["manifest_sha256"] == hashlib.sha256(manifest).hexdigest()
    assert not waiting[0].exists()
    assert crumb("--root", str(root), "replay", made.session, "--strict").returncode == 0


def test_a_release_that_cannot_be_recorded_is_an_error_event_naming_the_fix(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    transcript = paths.transcript_path(root, made.session)
    for _ in range(3):
        assert crumb("--root", str(root), "release", made.session).returncode == 0
    (root / "versions" / "v1" / "game" / "index.html").write_text("edited after the copy")
    m = json.loads((root / "versions" / "v2" / "manifest.json").read_text())
    (root / "versions" / "v2" / "manifest.json").write_text(json.dumps({**m, "session": "01JA0000000000000000000009"}))
    (root / "versions" / "v3" / "manifest.json").write_text("{not json")
    assert crumb("--root", str(root), "steer", made.session, "/release v9").returncode == 0
    before = len(list(read_events(transcript)))
    with RunningDaemon(root, None) as daemon:
        new = wait_until(lambda: (e := list(read_events(transcript))[before:]) and len(e) >= 4 and e, 30,
                         "four answers")
        assert daemon.thread.is_alive()
    assert [e["kind"] for e in new] == ["error"] * 4
    messages = " | ".join(e["data"]["message"] for e in new)
    for words in ("versions/v1/game/index.html differs from its manifest",
                  "versions/v2 was released from session 01JA0000000000000000000009, not from this one",
                  "versions/v3/manifest.json is not JSON",
                  "no version v9 to record", f"crumb release {made.session} --as v9"):
        assert words in messages, messages
    assert f"crumb release {made.session} --as NEW-NAME" in messages  # what to do instead
    assert all(e["data"]["source"]["name"] and e["data"]["line"] == 1 for e in new)
    assert crumb("--root", str(root), "replay", made.session, "--strict").returncode == 0


def test_only_the_dispatchers_writer_may_append_a_release(made: Made, tmp_path: Path) -> None:
    """The CLI and any other tool write inbox files (invariant 4): an inbox writer is refused a release."""
    root = made.copy(tmp_path / "root")
    transcript = paths.transcript_path(root, made.session)
    with pytest.raises(AppendRefused, match="release carries ground truth"):
        TranscriptWriter(transcript, made.session, role="inbox").append("release", {
            "name": "v1", "path": "versions/v1", "build": "01JA0000000000000000000005", "files": 1,
            "manifest_sha256": "0" * 64}, from_="user")


def truncated(made: Made, root: Path, keep: int) -> None:
    """The session as a crash would leave it: its transcript's first `keep` lines (a real prefix)."""
    transcript = paths.transcript_path(root, made.session)
    transcript.write_text("".join(transcript.read_text().splitlines(keepends=True)[:keep]))


def test_rm_refuses_a_running_session_shows_a_dry_run_and_archives(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    folder = paths.session_dir(root, made.session)
    dry = crumb("--root", str(root), "rm", made.session, "--dry-run")
    assert dry.returncode == 0 and dry.stdout.startswith(f"would remove {made.session}") and folder.is_dir()

    truncated(made, root, 9)  # the build is in, QA has not answered: not settled
    lock = DaemonLock(root)
    lock.acquire()  # a daemon holds this root (the lock `crumb watch` takes)
    try:
        held = crumb("--root", str(root), "rm", made.session, "--force", "--yes")
        assert held.returncode == 1 and "the daemon is working on it" in held.stderr and folder.is_dir()
    finally:
        lock.release()
    idle = crumb("--root", str(root), "rm", made.session, "--yes")
    assert idle.returncode == 1 and "would resume it; --force" in idle.stderr and folder.is_dir()

    archived = crumb("--root", str(root), "rm", made.session, "--force", "--archive")  # stdin not a TTY: not asked
    assert archived.returncode == 0, archived.stderr
    assert not folder.exists() and paths.list_sessions(root) == []
    tar = root / "archive" / f"{made.session}.tar.gz"
    with tarfile.open(tar) as t:
        names = t.getnames()
    assert f"{made.session}/transcript.jsonl" in names and f"{made.session}/artifacts/game/index.html" in names
    assert [p.name for p in (root / "sessions").iterdir()] == []  # nothing half-removed left behind


def test_gc_takes_only_settled_sessions_past_the_age(made: Made, tmp_path: Path) -> None:
    root = made.copy(tmp_path / "root")
    folder = paths.session_dir(root, made.session)
    young = crumb("--root", str(root), "gc", "--older-than", "30d", "--dry-run")
    assert young.returncode == 0 and "would keep" in young.stdout and "newer than the cutoff" in young.stdout
    kept = crumb("--root", str(root), "gc", "--older-than", "0s", "--keep-passed", "--dry-run", "--json")
    assert json.loads(kept.stdout)["would"] == "keep" and "--keep-passed" in json.loads(kept.stdout)["reason"]
    would = crumb("--root", str(root), "gc", "--older-than", "0s", "--dry-run")
    assert f"would remove  {made.session}" in would.stdout and folder.is_dir()
    bad = crumb("--root", str(root), "gc", "--older-than", "soon")
    assert bad.returncode == 2 and "30d" in bad.stderr

    other = made.copy(tmp_path / "other")
    truncated(made, other, 9)
    assert "not settled" in crumb("--root", str(other), "gc", "--older-than", "0s", "--dry-run").stdout
    assert crumb("--root", str(other), "gc", "--older-than", "0s").returncode == 0
    assert paths.session_dir(other, made.session).is_dir()  # a session not settled is never collected

    gone = crumb("--root", str(root), "gc", "--older-than", "0s", "--archive")
    assert gone.returncode == 0, gone.stderr
    assert not folder.exists() and (root / "archive" / f"{made.session}.tar.gz").is_file()


def test_open_prints_the_game_without_a_display_and_runs_the_browser_named_in_BROWSER(made: Made, tmp_path: Path) -> None:
    game_uri = (paths.game_dir(made.root, made.session) / "index.html").resolve().as_uri()
    headless = {"DISPLAY": "", "WAYLAND_DISPLAY": "", "BROWSER": ""}
    printed = crumb("--root", str(made.root), "open", made.session[-6:], env=headless)
    assert printed.returncode == 0 and printed.stdout.strip() == game_uri
    assert crumb("--root", str(made.root), "open", made.session, "--print").stdout.strip() == game_uri

    seen = tmp_path / "seen.txt"
    fake = tmp_path / "browser.sh"
    fake.write_text(f'#!/bin/sh\necho "$1" > {seen}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    opened = crumb("--root", str(made.root), "open", made.session, env={**headless, "BROWSER": str(fake)})
    assert opened.returncode == 0, opened.stderr
    assert seen.read_text().strip() == game_uri  # webbrowser ran the user's browser with the game


def test_open_studio_finds_a_running_studio_of_this_root(made: Made, tmp_path: Path) -> None:
    import urllib.request

    from crumb.studio.server import Studio

    studio = Studio(made.root, port=0).start()
    try:
        run = crumb("--root", str(made.root), "open", made.session, "--studio", "--print", "--port", str(studio.port))
        url = run.stdout.strip()
        assert run.returncode == 0 and url == f"http://127.0.0.1:{studio.port}/s/{made.session}"
        with urllib.request.urlopen(url, timeout=10) as reply:
            assert reply.status == 200
    finally:
        studio.request_stop()


def test_completion_scripts_come_from_click_and_complete_real_sessions(made: Made) -> None:
    for shell, marker in (("bash", "complete -o nosort -F _crumb_completion crumb"), ("zsh", "#compdef crumb"),
                          ("fish", "complete --no-files --command crumb")):
        script = crumb(env={"_CRUMB_COMPLETE": f"{shell}_source"})
        assert script.returncode == 0 and marker in script.stdout, (shell, script.stdout[:300])

    def bash(words: str) -> list[str]:
        env = {"_CRUMB_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        out = crumb(env=env).stdout.splitlines()
        return [line.partition(",")[2] for line in out if line]

    prefix = made.session[:4].lower()  # any case: ids are upper-case ULIDs
    assert bash(f"crumb --root {made.root} status {prefix}") == [made.session]
    assert bash(f"crumb --root {made.root} export {made.session[:6]}") == [made.session]
    assert bash(f"crumb --root {made.root} tail ZZZZ") == []
    assert "export" in bash("crumb ex") and "gc" in bash("crumb g")
    assert bash("crumb pitch x --preset lo") == ["local"]
    assert bash("crumb pitch x --fault wrong") == ["wrongtimer", "wronggenre", "wrongnumbers"]
    assert bash("crumb pitch x --role bui") == ["builder="]
    assert bash("crumb pause S b") == ["builder"]
    zsh = crumb(env={"_CRUMB_COMPLETE": "zsh_complete", "COMP_WORDS": f"crumb --root {made.root} status {prefix}",
                     "COMP_CWORD": "4"}).stdout.splitlines()
    assert zsh[:3] == ["plain", made.session, "60-second snake"]  # the id, described by its pitch
