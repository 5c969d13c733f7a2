"""The dispatcher: the only code that performs effects.

It runs actors and QA, measures what they produced, and appends the results to the transcript with
the effect's id, so the reducer can close the effect (and ignore a duplicate after a crash). Effects
run on a thread pool: concurrently across sessions; the reducer still sees each session's events in
seq order because only the daemon's loop reduces.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
from pydantic import ValidationError

from crumb.actors.base import ActorError, ActorRequest, ActorResult, Adapter, Binding, Limits, ProgressUpdate, is_role
from crumb.actors.harness import local_only
from crumb.actors.harness.bindings import rooted
from crumb.actors.harness.verifier_dir import prepare_verifier_dir
from crumb.dispatcher.manifest import measure
from crumb.protocol.errors import first_problem
from crumb.protocol.events import Meta, ResearchEvidence, ResearchPlan
from crumb.protocol.game import Criterion, JudgeScore, Manifest, PitchReading, QAResult, Spec
from crumb.protocol.names import ROLES
from crumb.protocol.spec_markdown import SpecRules, spec_markdown
from crumb.reducer.effects import BindingData, Cancel, Effect, QACheck, Record, RunActor
from crumb.settings import Settings
from crumb.store import paths
from crumb.store.durable import write_whole
from crumb.store.writer import TranscriptWriter

log = logging.getLogger("crumb.dispatcher")


def get_adapter(name: str) -> Adapter:
    """The harness registry (crumb.actors.harness); `local` works even without it."""
    lookup: Callable[[str], Adapter] | None
    try:
        from crumb.actors.harness.registry import get_adapter as lookup
    except ImportError:  # pragma: no cover - registry ships with the package
        lookup = None
    if lookup is not None:
        return lookup(name)
    if name == "local":
        from crumb.actors.embedded.adapter import LocalAdapter

        return LocalAdapter()
    raise ValueError(f"unknown harness {name!r}")


def reading_for_agent(spec: Spec, pitch: str, builder: str) -> PitchReading:
    """CRUMB's own reading of the pitch beside an agent's spec (the embedded studio reads it)."""
    from crumb.actors.embedded.fidelity import reading_for_agent as read

    return read(spec, pitch, builder)


def for_builder(spec: Spec, pitch: str, builder: str) -> Spec:
    """The spec re-weighed for another Builder than it was planned for (the embedded studio's Planner knows how)."""
    from crumb.actors.embedded.planner import for_builder as weigh

    return weigh(spec, pitch, builder)


def spec_rules() -> SpecRules:
    """What a person's edit of spec.md follows (known genres, criteria for a new genre or number): the
    embedded studio's Planner knows it, and the daemon reaches an actor only through the dispatcher."""
    from crumb.actors.embedded.rules import SPEC_RULES

    return SPEC_RULES


class Dispatcher:
    def __init__(
        self,
        root: Path,
        *,
        qa_runner: Any | None = None,
        workers: int = 8,
        on_append: Callable[[str], None] | None = None,
        adapter_lookup: Callable[[str], Adapter] = get_adapter,
    ) -> None:
        self.root = root
        self._qa = qa_runner
        self._qa_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="crumb-effect")
        self._on_append = on_append or (lambda session: None)
        self._adapter_lookup = adapter_lookup
        self._cancels: dict[str, threading.Event] = {}
        self._running: set[str] = set()
        self._lock = threading.Lock()
        self._ended = threading.Condition(self._lock)  # notified whenever an effect leaves _running
        self._writers: dict[str, TranscriptWriter] = {}

    # ------------------------------------------------------------ plumbing

    def writer(self, session: str, settings: Settings | None = None) -> TranscriptWriter:
        with self._lock:
            w = self._writers.get(session)
            if w is None:
                fsync = (settings or Settings()).store.fsync
                w = TranscriptWriter(paths.transcript_path(self.root, session), session, fsync=fsync)
                self._writers[session] = w
            return w

    def append(self, session: str, kind: str, data: Any, **kw: Any) -> dict[str, Any]:
        event = self.writer(session).append(kind, data, **kw)
        self._on_append(session)
        return event

    def qa_runner(self) -> Any:
        with self._qa_lock:
            if self._qa is None:
                from crumb.qa import QARunner

                self._qa = QARunner()  # the browser is shared; each check brings its session's settings
            return self._qa

    def submit(self, session: str, effect: Effect, settings: Settings) -> Future[None] | None:
        """Run an effect in the background (`settings`: the session's, from its state). A running
        effect is never started twice."""
        if isinstance(effect, Cancel):
            for target in effect.targets:
                self.cancel(target)
            return None
        with self._lock:
            if effect.id in self._running:
                return None
            self._running.add(effect.id)
            self._cancels[effect.id] = threading.Event()
        try:
            future = self._pool.submit(self._guarded, session, effect, settings)
        except RuntimeError:  # shut down: the effect stays pending in its transcript for the next start
            self._finished(effect.id)
            return None
        future.add_done_callback(lambda f: self._finished(effect.id) if f.cancelled() else None)
        return future

    def cancel(self, effect_id: str) -> None:
        with self._lock:
            ev = self._cancels.get(effect_id)
        if ev is not None:
            ev.set()

    def cancel_all(self) -> None:
        with self._lock:
            for ev in self._cancels.values():
                ev.set()

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def shutdown(self, timeout: float = 10.0) -> int:
        """Stop: cancel running actors, wait up to `timeout` for effects to end; return how many did not.

        Whatever is still in flight stays pending in its transcript and is dispatched again on restart."""
        self.cancel_all()
        self._pool.shutdown(wait=False, cancel_futures=True)  # a queued effect never starts: see _finished
        with self._ended:
            self._ended.wait_for(lambda: not self._running, timeout)
            left = len(self._running)
        if self._qa is not None and not left:
            try:
                self._qa.close()
            except Exception:
                log.exception("closing QA runner")
        return left

    def _guarded(self, session: str, effect: RunActor | QACheck | Record, settings: Settings) -> None:
        try:
            self.execute(session, effect, settings)
        except Exception:
            log.error("effect %s of %s failed:\n%s", effect.id, session, traceback.format_exc())
        finally:
            self._finished(effect.id)

    def _finished(self, effect_id: str) -> None:
        """An effect is no longer running: it ended, or it never started (shutdown cancelled its turn in
        the pool), which leaves it pending in its transcript like one cut short."""
        with self._ended:
            self._running.discard(effect_id)
            self._cancels.pop(effect_id, None)
            self._ended.notify_all()

    # ------------------------------------------------------------ effects

    def execute(self, session: str, effect: Effect, settings: Settings) -> None:
        match effect:
            case Record(event=ev):
                source = "validator" if ev.kind == "audit" else "dispatcher"
                self.append(session, ev.kind, ev.data, from_=source, body=ev.body, effect=effect.id)
            case QACheck():
                self._qa_check(session, effect, settings)
            case RunActor():
                self._run_actor(session, effect, settings)
            case Cancel(targets=targets):
                for target in targets:
                    self.cancel(target)

    def _qa_check(self, session: str, effect: QACheck, settings: Settings) -> None:
        from crumb.qa.browser import BrowserNotFound

        sdir = paths.session_dir(self.root, session)
        manifest = Manifest.model_validate(effect.manifest)
        started = time.monotonic()
        try:
            criteria = [Criterion.model_validate(c) for c in effect.criteria]
            result: QAResult = self.qa_runner().check(
                sdir / manifest.dir,
                entry=manifest.entry,
                criteria=criteria,
                manifest=manifest,
                build_id=effect.build,
                out_dir=paths.qa_dir(self.root, session),
                controls=effect.controls,
                settings=settings.qa,
                film=f"round-{effect.round or 1}",
            )
        except BrowserNotFound as err:  # QA cannot run here: no result about the game, an effect that failed
            message = str(err)
            self.append(session, "effect.failed", {"effect_id": effect.id, "kind": effect.kind, "actor": effect.actor,
                                                   "adapter": "playwright", "attempt": effect.attempt, "error": message},
                        body=f"qa failed: {message[:150]}", effect=effect.id, meta=Meta(harness="playwright"))
            return
        except Exception as err:
            result = QAResult(build=effect.build, ok=False, error=f"QA crashed: {type(err).__name__}: {err}",
                              duration_ms=int((time.monotonic() - started) * 1000))
        body = "QA passed" if result.ok else f"QA failed: {(result.error or '; '.join(f.message for f in result.findings[:2]))[:180]}"
        self.append(session, "qa.result", result, from_="qa", body=body, effect=effect.id, parent=effect.build,
                    meta=Meta(harness="playwright", duration_ms=result.duration_ms))

    def _work_dir(self, session: str, effect: RunActor) -> Path:
        """Where an actor may write: a private folder outside the session (mode 0700) for every role,
        holding only what it may see, so no agent can walk up to the transcript."""
        sdir = paths.session_dir(self.root, session)
        actor = effect.actor
        if actor == "builder":
            work = Path(tempfile.mkdtemp(prefix="crumb-build-"))
            copy_regular_files(paths.game_dir(self.root, session), work)  # a fix edits the game as it stands
            return work
        if actor == "verifier":
            manifest = (effect.input.get("build") or {}).get("manifest") or {}
            base = Path(tempfile.mkdtemp(prefix="crumb-verify-")) / "work"
            return prepare_verifier_dir(base, effect.input, sdir / manifest.get("dir", paths.GAME_REL), sdir)
        return Path(tempfile.mkdtemp(prefix=f"crumb-{actor}-"))

    @staticmethod
    def _publish_game(sdir: Path, work: Path) -> Path:
        """Move the previous game to artifacts/history/round-N and put the builder's regular files in its place."""
        game = sdir / paths.GAME_REL
        if game.exists() and any(game.iterdir()):
            history = game.with_name("history")
            history.mkdir(parents=True, exist_ok=True)
            n = 1
            while (history / f"round-{n}").exists():
                n += 1
            game.rename(history / f"round-{n}")
        staging = game.with_name(".game-next")
        shutil.rmtree(staging, ignore_errors=True)
        copy_regular_files(work, staging)
        if game.exists():
            shutil.rmtree(game)
        staging.rename(game)
        return game

    def _run_actor(self, session: str, effect: RunActor, settings: Settings) -> None:
        actor = effect.actor
        try:
            binding = _binding(effect.binding)
        except ValueError as err:  # e.g. a /swap to a harness that does not exist
            binding = Binding(harness=str(effect.binding.get("harness")), origin="user")
            bad: str | None = _one_line(err)
        else:
            bad = None
        command = binding.options.get("command") if binding.harness == "command" else None
        if bad is None and binding.origin == "user" and isinstance(command, str) and not local_only.is_allowed(self.root, command):
            bad = local_only.refusal(actor, command, "a /swap")  # steering comes from files anyone may drop
        sdir = paths.session_dir(self.root, session)
        log_path = paths.logs_dir(self.root, session) / f"{effect.id.replace('.', '-')}-{actor}.log"
        log_path.parent.mkdir(parents=True, exist_ok=True)
        common = {"effect_id": effect.id, "kind": "run_actor", "actor": actor, "adapter": binding.harness,
                  "attempt": effect.attempt, "log": log_path.relative_to(sdir).as_posix()}
        self.append(session, "effect.started", common, body=f"{actor} started on {binding.harness}", effect=effect.id)
        cancel = self._cancels.get(effect.id) or threading.Event()
        started = time.monotonic()

        def progress(update: ProgressUpdate) -> None:  # adapters throttle and merge; nothing is dropped here
            self.append(session, "progress", {"effect_id": effect.id, "actor": actor, "message": update.message[:2000],
                                              "tool": update.tool, "files": update.files[:50]},
                        from_=actor, body=update.message[:200], effect=effect.id)

        work_dir: Path | None = None
        try:
            if bad is not None:
                raise ValueError(bad)
            binding = rooted(binding, self.root)  # `command:./my-agent` means the project's, not the daemon's cwd
            if not is_role(actor):
                raise ValueError(f"{actor!r} is not a role an agent plays ({', '.join(ROLES)})")
            if actor == "builder":
                effect = self._planned_for(session, effect, binding.harness)
            work_dir = self._work_dir(session, effect)
            request = ActorRequest(
                role=actor, session=session, effect_id=effect.id, work_dir=work_dir, input=effect.input,
                binding=binding, limits=Limits(wall_s=settings.actors.wall_s, idle_s=settings.actors.idle_s),
                log_path=log_path, settings=settings, read_only=self._read_only(),
            )
            adapter = self._adapter_lookup(binding.harness)
            result = adapter.run(request, progress, cancel)
            if cancel.is_set():
                return  # cancelled: the reducer already dropped this effect; nothing to record
            usage = result.usage.model_copy(update={
                "harness": result.usage.harness or binding.harness,
                "provider": result.usage.provider or binding.provider,
                "model": result.usage.model or binding.model,
                "duration_ms": result.usage.duration_ms or int((time.monotonic() - started) * 1000),
            })
            self._record_result(session, effect, actor, result, usage, work_dir)
        except (ActorError, ValidationError, ValueError, OSError) as err:
            if cancel.is_set():
                return
            message = _one_line(err)
            usage = err.usage if isinstance(err, ActorError) else Meta(harness=binding.harness)
            self.append(session, "effect.failed", {**common, "error": message}, body=f"{actor} failed: {message[:150]}",
                        effect=effect.id, meta=usage)
        finally:
            if work_dir is not None:
                shutil.rmtree(work_dir.parent if actor == "verifier" else work_dir, ignore_errors=True)

    def _planned_for(self, session: str, effect: RunActor, harness: str) -> RunActor:
        """A build by another Builder than its spec was planned for (a fork, a /swap, a fallback): the spec's
        checks and reading re-weighed for this one first, as a spec.update, so the game is held to what the pitch
        asks of it and its verdict's reasons speak of the Builder that made it."""
        raw = effect.input.get("spec")
        reading = raw.get("reading") if isinstance(raw, dict) else None
        if not isinstance(reading, dict) or reading.get("builder", "local") == harness:
            return effect
        spec = Spec.model_validate(raw)
        moved = for_builder(spec, str(effect.input.get("pitch") or spec.pitch), harness)
        if moved == spec:
            return effect
        data = moved.model_dump(mode="json")
        event = self.append(session, "spec.update", {**data, "by": "crumb"}, from_="dispatcher",
                            body=f"the spec's checks re-weighed for the {harness} Builder", effect=effect.id)
        self._write_spec_md(paths.session_dir(self.root, session), data)
        return msgspec.structs.replace(effect, input={**effect.input, "spec": data, "spec_id": event["id"]})

    def _read_only(self) -> list[Path]:
        """What an agent's process may not write: every transcript, the inbox, CRUMB's state, crumb.toml."""
        return [paths.sessions_dir(self.root), paths.inbox_dir(self.root), paths.state_dir(self.root),
                paths.config_path(self.root), paths.presets_dir(self.root)]

    def _record_result(self, session: str, effect: RunActor, actor: str, result: ActorResult, usage: Meta, work_dir: Path) -> None:
        payload = result.payload
        sdir = paths.session_dir(self.root, session)
        eid = effect.id
        if actor == "planner":
            if "research" in payload and "spec" not in payload:
                plan = ResearchPlan.model_validate(payload["research"])
                self.append(session, "research.plan", plan, from_="planner", body=f"research: {plan.questions[0][:150]}",
                            effect=eid, meta=usage)
                return
            if "spec" not in payload:
                raise ActorError("the planner returned neither a spec nor a research plan")
            spec = Spec.model_validate(payload["spec"])
            if effect.binding.get("harness", "local") != "local" or spec.reading is None:
                # an agent's spec: CRUMB reads the pitch itself, so no stated number is dropped unseen
                spec = spec.model_copy(update={"reading": reading_for_agent(
                    spec, str(effect.input.get("pitch", "")), str(effect.input.get("builder") or "local"))})
            self.append(session, "spec", spec, from_="planner", body=f"{spec.title} ({spec.genre}, {len(spec.criteria)} criteria)",
                        effect=eid, meta=usage)
            self._write_spec_md(sdir, spec.model_dump(mode="json"))
        elif actor == "researcher":
            evidence = ResearchEvidence.model_validate(payload.get("evidence") or {})
            self.append(session, "research.evidence", evidence, from_="researcher",
                        body=f"{len(evidence.items)} evidence items", effect=eid, meta=usage)
        elif actor == "builder":
            notes = [str(n)[:500] for n in payload.get("notes") or []][:50]
            if payload.get("spec"):
                spec = Spec.model_validate(payload["spec"])
                self.append(session, "spec.update", {**spec.model_dump(mode="json"), "by": "builder"}, from_="builder",
                            body="the builder adjusted the spec to the person's steering", effect=eid)
                self._write_spec_md(sdir, spec.model_dump(mode="json"))
            links = [n for n in measure(work_dir, relative_to=work_dir.parent)[1]]  # what the copy leaves out
            game = self._publish_game(sdir, work_dir)
            manifest, measure_notes = measure(game, relative_to=sdir)
            measure_notes = links + measure_notes
            self.append(session, "build", {"manifest": manifest.model_dump(mode="json"), "notes": notes + measure_notes,
                                           "spec": effect.input.get("spec_id")},
                        from_="builder", body=f"round {effect.input.get('round')}: {len(manifest.files)} files",
                        effect=eid, meta=usage)
        elif actor == "verifier":
            judge = JudgeScore.model_validate(payload.get("judge") or {})
            self.append(session, "judge.score", judge, from_="verifier", body=f"{judge.verdict} {judge.total:g}",
                        effect=eid, meta=usage)

    @staticmethod
    def _write_spec_md(sdir: Path, spec: dict[str, Any]) -> None:
        target = sdir / paths.SPEC_REL
        target.parent.mkdir(parents=True, exist_ok=True)
        write_whole(target, spec_markdown(Spec.model_validate(spec)))


def copy_regular_files(src: Path, dest: Path) -> None:
    """Copy the regular files under src into dest; symlinks and special files are never followed."""
    dest.mkdir(parents=True, exist_ok=True)
    if not src.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        base = Path(dirpath)
        dirnames[:] = [d for d in dirnames if not (base / d).is_symlink()]
        for name in filenames:
            path = base / name
            if path.is_symlink() or not path.is_file():
                continue
            target = dest / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def _binding(raw: BindingData) -> Binding:
    """The effect's binding; a person's `/swap harness:model` gets the harness's provider defaults."""
    if raw.get("origin") == "user" and raw.get("harness"):
        from crumb.actors.harness.bindings import parse_binding

        spec = raw["harness"] + (f":{raw['model']}" if raw.get("model") else "")
        return parse_binding(spec, origin="user")
    return Binding.model_validate({k: v for k, v in raw.items() if k in Binding.model_fields and v is not None})


def _one_line(err: BaseException) -> str:
    if isinstance(err, ValidationError):
        return f"invalid {err.title} from the actor: {first_problem(err)}"
    return " ".join(str(err).split())[:1000] or type(err).__name__
