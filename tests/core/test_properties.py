"""Property tests: the reducer survives any event order, folds compose, replay is deterministic."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crumb.reducer.effects import to_data
from crumb.reducer.reduce import apply, fold, initial_state, reduce
from crumb.reducer.replay import replay_events, replay_file
from crumb.store.reader import read_events, read_lines
from crumb.store.writer import TranscriptWriter
from tests.core.sim import Sim, judge_data, manifest, qa_data, spec_data

RESULTS = {
    "planner": [("spec", lambda: spec_data()), ("research.plan", lambda: {"questions": ["which?"]})],
    "researcher": [("research.evidence", lambda: {"items": []})],
    "builder": [("build", lambda: {"manifest": manifest()})],
    "verifier": [("judge.score", lambda: judge_data("PASS", total=4.5)),
                 ("judge.score", lambda: judge_data("PARTIAL", total=3.0)),
                 ("judge.score", lambda: judge_data("FAIL", "Critical", 1.0)),
                 ("judge.score", lambda: judge_data("FAIL", "Minor", 2.0))],
    "qa": [("qa.result", lambda: qa_data(True)), ("qa.result", lambda: qa_data(False))],
}
USER = [
    ("user.approve", {}), ("user.veto", {"reason": "no"}), ("user.pause", {}), ("user.resume", {}),
    ("user.pause", {"actor": "builder"}), ("user.resume", {"actor": "builder"}), ("user.goto", {"actor": "builder"}),
    ("user.goto", {"actor": "qa"}), ("user.swap", {"actor": "builder", "harness": "local"}),
    ("user.append", {"text": "red"}), ("user.note", {"text": "n"}), ("user.intervene", {"text": "faster"}),
    ("user.cancel", {}), ("user.reset_circuit", {"actor": "all"}), ("user.redo", {}),
    ("user.budget", {"name": "fixes", "value": 2}), ("user.status", {}), ("goal", {"pitch": "again"}),
    ("spec.update", {**spec_data("pong"), "by": "user"}),
]

REPORTS = [
    ("progress", {"effect_id": "x", "actor": "builder", "message": "edited game.js", "files": ["game.js"]}),
    ("effect.started", {"effect_id": "x", "kind": "run_actor", "actor": "builder"}),
    ("effect.finished", {"effect_id": "x", "kind": "run_actor"}),
    ("note", {"text": "n"}), ("budget.warning", {"budget": "tokens", "used": 1, "limit": 2}),
    ("error", {"message": "a run said so"}), ("spec.update", {**spec_data("pong"), "by": "planner"}),
]


def drive(data: st.DataObject, steps: int) -> Sim:
    """A random but valid session: results for pending effects, failures, duplicates, stray results,
    and a person's commands at any moment — including after done."""
    sim = Sim(settings={"circuit": {"failures": 2}}, bindings={"builder": [{"harness": "claude"}, {"harness": "local"}]})
    sim.send("goal", {"pitch": "snake"})
    closed: list[tuple[str, str, dict]] = []
    for _ in range(steps):
        pending = [to_data(e) for e in sim.state.pending.values()]
        move = data.draw(st.sampled_from(["result", "result", "result", "fail", "user", "duplicate", "stray", "report"]))
        if move in ("result", "fail") and pending:
            effect = data.draw(st.sampled_from(pending))
            if effect["kind"] == "record":
                ev = effect["event"]
                sim.send(ev["kind"], ev["data"], effect=effect["id"], from_="dispatcher")
                closed.append((ev["kind"], effect["id"], ev["data"]))
            elif move == "fail":
                sim.send("effect.failed", {"effect_id": effect["id"], "kind": effect["kind"], "error": "x"},
                         effect=effect["id"], from_="dispatcher")
            else:
                kind, make = data.draw(st.sampled_from(RESULTS[effect.get("actor") or "qa"]))
                sim.send(kind, make(), effect=effect["id"], from_="dispatcher")
                closed.append((kind, effect["id"], make()))
        elif move == "duplicate" and closed:
            kind, eid, payload = data.draw(st.sampled_from(closed))
            sim.send(kind, payload, effect=eid, from_="dispatcher")
        elif move == "report":  # what rides along with a run: progress, started, notes, with or without usage
            kind, payload = data.draw(st.sampled_from(REPORTS))
            ids = [e["id"] for e in pending] + [eid for _, eid, _ in closed] + [None]
            meta = data.draw(st.sampled_from([None, {"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.01}]))
            sim.send(kind, payload, effect=data.draw(st.sampled_from(ids)), from_="dispatcher",
                     meta=meta, advance_s=data.draw(st.sampled_from([0.25, 1.0, 3600.0])))
        elif move == "stray":
            kind, make = data.draw(st.sampled_from(RESULTS["verifier"] + RESULTS["qa"]))
            sim.send(kind, make(), effect="01JNOSUCHEFFECT00000000000.1", from_="dispatcher")
        else:
            kind, payload = data.draw(st.sampled_from(USER))
            sim.send(kind, payload)
    return sim


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), steps=st.integers(1, 60))
def test_random_sessions_never_crash_and_keep_their_invariants(data, steps):
    sim = drive(data, steps)
    s = sim.state
    assert s.last_seq == len(sim.events)
    if s.done is not None:
        assert s.deferred == [] and s.phase == "done"
        assert all(e.kind == "record" for e in s.pending.values())  # only answers to a person's commands
    for effect in s.pending.values():
        assert effect.id.split(".")[0] in {e["id"] for e in sim.events}  # derived from a real cause
    assert s.fixes <= s.budget_limits()["fixes"] and s.redesigns <= s.budget_limits()["redesigns"]
    assert s.verifies <= s.budget_limits()["verifies"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), steps=st.integers(1, 40), cut=st.integers(0, 100))
def test_reducing_a_prefix_then_the_rest_equals_reducing_all(data, steps, cut):
    events = drive(data, steps).events
    k = cut % (len(events) + 1)
    whole = replay_events(events)
    part = replay_events(events[:k])
    for event in events[k:]:
        part, _ = reduce(part, event)
    assert part.to_dict() == whole.to_dict()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), steps=st.integers(1, 40))
def test_replay_is_deterministic_and_equals_the_live_state(tmp_path_factory, data, steps):
    sim = drive(data, steps)
    snapshot = json.dumps(sim.events, sort_keys=True)
    first, second = replay_events(sim.events), replay_events(sim.events)
    assert first.state_hash() == second.state_hash() == sim.state.state_hash()
    assert json.dumps(sim.events, sort_keys=True) == snapshot  # the reducer never mutates an event


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), steps=st.integers(1, 40))
def test_replay_of_a_file_reads_lines_to_the_state_the_dicts_give(tmp_path_factory, data, steps):
    """replay_file reads TranscriptLines with raw data (read_lines); every other reader has dicts
    (read_events): both folds, and the live run, reach one state."""
    sim = drive(data, steps)
    path = tmp_path_factory.mktemp("lines") / "transcript.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in sim.events))
    from_lines, from_dicts = replay_file(path), replay_events(read_events(path))
    assert from_lines.to_dict() == from_dicts.to_dict()
    assert from_lines.state_hash() == from_dicts.state_hash() == sim.state.state_hash()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), steps=st.integers(1, 60))
def test_fold_reaches_the_state_of_applying_every_line(tmp_path_factory, data, steps):
    """fold (replay's loop) counts quiet lines without calling apply: a shortcut, so every random
    session folds to the state of applying its lines one by one."""
    sim = drive(data, steps)
    path = tmp_path_factory.mktemp("fold") / "transcript.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in sim.events))
    lines = list(read_lines(path))
    one_by_one = initial_state("")
    for k, line in enumerate(lines, 1):  # every prefix: a quiet line may be the last one
        apply(one_by_one, line)
        assert fold(initial_state(""), lines[:k]).to_dict() == one_by_one.to_dict()
    assert one_by_one.to_dict() == sim.state.to_dict()


def test_reduce_never_mutates_its_input():
    sim = Sim()
    before = sim.state.to_dict()
    state, effects = reduce(sim.state, {**sim.events[0], "seq": 2, "kind": "goal", "data": {"pitch": "x"}})
    assert sim.state.to_dict() == before and effects and state.goal


def test_replay_from_file_twice_gives_the_same_hash(tmp_path: Path):
    path = tmp_path / "transcript.jsonl"
    sim = Sim(writer=TranscriptWriter(path, "01JSESSION0000000000000000", fsync="never"))
    sim.to_spec()
    sim.to_qa()
    sim.judge("PASS", total=5.0)
    sim.finish()
    a, b = replay_file(path), replay_file(path)
    assert a.state_hash() == b.state_hash() == sim.state.state_hash()
    assert a.done["reason"] == "pass" and a.verdicts[0]["verdict"] == "PASS"


PURE = ("crumb/reducer/reduce.py", "crumb/reducer/state.py", "crumb/reducer/validator.py", "crumb/reducer/played.py",
        "crumb/reducer/effects.py", "crumb/settings.py", "crumb/protocol/errors.py", "crumb/protocol/line.py", "crumb/protocol/reading.py")  # settings: read in session.start
PURE_IMPORTS = {"__future__", "collections.abc", "copy", "dataclasses", "datetime", "hashlib", "typing", "msgspec",
                "pydantic", "crumb.protocol.errors", "crumb.protocol.events", "crumb.protocol.game", "crumb.protocol.line", "crumb.protocol.names", "crumb.protocol.reading", "re",
                "crumb.reducer.effects", "crumb.reducer.played", "crumb.reducer.state", "crumb.reducer.validator", "crumb.settings"}
IMPURE_NAMES = {"open", "print", "input", "exec", "eval", "__import__", "getattr"}
IMPURE_ATTRS = {"now", "utcnow", "today", "fromtimestamp", "environ", "getenv", "urandom", "getpid"}


def test_the_reducer_reads_no_clock_environment_file_or_randomness():
    """Purity by construction: the reducer's modules import and call nothing that could (what the
    determinism properties above could miss, e.g. reading a file whose content never changes)."""
    import ast

    root = Path(__file__).resolve().parents[2]
    for rel in PURE:
        tree = ast.parse((root / rel).read_text(), rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {node.module or ""}
            else:
                names = set()
            assert names <= PURE_IMPORTS, f"{rel}:{node.lineno}: the reducer may not import {names - PURE_IMPORTS}"
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):  # a field named `input` is no call
                assert node.id not in IMPURE_NAMES, f"{rel}:{node.lineno}: {node.id} in the pure reducer"
            if isinstance(node, ast.Attribute):
                assert node.attr not in IMPURE_ATTRS, f"{rel}:{node.lineno}: .{node.attr} in the pure reducer"
