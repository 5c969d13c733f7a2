"""`crumb watch`: the long-running loop that turns files into events and events into effects.

One thread reduces (this loop), so each session's events are reduced strictly in seq order; effects
run on the dispatcher's pool. Inbox files are consumed exactly once: every event made from a file
carries the file's name, sha256 and stamp, and a file seen again after a crash is only archived.

A `*.toml` file in inbox/ is a batch plan (batch.toml, crumb/batch/): checked, made batches/<id>/, and
driven by a thread of its own that pitches its cells through inbox/ like any tool (this loop never
waits on a batch); a restarted daemon takes up again the batches it was driving.
"""

from __future__ import annotations

import hashlib
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ulid import ULID

from crumb.actors.harness import local_only
from crumb.config import load_settings
from crumb.daemon import files, grammar, otel_stream
from crumb.daemon.lock import DaemonLock
from crumb.daemon.plans import PLAN_SUFFIX, plan_handler
from crumb.dispatcher.dispatch import Dispatcher, spec_rules
from crumb.protocol.events import InboxFile, UnrunnableBinding, event_adapter
from crumb.protocol.game import Spec
from crumb.protocol.spec_markdown import parse_spec_markdown, spec_markdown
from crumb.reducer.reduce import apply, initial_state
from crumb.reducer.state import SessionState
from crumb.store import filesig, paths
from crumb.store.durable import write_whole
from crumb.store.filesig import stamp_of
from crumb.store.follow import ChainBroken, Follower
from crumb.store.reader import TranscriptError, repair
from crumb.store.writer import AppendRefused, TranscriptWriter
from crumb.terminal import safe

log = logging.getLogger("crumb.daemon")

SourceKey = tuple[str, str, str | None, int | None]


@dataclass
class Live:
    """What the daemon keeps per session: the reduced state, its tail, and what it has consumed."""

    state: SessionState
    cursor: Follower
    sources: set[SourceKey] = field(default_factory=set)
    spec_renders: list[str] = field(default_factory=list)
    builds: set[str] = field(default_factory=set)  # ids of the build events: what a version may be copied from
    releases: dict[str, str] = field(default_factory=dict)  # version recorded → its manifest's sha256
    broken: str | None = None


def _source_key(source: dict[str, Any], line: int | None) -> SourceKey:
    return (source.get("name", ""), source.get("sha256", ""), source.get("stamp"), line)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pitch_session_id(source: InboxFile) -> str:
    """The session a pitch file makes: the same file (after a crash) always maps to the same id.

    Its time part is the file's mtime (from the stamp "inode:mtime_ns"), so sessions still sort by age."""
    digest = hashlib.sha256(f"{source.name}\0{source.sha256}\0{source.stamp}".encode()).digest()
    mtime_ns = int((source.stamp or "0:0").rpartition(":")[2] or 0)
    return str(ULID.from_bytes((mtime_ns // 1_000_000).to_bytes(6, "big") + digest[:10]))


class Daemon:
    def __init__(
        self,
        root: Path,
        *,
        poll: bool = False,
        qa_runner: Any | None = None,
        stop_when: Callable[[dict[str, Live]], bool] | None = None,
        echo: bool = True,
        workers: int = 8,
        span_exporter: Any | None = None,
    ) -> None:
        self.root = root.resolve()
        self.settings = load_settings(self.root)
        self.poll = poll
        self.stop_when = stop_when
        self.echo = echo
        self.sessions: dict[str, Live] = {}
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._lock = DaemonLock(self.root)
        self.dispatcher = Dispatcher(self.root, qa_runner=qa_runner, workers=workers,
                                     on_append=lambda s: self._queue.put(("transcript", s)))
        self.watcher: Any = None
        self.ready = threading.Event()
        self.shutdown_timeout_s = 10.0
        self._batches: dict[str, threading.Thread] = {}  # batch id → the thread driving it
        self.otel = self._otel(span_exporter)

    def _otel(self, exporter: Any | None) -> Any:
        """The live OpenTelemetry stream ([settings.otel] endpoint; `exporter`: a test's SpanExporter instead)."""
        if exporter is not None:
            return otel_stream.OtelStream(exporter, where="the test's exporter", batch=False)
        return otel_stream.start(self.settings.otel.endpoint, self._say)

    # ------------------------------------------------------------ lifecycle

    def run(self) -> None:
        """Block until stop() (or stop_when) — SIGTERM/SIGINT handling is the caller's."""
        from crumb.daemon.watcher import Watcher

        self._lock.acquire()
        try:
            event_adapter()  # the writer's validator, built once now rather than on the first event a person waits for
            for d in (paths.inbox_dir(self.root), paths.sessions_dir(self.root)):
                d.mkdir(parents=True, exist_ok=True)
            for session in sorted(paths.list_sessions(self.root)):
                self._load(session)
            self.watcher = Watcher(self.root, poll=self.poll, settle_ms=self.settings.inbox.settle_ms)
            self.watcher.start()
            pump = threading.Thread(target=self._pump, name="crumb-watch-pump", daemon=True)
            pump.start()
            self._say(f"watching {self.root} ({self.watcher.backend}); {len(self.sessions)} sessions")
            self._take_up_batches()
            self.ready.set()
            self._loop()
        finally:
            self._stop.set()
            if self.watcher is not None:
                self.watcher.stop()
            left = self.dispatcher.shutdown(timeout=self.shutdown_timeout_s)
            if left:
                self._say(f"stopped with {left} effect(s) in flight: they are dispatched again on the next start")
            if self.otel is not None:
                self.otel.close()
            self._lock.release()

    def stop(self) -> None:
        self._stop.set()
        self._queue.put(("wake", None))

    def _pump(self) -> None:
        while not self._stop.is_set():
            ev = self.watcher.get(timeout=0.2)
            if ev is not None:
                self._queue.put(("watch", ev))

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._queue.get(timeout=0.5)
            except queue.Empty:
                continue
            try:
                self._handle(item)
            except Exception:
                log.exception("while handling %r", item)
            if self.stop_when is not None and self.stop_when(self.sessions):
                self._stop.set()

    def _handle(self, item: tuple[str, Any]) -> None:
        what, payload = item
        if what == "transcript":
            self._advance(payload)
        elif what == "watch":
            ev = payload
            if ev.kind == "pitch_file":
                self._consume_pitch(ev.path)
            elif ev.kind == "steer_file" and ev.session:
                self._consume_steer(ev.session, ev.path)
            elif ev.kind == "transcript" and ev.session:
                self._advance(ev.session)
            elif ev.kind == "spec_edit" and ev.session:
                self._spec_edited(ev.session)
            elif ev.kind == "session_dir" and ev.session:
                self._advance(ev.session)

    def _say(self, text: str) -> None:
        if self.echo:
            print(f"{time.strftime('%H:%M:%S')} {safe(text)}", file=sys.stderr, flush=True)  # pitches hold anything

    # ------------------------------------------------------------ sessions and their transcripts

    def _load(self, session: str) -> Live | None:
        """Replay a session and dispatch again whatever it left pending."""
        path = paths.transcript_path(self.root, session)
        if not path.exists():
            return None
        try:
            repair(path)
        except OSError as err:  # a read-only session folder, a full disk: this session waits, the others go on
            why = files.unwritable(path.parent, err, "make it writable, then restart `crumb watch`")
            live = Live(state=initial_state(session), cursor=Follower(path), broken=why)
            self.sessions[session] = live
            self._say(f"{session[-6:]} left alone: {why}")
            return live
        live = Live(state=initial_state(session), cursor=Follower(path, chain=True))
        self.sessions[session] = live
        self._advance(session, resume=True)
        return live

    def _advance(self, session: str, *, resume: bool = False) -> None:
        live = self.sessions.get(session)
        if live is None:
            live = self._load(session)
            return
        if live.broken:
            return
        try:
            events = live.cursor.read_new()
        except ChainBroken as err:
            live.broken = str(err)
            self._say(f"{session[-6:]} left alone: {err} — `crumb verify {session}` names it; "
                      "restore the transcript from a copy to go on")
            return
        except TranscriptError as err:
            live.broken = str(err)
            self._say(f"{session[-6:]} transcript damaged, session left alone: {err}")
            return
        for event in events:
            effects = apply(live.state, event)
            self._remember_sources(live, event)
            if self.otel is not None:  # an observer: it never changes what the loop does
                self.otel.feed(session, event, effects, live=not resume)
            if not resume:
                self._say(f"{session[-6:]} #{event['seq']} {event['kind']}: {event.get('body', '')}")
                for effect in effects:
                    self.dispatcher.submit(session, effect, live.state.settings)
        if resume:
            for effect in list(live.state.pending.values()):
                self.dispatcher.submit(session, effect, live.state.settings)
            if live.state.pending:
                self._say(f"{session[-6:]} resumed: {len(live.state.pending)} effect(s) dispatched again")

    def _remember_sources(self, live: Live, event: dict[str, Any]) -> None:
        data = event.get("data") or {}
        source = data.get("source") if isinstance(data, dict) else None
        if isinstance(source, dict):
            live.sources.add(_source_key(source, data.get("line")))
        if event["kind"] == "build":
            live.builds.add(event["id"])
        elif event["kind"] == "release" and isinstance(data, dict):
            live.releases[str(data.get("name"))] = str(data.get("manifest_sha256"))
        if event["kind"] in ("spec", "spec.update") and isinstance(data, dict):
            try:
                spec = {k: v for k, v in data.items() if k not in ("by", "source")}
                live.spec_renders.append(_sha(spec_markdown(Spec.model_validate(spec))))
                del live.spec_renders[:-20]
            except Exception:
                log.exception("rendering spec.md")

    def _writer(self, session: str, live: Live | None = None) -> TranscriptWriter:
        settings = live.state.settings if live else None
        return self.dispatcher.writer(session, settings)

    # ------------------------------------------------------------ inbox: pitches

    def _read(self, path: Path) -> files.InboxRead | files.InboxReject | None:
        return files.read_inbox_file(path, max_bytes=self.settings.inbox.max_bytes)

    def _reject_pitch(self, path: Path, message: str) -> None:
        """A pitch that cannot start a session is kept in inbox/rejected/ with a .why.txt beside it."""
        inbox = paths.inbox_dir(self.root)
        if not (path.exists() or path.is_symlink()):  # gone before it could be kept: nothing to explain
            self._say(f"pitch {path.name} rejected: {message} (it was gone before it could be kept)")
            return
        kept = files.archive(path, inbox / paths.REJECTED, why=message)  # the reason is there before the file
        self._say(f"pitch {path.name} rejected: {message} (kept as {kept.relative_to(self.root)})")

    def _consume_pitch(self, path: Path) -> None:
        got = self._read(path)
        if got is None:
            return
        if isinstance(got, files.InboxReject):
            self._reject_pitch(path, got.message)
            return
        source = got.source
        if path.name.lower().endswith(PLAN_SUFFIX):
            self._consume_batch(path, got)
            return
        try:
            req = grammar.parse_pitch(got.text)
        except ValueError as err:
            self._reject_pitch(path, str(err))
            return
        if req.session and not paths.SESSION_ID.match(req.session.upper()):
            self._reject_pitch(path, f"session {req.session[:40]!r} in the front matter is not a ULID "
                                     "(26 characters, as `crumb pitch` makes): drop that line to start a new session")
            return
        try:  # a program of the pitch's choosing runs only if a person at the machine chose it
            local_only.check_remote(self.root, req.bindings, "a pitch file", local_only.granted(self.root, req.session))
        except ValueError as err:
            self._reject_pitch(path, str(err))
            return
        session = req.session.upper() if req.session else pitch_session_id(source)
        if req.fork is not None:
            self._consume_fork(path, session, req, source)
            return
        live = self.sessions.get(session) or self._load(session)
        key = _source_key(source.model_dump(), None)
        if live is None or key not in live.sources:
            start = None
            if live is None or live.state.events == 0:
                from crumb.actors.harness.preflight import FRONT_MATTER_HINT, refusal
                from crumb.daemon.session_start import session_start_data

                start = session_start_data(self.root, req)
                found = start[0]["unrunnable"]
                if found and start[0]["fallback"] != "allow":  # a bound harness cannot run here: no silent fallback
                    problems = {role: UnrunnableBinding.model_validate(p) for role, p in found.items()}
                    self._reject_pitch(path, refusal(problems, FRONT_MATTER_HINT, flag="the front matter"))
                    return
            self._start_session(session, req, source, live, start)
        self._archive_read(path, source.stamp, paths.archive_dir(self.root, session))

    def _consume_fork(self, path: Path, session: str, req: Any, source: InboxFile) -> None:
        """A pitch file with `fork: ORIGINAL@AT`: the fork made whole (crumb/daemon/fork.py), then loaded
        like any session after a restart (replayed, its pending effects dispatched); or the file rejected
        with the one-line reason. Read again after a crash, a fork already made is only archived."""
        from crumb.actors.harness.preflight import FRONT_MATTER_HINT, refusal
        from crumb.daemon.fork import ForkProblem, cut, make_fork, parse_fork
        from crumb.daemon.session_start import fork_start_data

        if not paths.transcript_path(self.root, session).exists():
            try:
                original, at = parse_fork(req.fork)
                if original in self.sessions:
                    self._advance(original)
                c = cut(self.root, original, at)
                data = fork_start_data(self.root, req)
                found = data["unrunnable"]
                if found and data["fallback"] != "allow":
                    problems = {role: UnrunnableBinding.model_validate(p) for role, p in found.items()}
                    raise ForkProblem(refusal(problems, FRONT_MATTER_HINT, flag="the front matter"))
                make_fork(self.root, session, c, {**data, "source": source.model_dump()}, fsync=self.settings.store.fsync)
            except (ForkProblem, ValueError, OSError) as err:
                self._reject_pitch(path, f"fork not made: {err}")
                return
            self._say(f"{session[-6:]} forked from {c.session[-6:]} at #{c.seq}")
            self._load(session)
        self._archive_read(path, source.stamp, paths.archive_dir(self.root, session))

    def _start_session(self, session: str, req: Any, source: InboxFile, live: Live | None,
                       start: tuple[dict[str, Any], list[str]] | None) -> None:
        """Record session.start (`start`: its data and warnings, for a new session) and the goal."""
        sdir = paths.session_dir(self.root, session)
        for sub in paths.SESSION_FOLDERS:
            (sdir / sub).mkdir(parents=True, exist_ok=True)
        writer = self._writer(session)
        if live is None:
            live = Live(state=initial_state(session), cursor=Follower(paths.transcript_path(self.root, session), chain=True))
            self.sessions[session] = live
        if live.state.events == 0 and start is not None:
            data, warnings = start
            body = f"preset {data['preset']}" + (", fallback allowed" if data["fallback"] == "allow" else "")
            writer.append("session.start", data, from_="daemon", body=body)
            for warning in warnings:
                writer.append("error", {"message": warning, "source": source.model_dump()}, from_="daemon", body=warning[:200])
        writer.append("goal", {"pitch": req.pitch, "source": source.model_dump()}, from_="user", body=req.pitch[:200])
        self._advance(session)

    def _archive_read(self, path: Path, stamp: str | None, archive_dir: Path) -> None:
        """Archive the file that was read — never a newer save that replaced it meanwhile (that one
        stays, and the watcher reports it, so a quick second save is never archived unread)."""
        if stamp is None or filesig.stamp(path) != stamp:
            return
        kept = files.archive(path, archive_dir)
        if filesig.stamp(kept) != stamp and not path.exists():  # replaced between the check and the move
            os.rename(kept, path)

    # ------------------------------------------------------------ inbox: batch plans

    def _consume_batch(self, path: Path, got: files.InboxRead) -> None:
        """A batch.toml: rejected with its reason, or made a batch (the same one if read again) and driven."""
        handler = plan_handler()
        try:
            folder = handler.accept(self.root, got.text, plan_id=pitch_session_id(got.source), where=path.name)
        except ValueError as err:
            self._reject_pitch(path, f"batch plan not started: {err}")
            return
        self._archive_read(path, got.source.stamp, handler.archive_dir(folder))
        self._say(f"batch {folder.name} from {path.name}: driving it ({folder.relative_to(self.root)})")
        self._drive_batch(folder)

    def _drive_batch(self, folder: Path) -> None:
        thread = self._batches.get(folder.name)
        if thread is not None and thread.is_alive():
            return
        thread = threading.Thread(target=self._batch_thread, args=(folder,), name=f"crumb-batch-{folder.name[-6:]}",
                                  daemon=True)
        self._batches[folder.name] = thread
        thread.start()

    def _batch_thread(self, folder: Path) -> None:
        try:
            said = plan_handler().drive(self.root, folder, self._stop)
        except Exception:
            log.exception("driving batch %s", folder.name)
        else:
            if not self._stop.is_set():
                self._say(said)

    def _take_up_batches(self) -> None:
        """The batches this daemon took from inbox/ and did not finish (stopped, crashed): driven again."""
        try:
            folders = plan_handler().unfinished(self.root)
        except Exception:
            log.exception("looking for unfinished batches")
            return
        for folder in folders:
            self._drive_batch(folder)

    # ------------------------------------------------------------ inbox: steering

    def _consume_steer(self, session: str, path: Path) -> None:
        live = self.sessions.get(session) or self._load(session)
        if live is None:
            return  # a folder without a transcript is not a session
        self._advance(session)  # see everything already recorded before deciding what is new
        if live.broken:  # nothing is appended to a transcript CRUMB will not act on; the file stays for later
            self._say(f"{session[-6:]} steering file {path.name} left in its inbox: {live.broken}")
            return
        got = self._read(path)
        if got is None:
            return
        archive_dir = paths.archive_dir(self.root, session)
        writer = self._writer(session, live)
        if isinstance(got, files.InboxReject):
            source = got.source
            key = _source_key(source.model_dump(), None) if source else None
            if key is None or key not in live.sources:
                data: dict[str, Any] = {"message": got.message}
                if source:
                    data["source"] = source.model_dump()
                writer.append("error", data, from_="daemon", body=data["message"][:200])
            files.archive(path, archive_dir / paths.REJECTED)
            self._advance(session)
            return
        if path.name.lower().endswith(files.SPEC_SUFFIX):  # a whole spec.md, as the Studio's spec editor saves it
            self._take_spec(session, live, got.text, got.source, write_back=True)
            self._archive_read(path, got.source.stamp, archive_dir)
            self._advance(session)
            return
        src = got.source.model_dump()
        for kind, data, line in grammar.parse_steering(got.text):
            if _source_key(src, line) in live.sources:
                continue  # recorded before a crash: never twice
            payload = {**data, "source": src, "line": line}
            by, body = "user", _steer_body(kind, data)
            if kind in grammar.MEASURED:
                kind, payload, by, body = self._measure_release(session, live, payload)
            try:
                writer.append(kind, payload, from_=by, body=body)
            except AppendRefused as err:
                writer.append("error", {"message": str(err)[:2000], "source": src, "line": line}, from_="daemon",
                              body=str(err)[:200])
        self._archive_read(path, src.get("stamp"), archive_dir)
        self._advance(session)

    def _measure_release(self, session: str, live: Live,
                         asked: dict[str, Any]) -> tuple[str, dict[str, Any], str, str]:
        """A `/release NAME` line: the `release` event with what versions/NAME/ holds now (read and hashed
        here, none of it taken from the inbox file), or an `error` naming what is wrong and the fix.
        Recorded as the person's act (like their edit of spec.md); a problem is the daemon's finding."""
        from crumb.export.versions import ReleaseProblem, release_data

        name, where = asked["name"], {"source": asked["source"], "line": asked["line"]}
        try:
            data = release_data(self.root, session, name, builds=live.builds)
        except ReleaseProblem as problem:
            message = str(problem)
            return "error", {"message": message[:2000], **where}, "daemon", message[:200]
        if live.releases.get(name) == data["manifest_sha256"]:
            message = f"version {name} is recorded in this session already (same manifest): nothing to do"
            return "error", {"message": message, **where}, "daemon", message[:200]
        body = f"released {name} ({data['verdict'] or 'no verdict'}, {data['files']} files)"
        return "release", {**data, **where}, "user", body[:200]

    # ------------------------------------------------------------ a person's edit of artifacts/spec.md

    def _spec_edited(self, session: str) -> None:
        live = self.sessions.get(session)
        if live is None or live.state.spec is None or live.broken:
            return
        self._advance(session)
        target = paths.spec_md_path(self.root, session)
        try:
            raw = target.read_bytes()
        except OSError:
            return
        text = raw.decode("utf-8", errors="replace")
        digest = _sha(text)
        current = live.state.spec["data"]
        current_text = spec_markdown(Spec.model_validate(current))
        if digest == _sha(current_text):
            return
        if digest in live.spec_renders:
            write_whole(target, current_text)  # a stale copy from before a crash: refresh it
            return
        source = InboxFile(name=paths.SPEC_REL, sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw),
                           stamp=stamp_of(target.stat()))
        self._take_spec(session, live, text, source)
        self._advance(session)

    def _take_spec(self, session: str, live: Live, text: str, source: InboxFile, *, write_back: bool = False) -> None:
        """A person's spec.md text (saved in artifacts/, or dropped in the inbox as *.spec.md): a spec.update
        by the user, or an error naming what is wrong. `write_back`: the text came through the inbox, so
        artifacts/spec.md is rewritten from the spec taken (what the builder now follows)."""
        if live.state.spec is None:
            writer = self._writer(session, live)
            message = "spec.md edit not taken: this session has no spec yet; wait for the Planner's, then edit it"
            if _source_key(source.model_dump(), None) not in live.sources:
                writer.append("error", {"message": message, "source": source.model_dump()}, from_="daemon",
                              body=message[:200])
            return
        if _source_key(source.model_dump(), None) in live.sources:
            return
        writer = self._writer(session, live)
        try:
            spec = parse_spec_markdown(text, Spec.model_validate(live.state.spec["data"]), rules=spec_rules())
        except ValueError as err:
            writer.append("error", {"message": f"spec.md: {err}", "source": source.model_dump()}, from_="daemon",
                          body=f"spec.md not taken: {err}"[:200])
            return
        writer.append("spec.update", {**spec.model_dump(mode="json"), "by": "user", "source": source.model_dump()},
                      from_="user", body="a person edited spec.md")
        if write_back:
            rendered = spec_markdown(spec)
            live.spec_renders.append(_sha(rendered))
            write_whole(paths.spec_md_path(self.root, session), rendered)


def _steer_body(kind: str, data: dict[str, Any]) -> str:
    detail = data.get("text") or data.get("reason") or data.get("message") or ""
    target = f"@{data['actor']} " if data.get("actor") else ""
    return f"{kind.removeprefix('user.')} {target}{detail}".strip()[:200]
