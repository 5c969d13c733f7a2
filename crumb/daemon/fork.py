"""Forking a session: a new session that starts as the original stood at one line, then goes on with
other bindings ("what would another builder make from this same spec?").

How it is started, and why this way:

- `crumb fork` (crumb/cli/fork.py) checks what it can and drops a pitch file into `inbox/` whose front
  matter says `fork: ORIGINAL@SEQ` (and `session:`, `preset:`, role bindings, `seed:` as a pitch's).
  The inbox is the only way in (invariant 4): the CLI writes no transcript and no session folder.
- The daemon (crumb/daemon/daemon.py) reads it and calls `make_fork` here: the original's lines
  1..SEQ are appended, one by one, through the one transcript writer (each schema-validated, with a new
  ULID, a new timestamp and — since they are appended in order to an empty file — the same seq) into a
  folder under a hidden name (`sessions/.fork-<id>.tmp`, which no reader takes for a session), then one
  `session.fork` line with the link (`forked_from`: session, seq, event id) and the new bindings, then
  the artifacts the cut needs, then the folder is renamed to `sessions/<id>/` in one step. A crash before
  the rename leaves only the hidden folder, made again from scratch when the pitch file is read again
  (it is archived only after the rename); after the rename the session exists whole. The original is
  only read: forking a running session is safe, as only lines already written are copied, and a game
  copied for the cut is checked file by file (sha256) against the build event's manifest — a game
  changed since (a running session's next build) refuses the fork instead of copying the wrong files.
- Re-stamping: every line gets the fork's session id, a new id and the time of the copy (so a wall-time
  budget counts from the fork). Every reference to an original id — `parent`, effect ids
  (`<event id>.<n>`), ids inside `data` (a build's spec id, the evidence a score cites), and the original
  session id in paths — is rewritten to the fork's, so the copied prefix reduces exactly as the original
  did up to the cut.
- Pending effects at the cut (issued before it, finished after it, or running when a running session
  was forked): `session.fork` is reduced like any line (crumb/reducer/reduce.py: _on_fork). It closes each
  pending run and issues it again under a new effect id with the binding now in force; the daemon then
  loads the new folder as it loads any session after a restart (replay, then dispatch what is pending),
  one code path for live and recovery, so replaying the fork gives the state the live daemon reached.
- What the cut needs: `artifacts/spec.md` rendered from the spec in force at the cut (as the dispatcher
  writes it, so the daemon does not take it for a person's edit), and the game of the build in force at
  the cut, copied and checked against its manifest. QA screenshots and per-run logs are not copied.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crumb.store import paths
from crumb.store.durable import fsync_dir
from crumb.store.reader import read_events
from crumb.store.writer import TranscriptWriter

ULID_RE = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
AT_WORDS = ("spec", "build")
CUT_KINDS = {"spec": ("spec", "spec.update"), "build": ("build",)}


class ForkProblem(ValueError):
    """The fork cannot be made; str() is one line naming the problem and the fix."""


@dataclass
class Cut:
    """Where the original is cut: its events 1..seq, and the state they reduce to."""

    session: str
    seq: int
    at: str
    events: list[dict[str, Any]]
    state: Any  # crumb.reducer.state.SessionState


def parse_fork(value: str) -> tuple[str, str]:
    """`ORIGINAL@AT` (front matter `fork:`) → (original session id, at: a seq, `spec` or `build`)."""
    session, sep, at = value.partition("@")
    at = at.strip().lower() or "end"
    if not sep and not session:
        raise ForkProblem("fork: give 'SESSION@SEQ', 'SESSION@spec' or 'SESSION@build'")
    if not (at.isdigit() or at in (*AT_WORDS, "end")):
        raise ForkProblem(f"fork point {at[:20]!r} is not a seq, 'spec' or 'build': write e.g. '--at spec' or '--at 12'")
    return session.strip().upper(), at


def cut(root: Path, session: str, at: str) -> Cut:
    """The original's prefix for `at`: a seq (1..last), the last spec or spec.update (`spec`), the last
    build (`build`), or the whole transcript (`end`). ForkProblem when there is no such point."""
    from crumb.reducer.reduce import apply, initial_state

    path = paths.transcript_path(root, session)
    if not path.is_file():
        raise ForkProblem(f"no session {session} in {paths.sessions_dir(root)}: see `crumb ls`")
    events = list(read_events(path))
    if not events:
        raise ForkProblem(f"session {session} has an empty transcript: there is nothing to fork")
    last = events[-1]["seq"]
    if at.isdigit():
        seq = int(at)
        if not 1 <= seq <= last:
            raise ForkProblem(f"--at {seq} is out of range: session {session} has events 1..{last}")
    elif at == "end":
        seq = last
    else:
        found = [e["seq"] for e in events if e["kind"] in CUT_KINDS[at]]
        if not found:
            raise ForkProblem(f"session {session} has no {at} event to fork at: use --at SEQ (1..{last})")
        seq = found[-1]
    prefix = [e for e in events if e["seq"] <= seq]
    state = initial_state(session)
    for event in prefix:
        apply(state, event)
    return Cut(session=session, seq=seq, at=at, events=prefix, state=state)


def game_problem(root: Path, c: Cut) -> str | None:
    """Why the game of the build in force at the cut cannot be copied (its files changed since), or None."""
    build = c.state.build
    if build is None:
        return None
    manifest = build["manifest"]
    base = paths.session_dir(root, c.session) / manifest.get("dir", paths.GAME_REL)
    for entry in manifest.get("files", []):
        f = base / entry["path"]
        try:
            digest = hashlib.sha256(f.read_bytes()).hexdigest()
        except OSError:
            return (f"the game of the build at #{c.seq} is not on disk any more ({entry['path']} missing): "
                    "fork at a later build, or at the spec (--at spec)")
        if digest != entry["sha256"]:
            return (f"the game on disk is not the one built by the build in force at #{c.seq} ({entry['path']} changed "
                    "since, by a later build or an edit): fork at the last build (--at build) or at the spec")
    return None


def _remapper(ids: dict[str, str]) -> Any:
    def remap(value: Any) -> Any:
        if isinstance(value, str):
            return ULID_RE.sub(lambda m: ids.get(m.group(0), m.group(0)), value) if len(value) >= 26 else value
        if isinstance(value, dict):
            return {k: remap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [remap(v) for v in value]
        return value

    return remap


def copy_prefix(writer: TranscriptWriter, original: str, events: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Append `events` re-stamped into the writer's session; returns original id → fork id."""
    ids: dict[str, str] = {original: writer.session}
    remap = _remapper(ids)
    for event in events:
        written = writer.append(event["kind"], remap(event.get("data") or {}), from_=event["from"],
                                body=remap(event.get("body", "")), parent=remap(event.get("parent")),
                                effect=remap(event.get("effect")), meta=event.get("meta") or {})
        if written["seq"] != event["seq"]:
            raise ForkProblem(f"copying line {event['seq']} of {original} gave seq {written['seq']}: the fork's "
                              "transcript was not empty")
        ids[event["id"]] = written["id"]
    return ids


def _copy_game(root: Path, c: Cut, dest_session_dir: Path) -> str | None:
    build = c.state.build
    if build is None:
        return None
    manifest = build["manifest"]
    rel = manifest.get("dir", paths.GAME_REL)
    src, dst = paths.session_dir(root, c.session) / rel, dest_session_dir / rel
    for entry in manifest.get("files", []):
        target = dst / entry["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / entry["path"], target)
        if hashlib.sha256(target.read_bytes()).hexdigest() != entry["sha256"]:
            raise ForkProblem(f"{entry['path']} of {c.session} changed while it was copied: fork again")
    return rel


def make_fork(root: Path, new: str, c: Cut, fork_data: dict[str, Any], *, fsync: str = "always") -> Path:
    """Write the fork `new` whole under a hidden name, then rename it into sessions/. Returns its folder."""
    from crumb.protocol.game import Spec
    from crumb.protocol.spec_markdown import spec_markdown

    problem = game_problem(root, c)
    if problem:
        raise ForkProblem(problem)
    final = paths.session_dir(root, new)
    if final.exists():
        raise ForkProblem(f"session {new} exists already")
    tmp = paths.sessions_dir(root) / f".fork-{new}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)  # a fork a crash interrupted before its rename: made again from scratch
    for sub in paths.SESSION_FOLDERS:
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    copied: list[str] = []
    if c.state.spec is not None:
        spec_md = tmp / paths.SPEC_REL
        spec_md.parent.mkdir(parents=True, exist_ok=True)
        spec_md.write_text(spec_markdown(Spec.model_validate(c.state.spec["data"])), encoding="utf-8")
        copied.append(paths.SPEC_REL)
    game = _copy_game(root, c, tmp)
    if game:
        copied.append(game)
    writer = TranscriptWriter(tmp / paths.TRANSCRIPT, new, fsync="always" if fsync == "always" else "never")
    ids = copy_prefix(writer, c.session, c.events)
    last = c.events[-1]
    data = {**fork_data, "forked_from": {"session": c.session, "seq": c.seq, "event": last["id"]}, "at": c.at,
            "copied": copied}
    rebound = ", ".join(f"{role}={chain[0].get('harness')}" for role, chain in (fork_data.get("bindings") or {}).items() if chain)
    body = f"forked from {c.session} at #{c.seq}" + (f"; {rebound}" if rebound else "")
    writer.append("session.fork", data, from_="daemon", body=body[:200], parent=ids.get(last["id"]))
    tmp.rename(final)
    if fsync == "always":
        fsync_dir(final.parent)
    return final
