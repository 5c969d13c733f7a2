"""The transcript's hash chain (issue 22, part 2): a record that shows when it was changed.

One real session made by `crumb run` for the module; each test tampers with a copy of it the way a
person with the files could, and `crumb verify` must name exactly the line (or artifact) touched, and
nothing else. The daemon leaves a broken session alone, saying why, while another session runs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from crumb.store import paths
from crumb.store.chain import line_hash
from crumb.store.seal import check_chain
from crumb.store.writer import TranscriptWriter
from tests.export.conftest import crumb


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("chain-root")
    run = crumb("--root", str(root), "run", "60-second snake", "--json", timeout=600)
    assert run.returncode == 0, run.stderr
    return root, str(json.loads(run.stdout)["session"])


def copy_of(made: tuple[Path, str], to: Path) -> tuple[Path, str, Path]:
    root, sid = made
    shutil.copytree(root / "sessions", to / "sessions")
    return to, sid, paths.transcript_path(to, sid)


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def index_of(lines: list[bytes], kind: str) -> int:
    """0-based index of the first line of `kind` (the tests tamper with lines in the middle)."""
    at = next(i for i, raw in enumerate(lines) if json.loads(raw)["kind"] == kind)
    assert 1 < at < len(lines) - 3, f"{kind} is not in the middle of the transcript"
    return at


def verify(root: Path, sid: str, *args: str) -> tuple[int, str, list[str]]:
    out = crumb("--root", str(root), "verify", sid, *args)
    return out.returncode, out.stdout, out.stderr.strip().splitlines()


def test_a_session_is_sealed_line_by_line_from_its_id(made: tuple[Path, str]) -> None:
    root, sid = made
    lines = lines_of(paths.transcript_path(root, sid))
    events = [json.loads(raw) for raw in lines]
    assert events[0]["prev"] == sid
    for before, raw in zip(lines, events[1:], strict=False):
        assert raw["prev"] == hashlib.sha256(before.rstrip(b"\n")).hexdigest()
    code, out, err = verify(root, sid)
    assert code == 0 and err == [], err
    head = hashlib.sha256(lines[-1].rstrip(b"\n")).hexdigest()
    assert f"sealed ({len(lines)} lines), head {head}" in out
    sealed = crumb("--root", str(root), "seal", sid)
    assert sealed.returncode == 0 and sealed.stdout.strip() == head
    again = crumb("--root", str(root), "replay", sid, "--verify")
    assert again.returncode == 0 and "phase     done" in again.stdout, again.stderr


Tamper = Callable[[list[bytes]], tuple[list[bytes], int, str]]


def forge(lines: list[bytes]) -> tuple[list[bytes], int, str]:
    """A qa.result's verdict turned round: the line that follows it no longer matches."""
    at = index_of(lines, "qa.result")
    ev = json.loads(lines[at])
    ev["data"]["ok"] = not ev["data"]["ok"]
    forged = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    assert forged != lines[at]
    lines[at] = forged
    return lines, at + 1, "changed after it was written"


def remove(lines: list[bytes]) -> tuple[list[bytes], int, str]:
    at = len(lines) // 2
    del lines[at]
    return lines, at + 1, f"the line(s) with seq {at + 1} were removed"


def swap(lines: list[bytes]) -> tuple[list[bytes], int, str]:
    at = len(lines) // 2
    lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return lines, at + 1, f"lines {at + 1} and {at + 2} were swapped"


def reseq(lines: list[bytes]) -> tuple[list[bytes], int, str]:
    at = index_of(lines, "build")
    lines[at] = lines[at].replace(f'"seq":{at + 1},'.encode(), f'"seq":{at + 2},'.encode(), 1)
    return lines, at + 1, "its seq was changed after it was written"


@pytest.mark.parametrize("tamper", [forge, remove, swap, reseq], ids=["forged", "removed", "swapped", "reseq"])
def test_verify_names_the_line_tampered_with_and_nothing_else(made: tuple[Path, str], tmp_path: Path,
                                                              tamper: Tamper) -> None:
    root, sid, path = copy_of(made, tmp_path)
    lines, line, what = tamper(lines_of(path))
    path.write_bytes(b"".join(lines))
    code, out, err = verify(root, sid)
    assert code == 1
    assert len(err) == 1, err  # one break named: not the lines after it, not the artifacts
    assert err[0].startswith(f"{path}:{line}: hash chain broken: ") and what in err[0], err
    assert f"broken at line {line}" in out
    replayed = crumb("--root", str(root), "replay", sid, "--verify")
    assert replayed.returncode == 1 and f"{path}:{line}: hash chain broken" in replayed.stderr
    assert "phase" not in replayed.stdout  # nothing replayed from a broken record


def test_a_replaced_artifact_is_named_with_both_hashes(made: tuple[Path, str], tmp_path: Path) -> None:
    root, sid, path = copy_of(made, tmp_path)
    build = [json.loads(raw) for raw in lines_of(path) if json.loads(raw)["kind"] == "build"][-1]
    entry = next(f for f in build["data"]["manifest"]["files"] if f["path"] == "index.html")
    game = paths.session_dir(root, sid) / build["data"]["manifest"]["dir"] / "index.html"
    game.write_text(game.read_text() + "<!-- replaced -->")
    code, out, err = verify(root, sid)
    assert code == 1 and "sealed" in out
    assert err == [f"{paths.session_dir(root, sid)}/artifacts/game/index.html: sha256 "
                   f"{hashlib.sha256(game.read_bytes()).hexdigest()[:16]}…, but the build at line {build['seq']} "
                   f"recorded {entry['sha256'][:16]}…: replaced after it was recorded"], err


def test_a_replaced_filmstrip_frame_is_named_with_the_qa_result_that_recorded_it(made: tuple[Path, str],
                                                                                 tmp_path: Path) -> None:
    root, sid, path = copy_of(made, tmp_path)
    qa = [json.loads(raw) for raw in lines_of(path) if json.loads(raw)["kind"] == "qa.result"][-1]
    frame = qa["data"]["filmstrip"]["frames"][0]
    target = paths.session_dir(root, sid) / frame["path"]
    target.write_bytes(b"not the frame QA took")
    code, _, err = verify(root, sid)
    assert code == 1
    assert err == [f"{paths.session_dir(root, sid)}/{frame['path']}: sha256 "
                   f"{hashlib.sha256(target.read_bytes()).hexdigest()[:16]}…, but the qa.result at line {qa['seq']} "
                   f"recorded {frame['sha256'][:16]}…: replaced after it was recorded"], err


def test_a_published_seal_catches_a_chain_rewritten_to_the_end(made: tuple[Path, str], tmp_path: Path) -> None:
    """Edit a line and re-hash every line after it: the chain holds, only the published head shows it."""
    root, sid, path = copy_of(made, tmp_path)
    head = crumb("--root", str(root), "seal", sid).stdout.strip()
    lines, at, _ = forge(lines_of(path))
    for i in range(at, len(lines)):
        ev = json.loads(lines[i])
        ev["prev"] = line_hash(lines[i - 1].rstrip(b"\n"))
        lines[i] = json.dumps(ev, separators=(",", ":")).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    assert verify(root, sid)[0] == 0
    code, _, err = verify(root, sid, "--seal", head)
    assert code == 1 and err == [f"{path}: the published seal is not the hash of any line: the transcript was "
                                 "rewritten (or the seal is another session's)"]


def test_an_old_transcript_replays_unsealed_and_new_lines_seal_it(made: tuple[Path, str], tmp_path: Path) -> None:
    root, sid, path = copy_of(made, tmp_path)
    old = []
    for raw in lines_of(path):
        ev = json.loads(raw)
        del ev["prev"]
        old.append(json.dumps(ev, separators=(",", ":")).encode() + b"\n")
    path.write_bytes(b"".join(old))
    code, out, err = verify(root, sid)
    assert code == 0 and "unsealed" in out and err == []
    assert crumb("--root", str(root), "replay", sid).returncode == 0
    assert crumb("--root", str(root), "seal", sid).returncode == 1
    TranscriptWriter(path, sid, fsync="never").append("note", {"text": "appended by a newer CRUMB"})
    n = len(old) + 1
    assert json.loads(lines_of(path)[-1])["prev"] == hashlib.sha256(b"".join(old)).hexdigest()
    code, out, err = verify(root, sid)
    assert code == 0 and f"sealed from line {n}" in out, (out, err)
    # the old lines are sealed now too: changing one breaks the chain at the first sealed line
    mixed = lines_of(path)
    mixed[3] = mixed[3].replace(b'"from":', b'"from" :', 1)
    path.write_bytes(b"".join(mixed))
    TranscriptWriter(path, sid, fsync="never").append("note", {"text": "one more"})
    code, _, err = verify(root, sid)
    assert code == 1 and err[0].startswith(f"{path}:{n - 1}: hash chain broken: lines 1 to {n - 1}"), err


def test_the_daemon_leaves_a_broken_session_alone_and_runs_the_others(made: tuple[Path, str], tmp_path: Path) -> None:
    root, sid, path = copy_of(made, tmp_path)
    lines, line, _ = forge(lines_of(path))
    path.write_bytes(b"".join(lines))
    steer = paths.session_inbox(root, sid) / "note.txt"
    steer.parent.mkdir(parents=True, exist_ok=True)
    steer.write_text("/redo builder\n")
    ran = crumb("--root", str(root), "run", "-v", "--json", "60-second whack-a-mole", timeout=600)
    assert ran.returncode in (0, 1, 3, 4), ran.stderr
    said = [s for s in ran.stderr.splitlines() if f"{sid[-6:]} left alone: " in s]
    assert len(said) == 1 and f"{path}:{line}: hash chain broken" in said[0] and f"crumb verify {sid}" in said[0]
    assert any(f"steering file {steer.name} left in its inbox" in s for s in ran.stderr.splitlines())
    other = json.loads(ran.stdout)["session"]
    assert other != sid and json.loads(lines_of(paths.transcript_path(root, other))[-1])["kind"] in ("done", "audit")
    assert path.read_bytes() == b"".join(lines), "the daemon appended to a transcript whose chain is broken"
    assert steer.exists(), "a steering file for the broken session was consumed"


def test_a_fork_chains_from_its_own_id(made: tuple[Path, str], tmp_path: Path) -> None:
    root, sid, _ = copy_of(made, tmp_path)
    forked = crumb("--root", str(root), "fork", sid, "--at", "spec", "--run", "--json", timeout=600)
    assert forked.returncode in (0, 1, 3, 4), forked.stderr
    new = next(s for s in paths.list_sessions(root) if s != sid)
    first = json.loads(lines_of(paths.transcript_path(root, new))[0])
    assert first["prev"] == new
    assert check_chain(paths.transcript_path(root, new)).status == "sealed"
