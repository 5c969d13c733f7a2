"""Every cell of the routing table (ARCHITECTURE.md) and every user command, driven through the reducer."""

from __future__ import annotations

import pytest

from crumb.reducer.reduce import reduce
from tests.core.sim import Sim, judge_data, manifest, qa_data, spec_data


def kinds(effects: list[dict]) -> list[str]:
    return [e["kind"] + (":" + e["actor"] if e.get("actor") else "") + (":" + e["event"]["kind"] if e["kind"] == "record" else "")
            for e in effects]


# ------------------------------------------------------------------ the main table


def test_goal_runs_planner_with_the_pitch():
    sim = Sim()
    effects = sim.send("goal", {"pitch": "60-second snake"})
    assert kinds(effects) == ["run_actor:planner"]
    assert effects[0]["input"]["pitch"] == "60-second snake"
    assert effects[0]["id"].startswith(sim.events[-1]["id"])  # derived from its cause
    assert sim.state.phase == "planning"


def test_research_plan_runs_researcher_and_evidence_returns_to_planner():
    sim = Sim()
    sim.send("goal", {"pitch": "a game about bees"})
    effects = sim.answer("planner", "research.plan", {"questions": ["which genre?"], "candidates": ["snake"]})
    assert kinds(effects) == ["run_actor:researcher"]
    assert effects[0]["input"]["plan"]["questions"] == ["which genre?"]
    item = {"id": "cat:snake", "source": "catalogue", "title": "Snake", "text": "eat, grow"}
    effects = sim.answer("researcher", "research.evidence", {"items": [item]})
    assert kinds(effects) == ["run_actor:planner"]
    assert effects[0]["input"]["evidence"] == [item]


def test_spec_runs_builder_with_spec_round_and_seed():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    effects = sim.answer("planner", "spec", spec_data())
    assert kinds(effects) == ["run_actor:builder"]
    assert effects[0]["input"]["spec"]["genre"] == "snake"
    assert effects[0]["input"]["round"] == 1


def test_build_runs_qa_with_build_identity_and_criteria():
    sim = Sim()
    sim.to_spec()
    effects = sim.answer("builder", "build", {"manifest": manifest()})
    assert kinds(effects) == ["qa_check:qa"]
    assert effects[0]["build"] == sim.events[-1]["id"]
    assert len(effects[0]["criteria"]) == 3
    assert effects[0]["manifest"]["files"][0]["path"] == "f0.html"


@pytest.mark.parametrize("ok", [True, False])
def test_qa_result_always_runs_verifier_on_projected_evidence(ok):
    sim = Sim()
    sim.to_spec()
    sim.answer("builder", "build", {"manifest": manifest()})
    effects = sim.answer("qa", "qa.result", qa_data(ok))
    assert kinds(effects) == ["run_actor:verifier"]
    projected = effects[0]["input"]
    assert set(projected) == {"goal", "spec", "build", "qa"}
    assert projected["qa"]["ok"] is ok and projected["qa"]["id"] == sim.events[-1]["id"]


def test_judge_score_goes_through_the_validator_as_an_audit_event():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    effects = sim.answer("verifier", "judge.score", judge_data("PASS", total=4.9))
    assert kinds(effects) == ["record:audit"]
    audit = effects[0]["event"]["data"]
    assert audit["judge"] == sim.events[-1]["id"]
    assert audit["verdict"] == "PASS"


def test_pass_ends_done_with_reason_pass():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge("PASS", total=5.0)
    done = sim.pending("record")
    assert done["event"]["kind"] == "done" and done["event"]["data"]["reason"] == "pass"
    sim.finish()
    assert sim.state.done["reason"] == "pass" and sim.state.phase == "done"
    assert sim.state.pending == {}


def test_partial_waits_for_a_person_then_approve_ends_approved():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge("PARTIAL", total=3.0)
    assert sim.state.phase == "waiting" and sim.state.waiting_for == "approval"
    assert sim.state.pending == {}
    effects = sim.send("user.approve", {})
    assert kinds(effects) == ["record:done"]
    sim.finish()
    assert sim.state.done["reason"] == "approved"


@pytest.mark.parametrize("command,data", [("user.veto", {"reason": "too slow"}), ("user.intervene", {"text": "too slow"})])
def test_partial_then_veto_or_steer_sends_builder_to_fix_with_the_words(command, data):
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge("PARTIAL", total=3.0)
    effects = sim.send(command, data)
    assert kinds(effects) == ["run_actor:builder"]
    run = effects[0]["input"]
    assert "too slow" in (run["feedback"] or "") + " ".join(run["steering"])
    assert sim.state.fixes == 1 and run["round"] == 2


@pytest.mark.parametrize("verdict", ["FAIL", "REJECT"])
def test_critical_failure_sends_planner_to_redesign(verdict):
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge(verdict, "Critical", total=1.0)
    effect = sim.pending("run_actor", "planner")
    assert effect["input"]["previous_spec"]["genre"] == "snake"
    assert effect["input"]["feedback"]
    assert sim.state.redesigns == 1


@pytest.mark.parametrize("verdict", ["FAIL", "REJECT"])
@pytest.mark.parametrize("severity", ["Important", "Minor"])
def test_lesser_failure_sends_builder_to_fix_with_feedback_and_qa(verdict, severity):
    sim = Sim()
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge(verdict, severity, total=1.0)
    effect = sim.pending("run_actor", "builder")
    assert effect["input"]["feedback"] and effect["input"]["qa"]["ok"] is False
    assert sim.state.fixes == 1


def test_the_first_build_carries_the_fault_and_fixes_do_not():
    sim = Sim(fault="syntax")
    sim.send("goal", {"pitch": "snake"})
    first = sim.answer("planner", "spec", spec_data())[0]
    assert first["input"]["fault"] == "syntax"
    sim.answer("builder", "build", {"manifest": manifest()})
    sim.answer("qa", "qa.result", qa_data(False))
    sim.judge("FAIL", "Important", 1.0)
    assert sim.pending("run_actor", "builder")["input"]["fault"] is None


# ------------------------------------------------------------------ actor failure, circuit breaker


def test_actor_failure_retries_then_opens_circuit_and_swaps_to_next_adapter():
    chain = {"builder": [{"harness": "claude"}, {"harness": "local"}]}
    sim = Sim(settings={"circuit": {"failures": 2}}, bindings=chain)
    sim.to_spec()
    first = sim.pending("run_actor", "builder")
    assert first["binding"]["harness"] == "claude"
    effects = sim.send("effect.failed", {"effect_id": first["id"], "kind": "run_actor", "error": "boom"},
                       effect=first["id"], from_="dispatcher")
    assert kinds(effects) == ["run_actor:builder"] and effects[0]["attempt"] == 2
    effects = sim.send("effect.failed", {"effect_id": effects[0]["id"], "kind": "run_actor", "error": "boom"},
                       effect=effects[0]["id"], from_="dispatcher")
    assert kinds(effects) == ["record:circuit.opened"]
    effects = sim.record("circuit.opened")
    assert kinds(effects) == ["record:adapter.swapped"]
    effects = sim.record("adapter.swapped")
    assert kinds(effects) == ["run_actor:builder"]
    assert effects[0]["binding"]["harness"] == "local"
    assert effects[0]["input"]["spec"]["genre"] == "snake"


def test_exhausted_chain_ends_done_circuit_open():
    sim = Sim(settings={"circuit": {"failures": 1}}, bindings={"planner": [{"harness": "codex"}]})
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    sim.send("effect.failed", {"effect_id": run["id"], "kind": "run_actor", "error": "exit 1"}, effect=run["id"],
             from_="dispatcher")
    effects = sim.record("circuit.opened")
    assert kinds(effects) == ["record:done"]
    sim.finish()
    assert sim.state.done["reason"] == "circuit_open"


def test_success_resets_the_failure_count():
    sim = Sim(settings={"circuit": {"failures": 2}})
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    sim.send("effect.failed", {"effect_id": run["id"], "kind": "run_actor", "error": "x"}, effect=run["id"], from_="dispatcher")
    assert sim.state.failures["planner"] == 1
    sim.answer("planner", "spec", spec_data())
    assert sim.state.failures["planner"] == 0


# ------------------------------------------------------------------ budgets


def test_fix_budget_ends_done_budget_naming_fixes():
    sim = Sim(settings={"budgets": {"fixes": 1}})
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge("FAIL", "Important", 1.0)
    sim.to_qa(ok=False)
    effects = sim.answer("verifier", "judge.score", judge_data("FAIL", "Important", 1.0))
    effects = sim.record("audit")
    assert kinds(effects) == ["record:done"]
    assert effects[0]["event"]["data"]["reason"] == "budget" and "fixes" in effects[0]["event"]["data"]["detail"]


def test_redesign_budget_ends_done_budget_naming_redesigns():
    sim = Sim(settings={"budgets": {"redesigns": 0}})
    sim.to_spec()
    sim.to_qa()
    effects = sim.answer("verifier", "judge.score", judge_data("FAIL", "Critical", 1.0))
    effects = sim.record("audit")
    assert effects[0]["event"]["data"]["reason"] == "budget" and "redesigns" in effects[0]["event"]["data"]["detail"]


def test_verifier_budget_ends_before_another_verifier_run():
    sim = Sim(settings={"budgets": {"verifies": 1}})
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge("FAIL", "Minor", 1.0)
    sim.answer("builder", "build", {"manifest": manifest()})
    effects = sim.answer("qa", "qa.result", qa_data(True))
    assert kinds(effects) == ["record:done"] and "verifies" in effects[0]["event"]["data"]["detail"]


def test_wall_time_budget_is_measured_from_event_timestamps():
    sim = Sim(settings={"budgets": {"wall_s": 100}})
    sim.send("goal", {"pitch": "snake"})
    effects = sim.send("user.note", {"text": "much later"}, advance_s=500)
    assert kinds(effects) == ["cancel", "record:done"]  # the running planner is stopped
    assert effects[1]["event"]["data"]["detail"].startswith("wall_s")


def test_token_budget_warns_first_then_ends():
    sim = Sim(settings={"budgets": {"tokens": 1000, "warn_at": 0.5}})
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    effects = sim.send("effect.started", {"effect_id": run["id"], "kind": "run_actor"}, effect=run["id"],
                       from_="dispatcher", meta={"tokens_in": 400, "tokens_out": 200})
    assert kinds(effects) == ["record:budget.warning"]
    effects = sim.send("progress", {"effect_id": run["id"], "actor": "planner", "message": "x"}, effect=run["id"],
                       from_="planner", meta={"tokens_in": 500})
    assert kinds(effects) == ["cancel", "record:done"]
    assert effects[0]["targets"] == [run["id"]]


def test_cost_budget_counts_reported_dollars():
    sim = Sim(settings={"budgets": {"cost_usd": 1.0}})
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    effects = sim.answer("planner", "spec", spec_data(), meta={"cost_usd": 1.5})
    assert "record:done" in kinds(effects)


def test_budget_command_raises_a_limit_live():
    sim = Sim(settings={"budgets": {"fixes": 0}})
    sim.send("user.budget", {"name": "fixes", "value": 3})
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge("FAIL", "Important", 1.0)
    assert sim.pending("run_actor", "builder")
    effects = sim.send("user.budget", {"name": "nonsense", "value": 1})
    assert kinds(effects) == ["record:error"] and "known budgets" in effects[0]["event"]["data"]["message"]


# ------------------------------------------------------------------ user commands


def test_pause_holds_effects_and_resume_releases_them():
    sim = Sim()
    sim.send("user.pause", {})
    assert sim.send("goal", {"pitch": "snake"}) == []
    assert sim.state.deferred and sim.state.pending == {}
    effects = sim.send("user.resume", {})
    assert kinds(effects) == ["run_actor:planner"]
    assert sim.state.deferred == []


def test_pause_one_actor_lets_others_run():
    sim = Sim()
    sim.send("user.pause", {"actor": "builder"})
    sim.send("goal", {"pitch": "snake"})
    assert sim.pending("run_actor", "planner")
    assert sim.answer("planner", "spec", spec_data()) == []
    assert sim.state.deferred[0]["actor"] == "builder"
    effects = sim.send("user.resume", {"actor": "builder"})
    assert kinds(effects) == ["run_actor:builder"]


def test_goto_cancels_running_work_and_runs_that_actor():
    sim = Sim()
    sim.to_spec()
    building = sim.pending("run_actor", "builder")
    effects = sim.send("user.goto", {"actor": "planner"})
    assert kinds(effects) == ["cancel", "run_actor:planner"]
    assert effects[0]["targets"] == [building["id"]]
    # the cancelled builder's late result is recognised and ignored
    assert sim.send("build", {"manifest": manifest()}, effect=building["id"], from_="builder") == []
    assert sim.state.duplicates == 1


def test_swap_changes_the_binding_used_by_the_next_run():
    sim = Sim(bindings={"builder": [{"harness": "local"}]})
    sim.send("user.swap", {"actor": "builder", "harness": "claude", "model": "sonnet"})
    sim.to_spec()
    binding = sim.pending("run_actor", "builder")["binding"]
    assert binding["harness"] == "claude" and binding["model"] == "sonnet"


@pytest.mark.parametrize("command", ["user.append", "user.intervene"])
def test_append_and_messages_reach_the_actors_next_run(command):
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    sim.send(command, {"actor": "builder", "text": "make it red"})
    effects = sim.answer("planner", "spec", spec_data())
    assert effects[0]["input"]["steering"] == ["make it red"]
    assert sim.state.steering.get("builder") in (None, [])


def test_steering_that_arrives_late_gets_another_build_instead_of_done():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.send("user.intervene", {"text": "faster"})
    sim.judge("PASS", total=5.0)
    run = sim.pending("run_actor", "builder")
    assert run["input"]["steering"] == ["faster"]


def test_note_changes_no_routing():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    before = sim.state.copy()
    assert sim.send("user.note", {"text": "looks nice"}) == []
    assert sim.state.pending == before.pending and sim.state.phase == before.phase


def test_cancel_stops_running_work_and_ends_cancelled():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    effects = sim.send("user.cancel", {})
    assert kinds(effects) == ["cancel", "record:done"] and effects[0]["targets"] == [run["id"]]
    sim.finish()
    assert sim.state.done["reason"] == "cancelled"


def test_reset_circuit_returns_to_the_first_adapter():
    chain = {"builder": [{"harness": "claude"}, {"harness": "local"}]}
    sim = Sim(settings={"circuit": {"failures": 1}}, bindings=chain)
    sim.to_spec()
    run = sim.pending("run_actor", "builder")
    sim.send("effect.failed", {"effect_id": run["id"], "kind": "run_actor", "error": "x"}, effect=run["id"], from_="dispatcher")
    sim.record("circuit.opened")
    sim.record("adapter.swapped")
    assert sim.state.adapter_index["builder"] == 1
    sim.send("user.reset_circuit", {"actor": "all"})
    assert sim.state.adapter_index["builder"] == 0 and sim.state.failures["builder"] == 0


def test_redo_runs_the_builder_again_and_reopens_a_finished_session():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge("PASS", total=5.0)
    sim.finish()
    effects = sim.send("user.redo", {})
    assert kinds(effects) == ["run_actor:builder"]
    assert sim.state.done is None and sim.state.round == 2


def test_status_records_a_readable_note():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    effects = sim.send("user.status", {})
    assert kinds(effects) == ["record:note"]
    assert "phase planning" in effects[0]["event"]["data"]["text"]


@pytest.mark.parametrize("command", ["user.approve", "user.veto"])
def test_approve_or_veto_with_nothing_waiting_is_a_clear_error(command):
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    effects = sim.send(command, {})
    assert kinds(effects) == ["record:error"]
    assert "nothing to" in effects[0]["event"]["data"]["message"]


def test_commands_for_a_finished_session_get_an_answer_and_change_nothing():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    sim.send("user.cancel", {})
    sim.finish()
    for command, data in [("user.approve", {}), ("user.pause", {}), ("user.intervene", {"text": "red"})]:
        effects = sim.send(command, data)
        assert kinds(effects) == ["record:error"]
        assert "done (cancelled)" in effects[0]["event"]["data"]["message"]
        sim.record("error")
    assert sim.state.done["reason"] == "cancelled"


def test_a_persons_spec_edit_rebuilds_from_it():
    sim = Sim()
    sim.to_spec()
    sim.to_qa()
    sim.judge("PARTIAL", total=3.0)
    effects = sim.send("spec.update", {**spec_data("breakout"), "by": "user"})
    assert kinds(effects) == ["run_actor:builder"]
    assert effects[0]["input"]["spec"]["genre"] == "breakout"


def test_a_builders_spec_adjustment_is_recorded_without_a_new_run():
    sim = Sim()
    sim.to_spec()
    run = sim.pending("run_actor", "builder")
    effects = sim.send("spec.update", {**spec_data("snake"), "title": "Red Snake", "by": "builder"}, effect=run["id"],
                       from_="builder")
    assert effects == [] and run["id"] in sim.state.pending
    assert sim.state.spec["data"]["title"] == "Red Snake"


# ------------------------------------------------------------------ robustness of the table


def test_duplicate_result_is_ignored():
    sim = Sim()
    sim.send("goal", {"pitch": "snake"})
    run = sim.pending("run_actor", "planner")
    sim.send("spec", spec_data(), effect=run["id"], from_="planner")
    state = sim.state.copy()
    assert sim.send("spec", spec_data("pong"), effect=run["id"], from_="planner") == []
    assert sim.state.spec == state.spec and sim.state.duplicates == 1


def test_unknown_kinds_from_a_newer_version_are_skipped_and_counted():
    sim = Sim()
    event = dict(sim.events[-1], seq=99, kind="future.thing", data={"x": 1})
    state, effects = reduce(sim.state, event)
    assert effects == [] and state.unknown == 1 and sim.state.unknown == 0  # reduce() does not touch its input


# ------------------------------------------------------------------ every user command, as one table


def at(where: str) -> Sim:
    """A session at a named point: `running` (the Planner is at work), `waiting` (a PARTIAL verdict
    waits for a person) or `done` (it passed)."""
    sim = Sim()
    if where == "running":
        sim.send("goal", {"pitch": "snake"})
        return sim
    sim.to_spec()
    sim.to_qa()
    sim.judge("PARTIAL" if where == "waiting" else "PASS", total=3.0 if where == "waiting" else 5.0)
    if where == "done":
        sim.finish()
    return sim


USER_COMMANDS = [  # (where, command, data, effects it causes)
    ("running", "user.intervene", {"text": "red"}, []),
    ("running", "user.approve", {}, ["record:error"]),
    ("running", "user.veto", {"reason": "no"}, ["record:error"]),
    ("running", "user.pause", {}, []),
    ("running", "user.pause", {"actor": "builder"}, []),
    ("running", "user.resume", {}, []),
    ("running", "user.goto", {"actor": "builder"}, ["cancel", "run_actor:planner"]),  # no spec yet: Planner first
    ("running", "user.goto", {"actor": "researcher"}, ["cancel", "run_actor:researcher"]),
    ("running", "user.swap", {"actor": "builder", "harness": "claude"}, []),
    ("running", "user.append", {"text": "more"}, []),
    ("running", "user.note", {"text": "nice"}, []),
    ("running", "user.cancel", {}, ["cancel", "record:done"]),
    ("running", "user.reset_circuit", {}, []),
    ("running", "user.redo", {"actor": "planner"}, ["cancel", "run_actor:planner"]),
    ("running", "user.budget", {"name": "fixes", "value": 9}, []),
    ("running", "user.status", {}, ["record:note"]),
    ("waiting", "user.approve", {}, ["record:done"]),
    ("waiting", "user.veto", {"reason": "too slow"}, ["run_actor:builder"]),
    ("waiting", "user.intervene", {"text": "faster"}, ["run_actor:builder"]),
    ("waiting", "user.intervene", {"text": "a puzzle instead", "actor": "planner"}, ["run_actor:planner"]),
    ("waiting", "user.goto", {"actor": "builder"}, ["run_actor:builder"]),
    ("waiting", "user.goto", {"actor": "qa"}, ["qa_check:qa"]),
    ("waiting", "user.goto", {"actor": "verifier"}, ["run_actor:verifier"]),
    ("waiting", "user.cancel", {}, ["record:done"]),
    ("done", "user.redo", {}, ["run_actor:builder"]),
    ("done", "user.intervene", {"text": "red"}, ["record:error"]),
    ("done", "user.approve", {}, ["record:error"]),
    ("done", "user.note", {"text": "nice"}, []),
    ("done", "user.status", {}, ["record:note"]),
]


@pytest.mark.parametrize("where,command,data,expected", USER_COMMANDS,
                         ids=[f"{w}-{c}-{'-'.join(map(str, d.values()))}" for w, c, d, _ in USER_COMMANDS])
def test_user_command_table(where, command, data, expected):
    sim = at(where)
    assert kinds(sim.send(command, data)) == expected


def test_the_table_covers_every_user_command():
    from crumb.protocol.events import KINDS

    assert {c for _, c, _, _ in USER_COMMANDS} == {k for k in KINDS if k.startswith("user.")}
