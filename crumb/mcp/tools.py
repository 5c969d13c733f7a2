"""What each MCP tool does, as plain functions over a root: pitch, steer, wait, and the reads.

No SDK here, so each is testable alone and the server (server.py) only binds names and descriptions.
A refusal is ToolRefused with one line naming the problem and the fix, as the CLI's `Error:` lines do.
Writes are inbox files only (the pitch into inbox/, a steering line into the session's inbox/), and a
write starts `crumb watch` for the root when none runs, as the Studio's Start button does, so what is
written is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any, TypedDict

from ulid import ULID

from crumb.cli.pitch import settled_or_refused
from crumb.cli.sessions import follow
from crumb.cli.verdict import outcome, settled
from crumb.daemon import rejected
from crumb.daemon.drop import InboxWriteError, drop_inbox_file
from crumb.daemon.lock import daemon_status
from crumb.daemon.spawn import DaemonFailed, start_daemon
from crumb.reducer.replay import replay_file
from crumb.reducer.state import SessionState
from crumb.store import paths
from crumb.store.reader import TranscriptError, read_events

MAX_TEXT = 65_536  # a pitch or a steering message, in bytes (the inbox's default limit too)
MAX_WAIT_S = 300.0  # one wait call; an MCP client's own request timeout is often not much longer
START_WAIT_S = 30.0  # how long pitch waits for the daemon to take the pitch (a cold daemon imports a lot)
MAX_EVENTS = 200
QA_TIMEOUT_S = 300.0


class ToolRefused(Exception):
    """A tool call CRUMB will not act on; str() is the one-line reason and fix."""


class Pitched(TypedDict):
    session: str
    file: str  # the pitch file dropped, root-relative
    phase: str  # where the session stands once the daemon took the pitch
    daemon_started: bool  # this call started `crumb watch` for the root


class Steered(TypedDict):
    session: str
    file: str  # the steering file dropped, root-relative
    daemon_started: bool


class EventLine(TypedDict):
    seq: int
    ts: str
    source: str  # the transcript's `from`: user, planner, builder, qa, verifier, system, ...
    kind: str
    body: str


class SessionLine(TypedDict):
    session: str
    phase: str
    verdict: str | None
    done: str | None
    pitch: str


def _text(value: str, what: str, example: str) -> str:
    value = value.strip()
    if not value:
        raise ToolRefused(f"the {what} is empty: {example}")
    if len(value.encode()) > MAX_TEXT:
        raise ToolRefused(f"the {what} is longer than {MAX_TEXT} bytes: shorten it")
    return value


def _drop(folder: Path, text: str, stem: str) -> Path:
    try:
        return drop_inbox_file(folder, text, stem=stem)
    except InboxWriteError as err:
        raise ToolRefused(str(err)) from None


def ensure_daemon(root: Path) -> bool:
    """Start `crumb watch` for the root unless one runs (detached: it outlives this server, like the
    Studio's); True when this call started it."""
    try:
        return bool(start_daemon(root)["started"])
    except DaemonFailed as err:
        raise ToolRefused(f"`crumb watch` could not start for {root}: {err}") from None


def session_of(root: Path, ref: str) -> str:
    """A session id, or a unique prefix or suffix of one."""
    try:
        return paths.resolve_session(root, ref)
    except LookupError as err:
        raise ToolRefused(str(err)) from None


def _state(root: Path, session: str) -> SessionState:
    try:
        return replay_file(paths.transcript_path(root, session))
    except TranscriptError as err:
        raise ToolRefused(str(err)) from None


def pitch(root: Path, text: str, *, preset: str | None = None, bindings: dict[str, str] | None = None,
          seed: int | None = None, allow_fallback: bool = False, start_wait_s: float = START_WAIT_S) -> Pitched:
    """Check the choices as `crumb pitch` does (a `command:` binding only when crumb.toml allow-lists it:
    a model is not a person at the machine), drop the pitch file, and return once the daemon took it."""
    from crumb.actors.harness.preflight import MCP_HINT
    from crumb.daemon.pitch_file import check_remote_choices, pitch_text

    text = _text(text, "pitch", "describe the game in one line, e.g. '60-second snake'")
    chosen = {role.strip().lower(): b.strip() for role, b in (bindings or {}).items() if b.strip()}
    preset = (preset or "").strip() or None
    try:
        check_remote_choices(root, preset=preset, bindings=chosen, allow_fallback=allow_fallback,
                             where="an MCP client", hint=MCP_HINT, flag="the pitch tool's bindings")
    except ValueError as err:
        raise ToolRefused(str(err).splitlines()[0] if str(err) else repr(err)) from None
    session = str(ULID())
    try:
        body = pitch_text(text, session=session, preset=preset, seed=seed, fault=None, bindings=chosen,
                          fallback="allow" if allow_fallback else None)
    except ValueError as err:
        raise ToolRefused(str(err)) from None
    started = ensure_daemon(root)
    path = _drop(paths.inbox_dir(root), body, "mcp-pitch")
    transcript = paths.transcript_path(root, session)
    deadline = time.monotonic() + start_wait_s
    while not transcript.exists() and time.monotonic() < deadline:
        refusal = rejected.find(root, session)
        if refusal is not None:
            raise ToolRefused(f"the daemon refused the pitch of {session}: {refusal.reason or 'no reason given'} "
                              f"(the file is kept as {refusal.file})")
        time.sleep(0.05)  # the daemon takes a pitch within milliseconds once it runs; not test synchronisation
    phase = _state(root, session).phase if transcript.exists() else "pitched"
    return {"session": session, "file": path.relative_to(root).as_posix(), "phase": phase, "daemon_started": started}


def steer(root: Path, session: str, text: str) -> Steered:
    """Drop one steering message (plain text, a /command or @actor text) into the session's inbox; a line
    the daemon's grammar cannot read is refused here with the daemon's own words."""
    from crumb.daemon.grammar import parse_steering

    sid = session_of(root, session)
    text = _text(text, "message", "give plain text, a /command (e.g. /pause) or @actor text")
    errors = [data["message"] for kind, data, _ in parse_steering(text) if kind == "error"]
    if errors:
        raise ToolRefused(str(errors[0]).splitlines()[0])
    started = ensure_daemon(root)
    path = _drop(paths.session_inbox(root, sid), text + "\n", "mcp")
    return {"session": sid, "file": path.relative_to(root).as_posix(), "daemon_started": started}


def wait(root: Path, session: str, timeout_s: float = 120.0) -> dict[str, Any]:
    """Block until the session is done or waits for a person, at most `timeout_s` (capped at MAX_WAIT_S):
    `crumb wait --json`'s object, plus timed_out and whether a daemon is watching (when none is, it answers
    at once with a note saying how to start one, rather than waiting for nothing)."""
    sid = session_of(root, session)
    watched = daemon_status(root)["running"]
    timeout = min(max(timeout_s, 0.0), MAX_WAIT_S) if watched else 0.0  # with no daemon, nothing would change
    try:
        state = follow(root, sid, timeout=timeout, until=settled_or_refused(root, sid))
    except TranscriptError as err:
        raise ToolRefused(str(err)) from None
    out = {**outcome(root, state), "timed_out": not settled(state), "daemon_running": watched}
    if not watched and not settled(state):
        out["note"] = (f"no crumb daemon is watching {root}, so nothing runs this session: steer it (any message "
                       "starts one) or run `crumb watch` there")
    return out


def status(root: Path, session: str) -> dict[str, Any]:
    """`crumb status --json`: phase, round, verdicts, who played, what it waits for, pending, budgets."""
    return _state(root, session_of(root, session)).summary()


def verdict(root: Path, session: str) -> dict[str, Any]:
    """How the session stands as `crumb wait --json` says it, without waiting."""
    return outcome(root, _state(root, session_of(root, session)))


def spec(root: Path, session: str) -> str:
    """The session's artifacts/spec.md as the Planner (or a person) last wrote it."""
    sid = session_of(root, session)
    path = paths.spec_md_path(root, sid)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ToolRefused(f"{sid} has no spec yet (phase {_state(root, sid).phase}): wait, then ask again") from None


def events(root: Path, session: str, last: int = 20) -> list[EventLine]:
    """The latest events as `crumb tail` shows them: seq, time, who, kind and the readable line."""
    sid = session_of(root, session)
    recent: deque[dict[str, Any]] = deque(maxlen=min(max(last, 1), MAX_EVENTS))
    try:
        recent.extend(read_events(paths.transcript_path(root, sid)))
    except TranscriptError as err:
        raise ToolRefused(str(err)) from None
    return [{"seq": e["seq"], "ts": e["ts"], "source": e["from"], "kind": e["kind"], "body": e.get("body", "")}
            for e in recent]


def sessions(root: Path) -> list[SessionLine]:
    """Every session, newest first, as `crumb ls` lists them."""
    out: list[SessionLine] = []
    for sid in paths.list_sessions(root):
        try:
            s = replay_file(paths.transcript_path(root, sid)).summary()
        except TranscriptError:
            out.append({"session": sid, "phase": "damaged", "verdict": None, "done": None, "pitch": ""})
            continue
        verdicts = s.get("verdicts") or []
        out.append({"session": sid, "phase": s.get("phase", "?"), "verdict": verdicts[-1].get("verdict") if verdicts else None,
                    "done": (s.get("done") or {}).get("reason"), "pitch": s.get("pitch") or ""})
    return out


def qa(root: Path, path: str, timeout_s: float | None = None) -> dict[str, Any]:
    """`crumb qa --json` on a game folder or .html file inside the root (in its own process, so the
    browser never shares this server's)."""
    target = (root / path).resolve() if not Path(path).is_absolute() else Path(path).resolve()
    if not target.is_relative_to(root):
        raise ToolRefused(f"{path} is outside {root}: give a game folder or .html file inside the CRUMB root")
    if not target.exists():
        raise ToolRefused(f"{path} does not exist under {root}: give a game folder (with index.html) or an .html file")
    limit = min(timeout_s or QA_TIMEOUT_S, QA_TIMEOUT_S)
    argv = [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')", "--root", str(root),
            "qa", "--json", "--timeout", f"{limit:g}", str(target)]
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=limit + 60, cwd=root)
    except subprocess.TimeoutExpired:
        raise ToolRefused(f"crumb qa did not answer within {limit + 60:g}s") from None
    if run.returncode not in (0, 1):
        lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
        raise ToolRefused(lines[-1] if lines else f"crumb qa exited with status {run.returncode}")
    result: dict[str, Any] = json.loads(run.stdout)
    return result
