"""Drive the command line as a person does: `python -m crumb --root R ...` in a real subprocess."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

from crumb.store import paths
from crumb.store.writer import TranscriptWriter
from tests.badinput.corpus import Case, assert_names, one_line

GOOD = "01JA0000000000000000000001"
DAMAGED = "01JA0000000000000000000002"


def crumb(root: Path, args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def snapshot(root: Path) -> dict[str, str]:
    """Every file under root with its sha256: what the command must leave as it was."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink() and ".crumb" not in p.parts}


def cli_root(root: Path) -> Path:
    """A root with one healthy session and one whose transcript has a damaged line in the middle."""
    (root / "inbox").mkdir(parents=True)
    for sid in (GOOD, DAMAGED):
        w = TranscriptWriter(paths.transcript_path(root, sid), sid, fsync="never")
        w.append("session.start", {"settings": {}, "preset": "local"}, from_="daemon")
        w.append("goal", {"pitch": "a snake game"}, from_="user")
        w.append("note", {"text": "still here"}, from_="daemon")
    t = paths.transcript_path(root, DAMAGED)
    lines = t.read_bytes().splitlines(keepends=True)
    t.write_bytes(lines[0] + b'{"v":1,"seq":2,"kind":"go\xffal"}\n' + lines[2])
    return root


def last_error(stderr: str) -> str:
    """Click prints usage lines first; the error a person reads is the last line, starting 'Error:'."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert lines, "nothing on stderr"
    assert "Traceback" not in stderr, stderr
    assert lines[-1].startswith("Error:"), stderr
    return one_line(lines[-1])


def run_cli(root: Path, case: Case) -> None:
    inp = case.input
    before = snapshot(root)
    args = [a.replace("{GOOD}", GOOD).replace("{DAMAGED}", DAMAGED) for a in inp["args"]]
    proc = crumb(root, args)
    assert proc.returncode == int(case.outcome), (proc.returncode, proc.stderr)
    assert_names(last_error(proc.stderr), case.expect)
    assert snapshot(root) == before, "the command changed or lost files"


def run_config(root: Path, case: Case) -> None:
    """Write the case's crumb.toml / presets, then every listed command must refuse, naming the file."""
    inp: dict[str, Any] = case.input
    (root / "inbox").mkdir(parents=True)
    (root / "inbox" / "pitch.txt").write_text("a snake game\n")
    for rel, text in inp["files"].items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8") if isinstance(text, str) else bytes(text))
    if "raw" in inp:
        (root / inp["raw"]["path"]).write_bytes(bytes.fromhex(inp["raw"]["hex"]))
    before = snapshot(root)
    procs = [(args, subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), *args], text=True,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
             for args in inp["commands"]]  # side by side: each must refuse on its own
    try:
        for args, proc in procs:
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{args} did not refuse the bad config: still running after 60 s") from None
            assert proc.returncode == int(case.outcome), (args, proc.returncode, out, err)
            assert_names(last_error(err), case.expect)
    finally:
        for _, proc in procs:
            if proc.poll() is None:  # a daemon that wrongly started: ours to stop
                proc.kill()
                proc.wait(timeout=30)
    assert snapshot(root) == before, "a refusing command changed or lost files (a pitch must stay in the inbox)"
