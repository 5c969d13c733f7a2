"""Who played each role, as the pure reducer records it: the binding behind each role's last result,
the circuits that opened, and `done` saying both so a finished session says it forever. A fallback
never reads as a plain PASS; a person's /swap is named but is not a fallback; replay gives the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crumb.reducer.effects import to_data
from crumb.reducer.replay import replay_file
from crumb.store.writer import TranscriptWriter
from tests.core.sim import Sim, judge_data, manifest, qa_data, spec_data

CLAUDE = {"harness": "claude", "provider": "anthropic", "model": "sonnet", "options": {}, "origin": "flag"}
LOCAL = {"harness": "local", "provider": None, "model": None, "options": {}, "origin": "fallback"}
NOT_FOUND = "executable 'claude' not found: install Claude Code or bind another harness"


def fail(sim: Sim, actor: str, error: str = NOT_FOUND) -> None:
    run = sim.pending("run_actor", actor)
    sim.send("effect.failed", {"effect_id": run["id"], "kind": "run_actor", "actor": actor, "error": error},
             effect=run["id"], from_="dispatcher")


def local_meta(model: str | None = None) -> dict[str, Any]:
    return {"harness": "local", "model": model}


def fallback_session(sim: Sim) -> dict[str, Any]:
    """The builder bound to claude fails 3×; local builds; everything passes. Returns the done data."""
    sim.send("goal", {"pitch": "60-second snake"})
    sim.answer("planner", "spec", spec_data(), meta=local_meta())
    for _ in range(3):
        fail(sim, "builder")
    sim.record("circuit.opened")
    sim.record("adapter.swapped")
    sim.answer("builder", "build", {"manifest": manifest()}, meta=local_meta())
    sim.answer("qa", "qa.result", qa_data())
    sim.answer("verifier", "judge.score", judge_data("PASS", total=4.6), meta=local_meta("local-judge"))
    sim.record("audit")
    done = next(to_data(e) for e in sim.state.pending.values() if e.kind == "record")["event"]
    sim.finish()
    return done


def test_a_role_the_circuit_swapped_makes_done_say_fallback_with_who_failed_and_why():
    sim = Sim(bindings={"builder": [CLAUDE, LOCAL], "planner": [LOCAL], "verifier": [LOCAL]})
    done = fallback_session(sim)
    data = done["data"]
    assert data["reason"] == "pass" and data["verdict"] == "PASS" and data["fallback"] is True
    assert data["played"]["builder"] == {"harness": "local", "provider": None, "model": None, "origin": "fallback",
                                         "index": 1, "fallback": True, "bound": "claude:sonnet"}
    assert data["played"]["verifier"]["model"] == "local-judge"  # what the adapter reported
    assert not data["played"]["planner"]["fallback"] and not data["played"]["verifier"]["fallback"]
    assert data["fallbacks"] == [{"actor": "builder", "before": "claude", "after": "local", "failures": 3,
                                  "error": NOT_FOUND}]
    assert data["detail"].startswith("PASS at round 1 with total ")  # the validator's total, whatever it is
    assert data["detail"].endswith(f" — fallback: builder played by local after claude failed 3× ({NOT_FOUND})")
    assert done["body"] == "done: pass (fallback)"
    summary = sim.state.summary()
    assert summary["fallback"] is True and summary["played"] == data["played"]
    assert summary["played_text"]["builder"].startswith("local — fallback after claude failed 3×")
    assert summary["played_text"]["planner"] == "local"


def test_every_role_played_as_bound_is_a_plain_pass_naming_each_model():
    sim = Sim(bindings={"builder": [CLAUDE, LOCAL], "planner": [LOCAL], "verifier": [LOCAL]})
    sim.send("goal", {"pitch": "60-second snake"})
    sim.answer("planner", "spec", spec_data(), meta=local_meta())
    sim.answer("builder", "build", {"manifest": manifest()}, meta={"harness": "claude", "model": "claude-sonnet-4-5"})
    sim.answer("qa", "qa.result", qa_data())
    sim.judge("PASS", total=4.6)
    done = next(to_data(e) for e in sim.state.pending.values() if e.kind == "record")["event"]["data"]
    assert done["fallback"] is False and done["fallbacks"] == []
    assert done["detail"] == f"PASS at round 1 with total {sim.state.verdicts[-1]['total']}"  # nothing added
    assert done["played"]["builder"]["model"] == "claude-sonnet-4-5" and done["played"]["builder"]["index"] == 0
    assert sim.state.summary()["played_note"] == ""


def test_a_persons_swap_is_named_but_is_not_a_fallback():
    sim = Sim(bindings={"builder": [LOCAL]})
    sim.send("user.swap", {"actor": "builder", "harness": "codex", "model": "gpt-5-codex"})
    sim.send("goal", {"pitch": "60-second snake"})
    sim.answer("planner", "spec", spec_data())
    sim.answer("builder", "build", {"manifest": manifest()}, meta={"harness": "codex", "model": "gpt-5-codex"})
    sim.answer("qa", "qa.result", qa_data())
    sim.judge("PASS", total=4.6)
    done = next(to_data(e) for e in sim.state.pending.values() if e.kind == "record")["event"]
    assert done["data"]["fallback"] is False and done["body"] == "done: pass"
    assert done["data"]["played"]["builder"]["origin"] == "user"
    assert done["data"]["detail"].endswith("— builder played by codex:gpt-5-codex (a person's /swap)")


def test_after_a_reset_the_bound_harness_plays_again_and_the_circuit_stays_on_record():
    sim = Sim(settings={"circuit": {"failures": 1}}, bindings={"builder": [CLAUDE, LOCAL]})
    sim.to_spec()
    fail(sim, "builder")
    sim.record("circuit.opened")
    sim.record("adapter.swapped")
    sim.answer("builder", "build", {"manifest": manifest()})
    assert sim.state.summary()["fallback"] is True  # a running session says it too
    sim.answer("qa", "qa.result", qa_data(ok=False))
    sim.send("user.reset_circuit", {"actor": "builder"})
    sim.answer("verifier", "judge.score", judge_data("FAIL", "Important", total=2.0))
    sim.record("audit")
    run = sim.pending("run_actor", "builder")
    assert run["binding"]["harness"] == "claude" and run["index"] == 0
    sim.answer("builder", "build", {"manifest": manifest()}, meta={"model": "sonnet"})
    s = sim.state.summary()
    assert s["fallback"] is False and s["played"]["builder"]["harness"] == "claude"
    assert [(f["before"], f["after"]) for f in s["fallbacks"]] == [("claude", "local")]


def test_a_chain_run_out_is_on_record_with_no_adapter_after():
    sim = Sim(settings={"circuit": {"failures": 1}}, bindings={"planner": [{"harness": "codex"}]})
    sim.send("goal", {"pitch": "snake"})
    fail(sim, "planner", "codex: not signed in")
    sim.record("circuit.opened")
    done = next(to_data(e) for e in sim.state.pending.values() if e.kind == "record")["event"]["data"]
    assert done["reason"] == "circuit_open" and done["fallback"] is False and done["played"] == {}
    assert done["fallbacks"] == [{"actor": "planner", "before": "codex", "after": None, "failures": 1,
                                  "error": "codex: not signed in"}]


def test_replay_of_a_fallback_session_gives_the_live_state(tmp_path: Path):
    path = tmp_path / "transcript.jsonl"
    sim = Sim(bindings={"builder": [CLAUDE, LOCAL]}, writer=TranscriptWriter(path, "01JSESSION0000000000000000", fsync="never"))
    fallback_session(sim)
    replayed = replay_file(path)
    assert replayed.played == sim.state.played and replayed.done == sim.state.done
    assert replayed.state_hash() == sim.state.state_hash()
