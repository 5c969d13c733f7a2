"""Drive the two inbox entry points through a real daemon: pitch files in inbox/, steering files in
sessions/<id>/inbox/. Files are written the way tools write them (temp elsewhere, then one rename)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from crumb.daemon.files import why_name
from crumb.store import paths
from crumb.store.reader import read_events
from tests.badinput.corpus import Case, assert_names, one_line
from tests.daemon.conftest import RunningDaemon, allow_command
from tests.wait import wait_until

HANG_AGENT = """#!{python}
# A `command` agent that never answers: keeps a session busy (and cheap) until it is cancelled.
import signal, sys
sys.stdin.read()
signal.pause()
"""


def events(root: Path, session: str, kind: str | None = None) -> list[dict[str, Any]]:
    path = paths.transcript_path(root, session)
    if not path.exists():
        return []
    return [e for e in read_events(path) if kind is None or e["kind"] == kind]


class InboxWorld:
    """One daemon on one root for every inbox case, with a busy session and a finished one."""

    def __init__(self, root: Path, qa_runner: Any) -> None:
        self.root = root
        (root / "inbox").mkdir(parents=True)
        self.staging = root / "staging"
        self.staging.mkdir()
        self.hang = root / "hang-agent"
        self.hang.write_text(HANG_AGENT.format(python=sys.executable))
        self.hang.chmod(0o755)
        allow_command(root, str(self.hang))  # the pitch files below bind it, as a person at the machine allowed
        self.running = RunningDaemon(root, qa_runner)
        self.n = 0
        self.live = ""
        self.done = ""

    def __enter__(self) -> InboxWorld:
        self.running.__enter__()
        self.live = self.pitch_session("live.txt", "a snake game that never gets built")
        wait_until(lambda: any(e["data"].get("adapter") == "command" for e in events(self.root, self.live, "effect.started")),
                 30, "the never-answering planner to start")
        self.done = self.pitch_session("done.txt", "a pong game to be cancelled")
        self.cancel(self.done)
        return self

    def __exit__(self, *exc: object) -> None:
        self.running.__exit__(*exc)

    # ------------------------------------------------------------ helpers

    def alive(self) -> bool:
        return self.running.thread.is_alive()

    def fill(self, text: str) -> str:
        return text.replace("{HANG}", f"command:{self.hang}")

    def pitch_session(self, name: str, pitch: str) -> str:
        self.write(self.root / "inbox", name, self.fill(f"---\nplanner: {{HANG}}\n---\n{pitch}\n").encode())
        return wait_until(lambda: self.session_of(name), 30, f"a session from {name}")

    def cancel(self, session: str) -> None:
        self.write(paths.session_inbox(self.root, session), f"cancel-{self.next()}.txt", b"/cancel\n")
        wait_until(lambda: events(self.root, session, "done"), 30, f"{session} cancelled")

    def next(self) -> int:
        self.n += 1
        return self.n

    def session_of(self, name: str) -> str | None:
        for session in paths.list_sessions(self.root):
            for goal in events(self.root, session, "goal"):
                if goal["data"].get("source", {}).get("name") == name:
                    return session
        return None

    def write(self, folder: Path, name: str, data: bytes) -> Path:
        """Write in the staging folder, then rename onto the target: a complete file appears at once."""
        folder.mkdir(parents=True, exist_ok=True)
        tmp = self.staging / f"f{self.next()}"
        tmp.write_bytes(data)
        os.replace(tmp, folder / name)
        return folder / name

    def place(self, folder: Path, inp: dict[str, Any]) -> Path:
        """Put the case's input in `folder`: a file, or a FIFO, a symlink, a folder, an empty file."""
        name, special = inp["name"], inp.get("special")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        if special == "fifo":
            os.mkfifo(target)
        elif special == "symlink":
            os.symlink(inp["target"], target)
        elif special == "dir":
            target.mkdir()
            (target / "pitch.txt").write_text("a game inside a folder\n")
        elif special == "empty":
            target.touch()
        else:
            self.write(folder, name, content(inp, self.fill))
        return target


def content(inp: dict[str, Any], fill: Any = lambda t: t) -> bytes:
    if "hex" in inp:
        data = bytes.fromhex(inp["hex"])
    else:
        data = fill(inp.get("text", "")).encode(inp.get("encoding", "utf-8"))
    return data * int(inp.get("repeat", 1))


def read_complete(path: Path) -> str | None:
    """A .why.txt once it exists and says something."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return text if text.endswith("\n") else None


def original_of(inp: dict[str, Any], fill: Any = lambda t: t) -> bytes | None:
    """The bytes a regular file must still hold afterwards (None for pipes, links, folders)."""
    special = inp.get("special")
    return b"" if special == "empty" else None if special else content(inp, fill)


def same_thing(kept: Path, inp: dict[str, Any], original: bytes | None) -> None:
    """What was dropped is still there, byte for byte (or still the same link / pipe)."""
    st = os.lstat(kept)
    special = inp.get("special")
    if special == "symlink":
        assert stat.S_ISLNK(st.st_mode) and os.readlink(kept) == inp["target"], f"{kept} is no longer the link"
    elif special == "fifo":
        assert stat.S_ISFIFO(st.st_mode), f"{kept} is no longer the pipe"
    elif special == "dir":
        assert stat.S_ISDIR(st.st_mode) and (kept / "pitch.txt").read_text() == "a game inside a folder\n"
    else:
        assert kept.read_bytes() == original, f"{kept} changed"


# ---------------------------------------------------------------- pitch files


def run_pitch(world: InboxWorld, case: Case) -> None:
    inp = case.input
    inbox = world.root / "inbox"
    before = set(paths.list_sessions(world.root))
    original = original_of(inp, world.fill)
    name = inp["name"]
    world.place(inbox, inp)
    if case.outcome == "rejected":
        why, kept = inbox / "rejected" / why_name(name), inbox / "rejected" / name
        # the reason is placed before the file (files.archive): wait for the file, and its reason is there too
        wait_until(lambda: os.path.lexists(kept), 30, f"{kept.name} kept in rejected/")
        message = one_line(wait_until(lambda: read_complete(why), 30, f"{why.name}"))
        assert_names(message, case.expect)
        same_thing(kept, inp, original)
        assert not os.path.lexists(inbox / name), "the rejected file was left in the inbox"
        assert set(paths.list_sessions(world.root)) == before, "a rejected pitch created a session"
    elif case.outcome == "ignored":
        sentinel = f"sentinel-{world.next()}.txt"
        world.write(inbox, sentinel, b"   \n")  # handled after the case's file: a barrier, not a sleep
        wait_until(lambda: read_complete(inbox / "rejected" / why_name(sentinel)), 30, "the sentinel's rejection")
        same_thing(inbox / name, inp, original)
        assert not os.path.lexists(inbox / "rejected" / name), "an ignored entry was moved"
        assert set(paths.list_sessions(world.root)) == before, "an ignored entry created a session"
    elif case.outcome == "session":
        session = wait_until(lambda: world.session_of(name), 30, f"the session of {name!r}")
        goal = events(world.root, session, "goal")[0]
        assert goal["data"]["pitch"] == inp["pitch"], "the pitch was not recorded as written"
        wait_until(lambda: os.path.lexists(paths.session_dir(world.root, session) / "archive" / name), 30, "archive")
        assert (paths.session_dir(world.root, session) / "archive" / name).read_bytes() == original
        if case.expect:
            errors = [e["data"]["message"] for e in events(world.root, session, "error")]
            assert errors, "no error event says why the preset was not used"
            assert_names(one_line(errors[0]), case.expect)
        world.cancel(session)
    else:
        raise AssertionError(f"unknown pitch outcome {case.outcome!r}")
    assert world.alive(), "the daemon died"


# ---------------------------------------------------------------- steering files


def _error_for(world: InboxWorld, session: str, name: str) -> str | None:
    """The error event this file caused: it names the file as its source, or answers its user event."""
    evs = events(world.root, session)
    mine = {e["id"] for e in evs if e["kind"].startswith("user.") and e["data"].get("source", {}).get("name") == name}
    for e in evs:
        if e["kind"] != "error":
            continue
        data = e["data"]
        if (data.get("source") or {}).get("name") == name or data["message"].startswith((f"{name}:", f"{name} ")):
            return data["message"]
        if e.get("effect") and e["effect"].rsplit(".", 1)[0] in mine:
            return data["message"]
    return None


def run_steer(world: InboxWorld, case: Case) -> None:
    inp = case.input
    session = world.live if inp.get("session", "live") == "live" else world.done
    sdir = paths.session_dir(world.root, session)
    name = inp["name"]
    original = original_of(inp)
    count_before = len(events(world.root, session))
    world.place(paths.session_inbox(world.root, session), inp)
    assert case.outcome == "error", f"unknown steering outcome {case.outcome!r}"
    message = wait_until(lambda: _error_for(world, session, name), 30, f"an error event for {name}")
    assert_names(one_line(message), case.expect)
    kept = wait_until(lambda: next((p for p in (sdir / "archive" / name, sdir / "archive" / "rejected" / name)
                                  if os.path.lexists(p)), None), 30, f"{name} archived")
    same_thing(kept, inp, original)
    recorded = [e["kind"] for e in events(world.root, session)[count_before:]
                if (e["data"].get("source") or {}).get("name") == name]
    for kind in inp.get("also", []):
        assert kind in recorded, f"the valid line ({kind}) of {name} was lost; recorded {recorded}"
    assert world.alive(), "the daemon died"
