"""The reducer: (state, event) → (state, effects). Pure: no I/O, no clock, no environment, no randomness.

Time comes from event timestamps. Effects are typed structs (crumb/reducer/effects.py: RunActor,
QACheck, Record, Cancel) whose ids are derived from the event that caused them ("<event id>.<n>"), so
a re-dispatched effect's duplicate result is recognised and ignored. Pending effects are part of the
state: after a crash, replay yields exactly what is left to do.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from crumb.protocol.line import TranscriptLine
from crumb.protocol.names import ACTORS, EVENT_KINDS
from crumb.reducer.effects import (
    BindingData,
    Cancel,
    Effect,
    Pending,
    QACheck,
    Record,
    RecordedEvent,
    RunActor,
)
from crumb.reducer.played import fell_back, played_by, played_note
from crumb.reducer.state import HISTORY, BuildRef, EventRef, GoalRef, SessionState
from crumb.reducer.validator import validate
from crumb.settings import recorded_settings

Event = dict[str, Any]

RUN_CLOSES: dict[str, tuple[str, ...]] = {
    "planner": ("spec", "research.plan", "effect.failed"),
    "researcher": ("research.evidence", "effect.failed"),
    "builder": ("build", "effect.failed"),
    "verifier": ("judge.score", "effect.failed"),
}
PHASE_OF_ACTOR = {"planner": "planning", "researcher": "researching", "builder": "building", "verifier": "verifying", "qa": "qa"}
# events written for an effect that report on it without closing it
# a role's results: whoever produced the last one is who played the role (state.played)
RESULT_KINDS = frozenset({"spec", "research.plan", "research.evidence", "build", "judge.score"})
AUX_KINDS = frozenset({"effect.started", "effect.finished", "progress", "spec.update", "note", "error", "budget.warning"})
BUDGETS_BY_USAGE = ("tokens", "cost_usd", "wall_s")
KNOWN_KINDS = frozenset(EVENT_KINDS)  # a kind not in it (a newer CRUMB's) is counted and skipped
# records of an act outside the loop (`crumb release` copied the game): counted, and nothing else, not even
# their time, so a version kept an hour after a PARTIAL does not spend the session's wall-time budget
RECORD_ONLY = frozenset({"release"})


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


class _Ctx:
    """Collects the effects one event causes, numbering their ids."""

    __slots__ = ("event", "effects", "n", "following")

    def __init__(self, event: TranscriptLine, following: TranscriptLine | None = None) -> None:
        self.event = event
        self.effects: list[Effect] = []
        self.n = 0
        self.following = following  # the transcript's next line, when fold knows it

    def new_id(self) -> str:
        self.n += 1
        return f"{self.event.id}.{self.n}"


# ====================================================================== public API


def initial_state(session: str = "") -> SessionState:
    return SessionState(session=session)


def reduce(state: SessionState, event: Event | TranscriptLine) -> tuple[SessionState, list[Effect]]:
    """The pure step. The input state is not modified."""
    new = state.copy()
    return new, apply(new, event)


def apply(state: SessionState, event: Event | TranscriptLine) -> list[Effect]:
    """Reduce in place (for folds that own their state); returns the effects to dispatch.

    `event` is a line as replay reads it (a TranscriptLine) or an event in JSON form (a dict, as the
    daemon and the tests have it); both are reduced by the same code. An event that routes nothing (progress, notes, started) costs a handful of
    look-ups and creates no objects; fold skips even that for most of them.
    """
    return _apply(state, event if isinstance(event, TranscriptLine) else _line(event, state.last_seq), None)


def _apply(state: SessionState, line: TranscriptLine, following: TranscriptLine | None) -> list[Effect]:
    """apply, told the line that follows in the transcript (fold knows it; see _audit)."""
    kind = line.kind
    ts: str | None = line.ts
    state.last_seq = line.seq
    state.events += 1
    if kind in RECORD_ONLY:
        return []
    if type(ts) is str:
        if len(ts) != _TS_LEN:
            ts = _canonical(ts)
        if ts is not None:
            if state.started_at is None:
                state.started_at = ts
            state.last_ts = ts
    meta = line.meta
    usage = _add_usage(state, meta) if meta and kind != "done" else False
    if kind not in KNOWN_KINDS:
        state.unknown += 1
        return []

    ctx: _Ctx | None = None
    effect_id = line.effect
    effect = state.pending.get(effect_id) if effect_id is not None else None
    if effect_id is not None and (effect is None or kind not in effect.closes):
        if kind not in AUX_KINDS:
            state.duplicates += 1  # a result for an effect already closed, or never issued
            return []
        if kind in _AUX_WITH_STATE:
            _aux(state, kind, _data(line))
    else:
        ctx = _Ctx(line, following)
        if not state.session:
            state.session = line.session
        if effect is not None:
            del state.pending[effect.id]
            _on_result(state, ctx, effect, kind, _data(line))
        elif state.done is not None:
            _after_done(state, ctx, kind, _data(line))
        else:
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(state, ctx, _data(line))
    wall = state.wall_check is not None and ts is not None and ts >= state.wall_check
    if (usage or wall) and state.done is None and not state.finishing:
        ctx = ctx or _Ctx(line)
        _check_usage_budgets(state, ctx, usage=usage, wall=wall)
    return ctx.effects if ctx is not None else []


def fold(state: SessionState, lines: Iterable[TranscriptLine]) -> SessionState:
    """apply over many lines, in place (replay's loop); returns the state.

    Most lines of a long session are quiet: a report on a running effect (progress, effect.started, ...)
    with no usage, a canonical timestamp before the wall-clock check point, in a session that has
    started. Such a line changes the session's counters and clock and nothing else, so the loop counts it
    without calling apply; every other line goes through apply, told the line after it (see _audit).
    tests/core/test_properties.py checks, for random sessions and every prefix of them, that this gives the
    state of applying every line one by one."""
    quiet, ts_len = _QUIET, _TS_LEN
    pending, started, wall = state.pending, state.started_at, state.wall_check
    seq, events, last_ts = state.last_seq, state.events, state.last_ts
    ahead = iter(lines)
    following = next(ahead, None)
    while following is not None:
        line, following = following, next(ahead, None)
        kind, ts = line.kind, line.ts
        if kind in quiet and len(ts) == ts_len and not line.meta and started is not None and (wall is None or ts < wall):
            effect = pending.get(line.effect)  # type: ignore[arg-type]  # None: no effect, not found
            if effect is not None and kind not in effect.closes:
                seq, last_ts = line.seq, ts
                events += 1
                continue
        state.last_seq, state.events, state.last_ts = seq, events, last_ts
        _apply(state, line, following)
        pending, started, wall = state.pending, state.started_at, state.wall_check
        seq, events, last_ts = state.last_seq, state.events, state.last_ts
    state.last_seq, state.events, state.last_ts = seq, events, last_ts
    return state


def _line(event: Event, last_seq: int) -> TranscriptLine:
    """An event in JSON form as the line the reducer reads: its fields as they are, unchecked (a hand-made
    or fuzzed event may lack any of them, or hold anything)."""
    get = event.get
    fields: Any = {"v": get("v"), "seq": get("seq", last_seq), "id": get("id"), "ts": get("ts"),
                   "session": get("session", ""), "kind": get("kind"), "from_": get("from"), "effect": get("effect"),
                   "data": get("data"), "meta": get("meta")}
    return TranscriptLine(**fields)


def _data(line: TranscriptLine) -> dict[str, Any]:
    data = line.data
    return data if type(data) is dict else {}


_AUX_WITH_STATE = frozenset({"spec.update", "error"})
# reports on an effect that change nothing but the session's counters and clock (see fold)
_QUIET = AUX_KINDS - _AUX_WITH_STATE - RECORD_ONLY


# ====================================================================== bookkeeping

_TS_LEN = len("2026-01-01T00:00:00.000000Z")


def _iso(when: datetime) -> str:
    """The one timestamp format of a transcript: ISO 8601, UTC, microseconds, 'Z' (sorts as text)."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _canonical(ts: str) -> str | None:
    try:
        return _iso(_ts(ts))
    except ValueError:
        return None


def _add_usage(state: SessionState, meta: Any) -> bool:
    """Count a result's reported tokens and dollars; True when either grew (budgets to check)."""
    if type(meta) is not dict:
        return False
    changed = False
    tokens = (meta.get("tokens_in") or 0) + (meta.get("tokens_out") or 0)
    if type(tokens) is int and tokens > 0:
        state.tokens += tokens
        changed = True
    cost = meta.get("cost_usd")
    if (type(cost) is float or type(cost) is int) and cost > 0:
        state.cost_usd += float(cost)
        changed = True
    return changed


def _set_limits(state: SessionState) -> None:
    """Budget limits and the wall-clock check points, as timestamps comparable as text."""
    budgets = state.settings.budgets
    state.limits = {k: float(v) for k, v in budgets.to_data().items() if k != "warn_at"}
    state.limits.update(state.budget_overrides)
    state.wall_check = None
    wall = state.limits.get("wall_s")
    if wall is not None and state.started_at is not None:
        start = _ts(state.started_at)
        warn_at = budgets.warn_at
        at = wall if "wall_s" in state.warned else wall * warn_at
        state.wall_check = _iso(start + timedelta(seconds=at))


def _limit(state: SessionState, name: str) -> float:
    return state.limits.get(name, float("inf"))


def _check_usage_budgets(state: SessionState, ctx: _Ctx, *, usage: bool, wall: bool) -> None:
    warn_at = state.settings.budgets.warn_at
    used: dict[str, float] = {}
    if usage:
        used["tokens"], used["cost_usd"] = float(state.tokens), state.cost_usd
    if wall:
        used["wall_s"] = state.elapsed_s()
    for name, value in used.items():
        limit = _limit(state, name)
        if value >= limit:
            _finish(state, ctx, "budget", f"{name}: used {value:g} of {limit:g}")
            return
        if value >= warn_at * limit and name not in state.warned:
            state.warned.append(name)
            _record(state, ctx, "budget.warning", {"budget": name, "used": value, "limit": limit},
                    body=f"{name} at {value:g} of {limit:g}")
            if name == "wall_s":
                _set_limits(state)


def _remember_error(state: SessionState, message: str) -> None:
    state.errors.append(message)
    del state.errors[:-HISTORY]


# ====================================================================== issuing effects


def _binding(state: SessionState, actor: str) -> BindingData:
    return _chain(state, actor)[_index(state, actor)]


def _chain(state: SessionState, actor: str) -> list[BindingData]:
    return state.bindings.get(actor) or [{"harness": "local"}]


def _index(state: SessionState, actor: str) -> int:
    """The adapter in force: its place in the role's chain (0 = the one it was bound to)."""
    return min(state.adapter_index.get(actor, 0), len(_chain(state, actor)) - 1)


def _issue(state: SessionState, ctx: _Ctx, effect: RunActor | QACheck) -> None:
    actor = effect.actor
    state.phase = PHASE_OF_ACTOR.get(actor, state.phase)
    state.waiting_for = None
    if state.paused or actor in state.paused_actors:
        state.deferred.append(effect)
        return
    state.pending[effect.id] = effect
    ctx.effects.append(effect)


def _run(state: SessionState, ctx: _Ctx, actor: str, inputs: dict[str, Any], attempt: int = 1) -> None:
    steering = state.steering.pop(actor, [])
    if steering:
        inputs = {**inputs, "steering": list(inputs.get("steering") or []) + steering}
    effect = RunActor(id=ctx.new_id(), actor=actor, attempt=attempt, binding=_binding(state, actor),
                      index=_index(state, actor), input=inputs, closes=RUN_CLOSES[actor])
    state.last_runs[actor] = {"input": inputs}
    _issue(state, ctx, effect)


def _record(state: SessionState, ctx: _Ctx, kind: str, data: dict[str, Any], body: str = "") -> None:
    effect = Record(id=ctx.new_id(), event=RecordedEvent(kind=kind, data=data, body=body), closes=(kind,))
    state.pending[effect.id] = effect
    ctx.effects.append(effect)


def _cancel_runs(state: SessionState, ctx: _Ctx) -> None:
    targets = tuple(eid for eid, e in state.pending.items() if not isinstance(e, Record))
    for eid in targets:
        del state.pending[eid]
    state.deferred.clear()
    if targets:
        ctx.effects.append(Cancel(id=ctx.new_id(), targets=targets))


def _finish(state: SessionState, ctx: _Ctx, reason: str, detail: str = "", verdict: str | None = None) -> None:
    if state.finishing or state.done is not None:
        return
    _cancel_runs(state, ctx)
    state.finishing = True
    fallback = fell_back(state.played)
    note = played_note(state.played, state.fallbacks)
    _record(state, ctx, "done", {
        "reason": reason, "detail": f"{detail} — {note}" if note and detail else (note or detail), "verdict": verdict,
        "played": copy.deepcopy(state.played), "fallbacks": copy.deepcopy(state.fallbacks), "fallback": fallback,
    }, body=f"done: {reason}" + (" (fallback)" if fallback else ""))


# ---------------------------------------------------------------- role inputs (projections)


def _id(ref: GoalRef | EventRef | None) -> str | None:
    return ref["id"] if ref is not None else None


def _planner_input(state: SessionState, feedback: str | None = None) -> dict[str, Any]:
    return {
        "pitch": state.pitch,
        "seed": state.seed,
        "evidence": list(state.evidence),
        "feedback": feedback,
        "previous_spec": state.spec["data"] if state.spec is not None else None,
        "steering": [],
        "builder": _builder_harness(state),
    }


def _builder_harness(state: SessionState) -> str:
    """Whom the Planner plans for (fidelity.py): the builder in force, or, while a bound one that session.start
    found unable to run here has not been passed over yet, the next of its chain, which will build instead."""
    chain, index = _chain(state, "builder"), _index(state, "builder")
    if index == 0 and "builder" in state.unrunnable and len(chain) > 1:
        index = 1
    return str(chain[index].get("harness", "local"))


def _run_planner(state: SessionState, ctx: _Ctx, feedback: str | None = None) -> None:
    _run(state, ctx, "planner", _planner_input(state, feedback))


def _run_builder(state: SessionState, ctx: _Ctx, feedback: str | None = None) -> None:
    if state.spec is None:
        _run_planner(state, ctx, feedback)
        return
    state.round += 1
    _run(state, ctx, "builder", {
        "pitch": state.pitch,
        "spec": state.spec["data"],
        "spec_id": state.spec["id"],
        "feedback": feedback,
        "qa": state.qa["data"] if feedback and state.qa is not None else None,
        "steering": [],
        "round": state.round,
        "fault": state.fault if state.round == 1 else None,
        "seed": state.seed,
    })


def _run_qa(state: SessionState, ctx: _Ctx) -> None:
    if state.build is None:
        _run_builder(state, ctx)
        return
    spec = state.spec_data
    effect = QACheck(id=ctx.new_id(), build=state.build["id"], manifest=state.build["manifest"],
                     criteria=spec.get("criteria") or [], controls=_qa_controls(spec.get("controls") or {}),
                     round=state.round)
    _issue(state, ctx, effect)


def _qa_controls(controls: dict[str, Any]) -> list[str]:
    """The inputs QA presses to see that the game responds: the spec's keys, a click, a tap."""
    keys = [str(k) for k in controls.get("keys") or []]
    return keys + (["click"] if controls.get("pointer") else []) + (["tap"] if controls.get("touch") else [])


def _run_verifier(state: SessionState, ctx: _Ctx) -> None:
    if state.qa is None:
        _run_qa(state, ctx)
        return
    if state.verifies >= _limit(state, "verifies"):
        _finish(state, ctx, "budget", f"verifies: {state.verifies} of {_limit(state, 'verifies'):g} runs used")
        return
    state.verifies += 1
    _run(state, ctx, "verifier", {
        "goal": {"id": _id(state.goal), "pitch": state.pitch},
        "spec": {"id": _id(state.spec), **state.spec_data},
        "build": {"id": state.build["id"], "manifest": state.build["manifest"]} if state.build is not None
                 else {"id": None, "manifest": None},
        "qa": {"id": state.qa["id"], **state.qa["data"]},
    })


def _fix(state: SessionState, ctx: _Ctx, feedback: str) -> None:
    if state.fixes >= _limit(state, "fixes"):
        _finish(state, ctx, "budget", f"fixes: {state.fixes} of {_limit(state, 'fixes'):g} rounds used")
        return
    state.fixes += 1
    _run_builder(state, ctx, feedback)


def _redesign(state: SessionState, ctx: _Ctx, feedback: str) -> None:
    if state.redesigns >= _limit(state, "redesigns"):
        _finish(state, ctx, "budget", f"redesigns: {state.redesigns} of {_limit(state, 'redesigns'):g} used")
        return
    state.redesigns += 1
    _run_planner(state, ctx, feedback)


# ====================================================================== results of effects


def _on_result(state: SessionState, ctx: _Ctx, effect: Pending, kind: str, data: dict[str, Any]) -> None:
    event = ctx.event
    run = effect if isinstance(effect, RunActor) else None
    if not isinstance(effect, Record):
        if kind == "effect.failed":
            _on_failure(state, ctx, effect, data)
            return
        state.failures[effect.actor] = 0
    if run is not None and kind in RESULT_KINDS and run.actor in RUN_CLOSES:
        state.played[run.actor] = played_by(run.binding, run.index, event.meta, _chain(state, run.actor))
    if kind == "research.plan":
        _run(state, ctx, "researcher", {"pitch": state.pitch, "plan": data})
    elif kind == "research.evidence":
        state.evidence = list(data.get("items") or [])[:HISTORY]
        _run_planner(state, ctx, run.input.get("feedback") if run is not None else None)
    elif kind == "spec":
        state.spec = {"id": event.id, "data": data}
        _run_builder(state, ctx, run.input.get("feedback") if run is not None else None)
    elif kind == "build":
        build: BuildRef = {"id": event.id, "manifest": data.get("manifest") or {}, "spec": data.get("spec")}
        state.build = build
        _run_qa(state, ctx)
    elif kind == "qa.result":
        state.qa = {"id": event.id, "data": data}
        _run_verifier(state, ctx)
    elif kind == "judge.score":
        state.judge = {"id": event.id, "data": data}
        if run is not None:
            _audit(state, ctx, run, data)
    elif kind == "audit":
        _route_verdict(state, ctx, data)
    elif kind == "circuit.opened":
        _on_circuit(state, ctx, data)
    elif kind == "adapter.swapped":
        _on_swapped(state, ctx, data)
    elif kind == "done":
        state.done = {"reason": data.get("reason"), "detail": data.get("detail", ""), "verdict": data.get("verdict")}
        state.phase = "done"
        state.finishing = False
        state.waiting_for = None
        state.pending.clear()
        state.deferred.clear()
    elif kind == "error":
        _remember_error(state, str(data.get("message", "")))


def _aux(state: SessionState, kind: str, data: dict[str, Any]) -> None:
    """Reports that ride along with an effect: they inform, they do not route."""
    if kind == "spec.update":
        if state.spec is not None:
            state.spec = {"id": state.spec["id"], "data": {k: v for k, v in data.items() if k not in ("by", "source")}}
    elif kind == "error":
        _remember_error(state, str(data.get("message", "")))


def _audit(state: SessionState, ctx: _Ctx, effect: RunActor, judge: dict[str, Any]) -> None:
    following = ctx.following
    if following is not None and following.kind == "audit" and following.effect == f"{ctx.event.id}.{ctx.n + 1}":
        # replay, and the transcript's next line is this very audit, as it was recorded: it closes the effect
        # before anything can read it and routes with its own data, so the judgement is not audited again
        # for nobody (the effect's data is left empty; the state after that line is the same)
        _record(state, ctx, "audit", {})
        return
    inputs = effect.input
    input_ids = [x for x in (
        (inputs.get("goal") or {}).get("id"), (inputs.get("spec") or {}).get("id"),
        (inputs.get("build") or {}).get("id"), (inputs.get("qa") or {}).get("id"),
    ) if x]
    result = validate(
        judge,
        qa=state.qa["data"] if state.qa is not None else None,
        spec=state.spec["data"] if state.spec is not None else None,
        build=dict(state.build) if state.build is not None else None,
        input_ids=input_ids,
        judge_provider=effect.binding.get("provider"),
        builder_provider=_binding(state, "builder").get("provider"),
        settings=state.settings.judge,
    )
    data = {"judge": ctx.event.id, "qa": _id(state.qa), **result}
    n = len(result["corrections"])
    _record(state, ctx, "audit", data, body=f"{result['verdict']} ({n} correction{'s' if n != 1 else ''})")


def _route_verdict(state: SessionState, ctx: _Ctx, audit: dict[str, Any]) -> None:
    verdict, severity = audit.get("verdict"), audit.get("severity")
    state.verdicts.append({
        "round": state.round, "verdict": verdict, "severity": severity,
        "total": audit.get("total"), "corrections": len(audit.get("corrections") or []),
    })
    del state.verdicts[:-HISTORY]
    feedback = audit.get("feedback") or ""
    if verdict == "PASS":
        if state.steering.get("planner"):
            _redesign(state, ctx, "the person asked for changes")
        elif state.steering.get("builder"):
            _fix(state, ctx, "the person asked for changes")
        else:
            _finish(state, ctx, "pass", f"PASS at round {state.round} with total {audit.get('total')}", "PASS")
    elif verdict == "PARTIAL":
        state.phase = "waiting"
        state.waiting_for = "approval"
        state.feedback = feedback
    elif severity == "Critical":
        _redesign(state, ctx, feedback or "Critical: redesign")
    else:
        _fix(state, ctx, feedback or f"{verdict}: fix")


def _on_failure(state: SessionState, ctx: _Ctx, effect: RunActor | QACheck, data: dict[str, Any]) -> None:
    actor = effect.actor
    state.failures[actor] = state.failures.get(actor, 0) + 1
    _remember_error(state, f"{actor}: {data.get('error') or 'failed'}")
    if state.failures[actor] < state.settings.circuit.failures:
        _issue(state, ctx, msgspec.structs.replace(effect, id=ctx.new_id(), attempt=effect.attempt + 1))
        return
    if not isinstance(effect, RunActor):
        _finish(state, ctx, "error", f"{actor} failed {state.failures[actor]} times in a row: {data.get('error')}")
        return
    state.last_runs[actor] = {"input": effect.input}
    binding = _binding(state, actor)
    _record(state, ctx, "circuit.opened", {
        "actor": actor, "adapter": binding.get("harness", "local"),
        "failures": state.failures[actor], "error": data.get("error"),
    }, body=f"{actor} circuit opened on {binding.get('harness')}")


def _on_circuit(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor", "")
    chain = _chain(state, actor)
    index = state.adapter_index.get(actor, 0) + 1
    state.failures[actor] = 0
    state.fallbacks.append({
        "actor": actor, "before": data.get("adapter"), "after": chain[index].get("harness") if index < len(chain) else None,
        "failures": int(data.get("failures") or 1), "error": data.get("error"),
    })
    del state.fallbacks[:-HISTORY]
    if index >= len(chain):
        state.adapter_index[actor] = len(chain)
        _finish(state, ctx, "circuit_open", f"every adapter for the {actor} failed {data.get('failures')} times in a row")
        return
    before, after = _binding(state, actor), chain[index]
    _record(state, ctx, "adapter.swapped", {
        "actor": actor, "before": before.get("harness"), "after": after.get("harness"), "reason": "circuit", "binding": after,
    }, body=f"{actor}: {before.get('harness')} → {after.get('harness')}")


def _on_swapped(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor", "")
    if data.get("reason") == "circuit":
        state.adapter_index[actor] = state.adapter_index.get(actor, 0) + 1
    last = state.last_runs.get(actor)
    if last is not None and actor in RUN_CLOSES:
        _run(state, ctx, actor, last["input"])


# ====================================================================== events not tied to an effect


def _on_session_start(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    state.settings, problems = recorded_settings(data.get("settings"))  # a new object: the state never aliases an event
    for problem in problems:
        _refuse(state, ctx, problem)
    state.bindings = copy.deepcopy(data.get("bindings") or {})
    state.adapter_index = {role: 0 for role in state.bindings}
    state.unrunnable = sorted(data.get("unrunnable") or {})
    state.preset = data.get("preset", "local")
    state.seed = int(data.get("seed", 1))
    state.fault = data.get("fault")
    _set_limits(state)


def _on_fork(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    """The line after a fork's copied prefix: the fork's bindings (and preset, seed, fault) from here on;
    each run left pending at the cut is issued again, under a new effect id, with the binding now in force.
    The copied prefix may hold an `effect.started` for the old id: its result can never come (nothing ran
    in this session), so the old id is closed here and only the new one waits."""
    state.forked_from = copy.deepcopy(data.get("forked_from"))
    for role, chain in (data.get("bindings") or {}).items():
        state.bindings[role] = copy.deepcopy(chain)
        state.adapter_index[role] = 0
        state.failures[role] = 0
    rebound = set(data.get("bindings") or {})
    state.unrunnable = sorted({*(r for r in state.unrunnable if r not in rebound), *(data.get("unrunnable") or {})})
    if data.get("preset"):
        state.preset = str(data["preset"])
    if data.get("seed") is not None:
        state.seed = int(data["seed"])
    if data.get("preset") or data.get("fault") is not None:
        state.fault = data.get("fault")
    if state.done is not None:
        return
    for eid, effect in list(state.pending.items()):
        if isinstance(effect, Record):
            continue  # a record to write is the same in the fork: dispatched again as it is
        del state.pending[eid]
        if isinstance(effect, RunActor):
            inputs = dict(effect.input)
            if "seed" in inputs:
                inputs["seed"] = state.seed
            if "fault" in inputs:
                inputs["fault"] = state.fault if inputs.get("round") == 1 else None
            state.last_runs[effect.actor] = {"input": inputs}
            _issue(state, ctx, msgspec.structs.replace(effect, id=ctx.new_id(), binding=_binding(state, effect.actor),
                                                       index=_index(state, effect.actor), input=inputs))
        else:
            _issue(state, ctx, msgspec.structs.replace(effect, id=ctx.new_id()))


def _on_goal(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    state.goal = {"id": ctx.event.id, "pitch": data.get("pitch", "")}
    _run_planner(state, ctx)


def _on_spec_update(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    spec = {k: v for k, v in data.items() if k not in ("by", "source")}
    state.spec = {"id": ctx.event.id, "data": spec}
    if data.get("by", "user") == "user":
        _cancel_runs(state, ctx)
        _run_builder(state, ctx, "the person edited the spec")


def _target(data: dict[str, Any], default: str = "builder") -> str:
    actor = data.get("actor")
    return actor if actor in RUN_CLOSES else default


def _on_intervene(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    text = str(data.get("text", ""))
    actor = _target(data)
    if state.waiting_for == "approval":
        if actor == "planner":
            state.steering.setdefault("planner", []).append(text)
            _redesign(state, ctx, text)
        else:
            state.steering.setdefault(actor, []).append(text)
            _fix(state, ctx, text)
        return
    msgs = state.steering.setdefault(actor, [])
    msgs.append(text)
    del msgs[:-HISTORY]


def _on_approve(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    if state.waiting_for == "approval":
        last = state.verdicts[-1]["verdict"] if state.verdicts else None
        _finish(state, ctx, "approved", "a person approved the PARTIAL verdict", last)
    else:
        _refuse(state, ctx, f"nothing to approve: the session is {state.phase}; /approve answers a PARTIAL verdict")


def _on_veto(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    if state.waiting_for == "approval":
        _fix(state, ctx, data.get("reason") or "a person vetoed the PARTIAL verdict")
    else:
        _refuse(state, ctx, f"nothing to veto: the session is {state.phase}; send a message to steer the next build instead")


def _on_pause(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor")
    if actor is None:
        state.paused = True
    elif actor not in state.paused_actors:
        state.paused_actors.append(actor)


def _on_resume(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor")
    if actor is None:
        state.paused = False
        state.paused_actors.clear()
    elif actor in state.paused_actors:
        state.paused_actors.remove(actor)
    held, state.deferred = state.deferred, []
    for effect in held:
        _issue(state, ctx, effect)


def _goto(state: SessionState, ctx: _Ctx, actor: str, why: str) -> None:
    _cancel_runs(state, ctx)
    if actor == "planner":
        _run_planner(state, ctx, why)
    elif actor == "builder":
        _run_builder(state, ctx, why)
    elif actor == "qa":
        _run_qa(state, ctx)
    elif actor == "verifier":
        _run_verifier(state, ctx)
    elif actor == "researcher":
        _run(state, ctx, "researcher", {"pitch": state.pitch,
                                        "plan": {"questions": ["which genre fits this pitch?"], "reason": why}})


def _on_goto(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    _goto(state, ctx, str(data.get("actor")), "a person sent the session here")


def _on_swap(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = str(data.get("actor"))
    harness: Any = data.get("harness")  # None only in a transcript edited by hand: the writer requires one
    binding: BindingData = {"harness": harness, "model": data.get("model"), "origin": "user"}
    chain: list[BindingData] = list(state.bindings.get(actor) or [{"harness": "local"}])
    state.bindings[actor] = [binding] + [b for b in chain if b.get("harness") != binding["harness"]]
    state.adapter_index[actor] = 0
    state.failures[actor] = 0


def _on_append(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    msgs = state.steering.setdefault(_target(data), [])
    msgs.append(str(data.get("text", "")))
    del msgs[:-HISTORY]


def _on_cancel(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    _finish(state, ctx, "cancelled", data.get("reason") or "a person cancelled the session")


def _on_reset_circuit(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor", "all")
    for role in (list(RUN_CLOSES) if actor == "all" else [actor]):
        state.failures[role] = 0
        if state.adapter_index.get(role):
            state.adapter_index[role] = 0


def _on_redo(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    actor = data.get("actor") or "builder"
    _goto(state, ctx, actor, "a person asked to redo this step")


def _on_budget(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    name = str(data.get("name"))
    known = list(state.limits)
    if name not in known:
        _refuse(state, ctx, f"unknown budget {name!r}; known budgets: {', '.join(known)}")
        return
    value = float(data.get("value", 0))
    used = state.budget_use()[name]["used"]
    if value < used:  # a limit already passed cannot be kept; stopping now is what `cancel` is for
        _refuse(state, ctx, f"budget {name}: {used:g} already used, so a limit of {value:g} cannot hold; "
                            f"give at least {used:g} (that stops before any more), or cancel the session")
        return
    state.budget_overrides[name] = value
    if name in BUDGETS_BY_USAGE and name in state.warned:
        state.warned.remove(name)
    _set_limits(state)


def _on_status(state: SessionState, ctx: _Ctx, data: dict[str, Any]) -> None:
    s = state.summary()
    uses = ", ".join(f"{k} {v['used']:g}/{v['limit']:g}" for k, v in s["budgets"].items())
    text = (f"phase {s['phase']}, round {s['round']}, genre {s['genre'] or '-'}, "
            f"pending {len(s['pending'])}, paused {s['paused']}; budgets: {uses}")
    _record(state, ctx, "note", {"text": text}, body="status")


def _refuse(state: SessionState, ctx: _Ctx, message: str) -> None:
    _record(state, ctx, "error", {"message": message}, body=message[:200])


def _after_done(state: SessionState, ctx: _Ctx, kind: str, data: dict[str, Any]) -> None:
    """A finished session stays finished; a person's command still gets an answer, /redo reopens."""
    reason = state.done["reason"] if state.done is not None else None
    if kind == "user.redo" and reason != "cancelled":
        state.done = None
        state.phase = "new"
        _on_redo(state, ctx, data)
    elif kind in ("user.intervene", "user.append"):
        actor = _target(data)
        state.steering.setdefault(actor, []).append(str(data.get("text", "")))
        _refuse(state, ctx, f"the session is done ({reason}); your message is kept: send /redo to build again with it")
    elif kind == "spec.update" and data.get("by", "user") == "user":
        state.done = None
        _on_spec_update(state, ctx, data)
    elif kind.startswith("user.") and kind not in ("user.note", "user.status"):
        _refuse(state, ctx, f"the session is done ({reason}); {kind[5:]} does nothing now — pitch a new game or /redo")
    elif kind == "user.status":
        _on_status(state, ctx, data)
    elif kind == "session.fork":
        _on_fork(state, ctx, data)


_HANDLERS: dict[str, Callable[[SessionState, _Ctx, dict[str, Any]], None]] = {
    "session.start": _on_session_start,
    "session.fork": _on_fork,
    "goal": _on_goal,
    "spec.update": _on_spec_update,
    "user.intervene": _on_intervene,
    "user.approve": _on_approve,
    "user.veto": _on_veto,
    "user.pause": _on_pause,
    "user.resume": _on_resume,
    "user.goto": _on_goto,
    "user.swap": _on_swap,
    "user.append": _on_append,
    "user.cancel": _on_cancel,
    "user.reset_circuit": _on_reset_circuit,
    "user.redo": _on_redo,
    "user.budget": _on_budget,
    "user.status": _on_status,
}

assert set(ACTORS) >= set(RUN_CLOSES)
