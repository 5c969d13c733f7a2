"""Every cell of the routing table (ARCHITECTURE.md) and every user command, driven through the reducer."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from crumb.reducer.reduce import reduce
from tests.core.sim import Sim, judge_data, manifest, qa_data, spec_data


def kinds(effects: list[dict]) -> list[str]:
    return [e["kind"] + (":" + e["actor"] if e.get("actor") else "") + (":" + e["event"]["kind"] if e["kind"] == "record" else "")
            for e in effects]


# ------------------------------------------------------------------ every cell of the routing table, as one table

Given = Callable[[], Sim]
Step = Callable[[Sim], list[dict]]
Check = Callable[[Sim, list[dict]], Any]


@dataclass(frozen=True)
class Row:
    """One case of a routing cell: a session at some point, one event, what it must cause."""

    cell: str  # the cell's event column in ARCHITECTURE.md, without its parenthesis and leading "·"
    name: str
    given: Given
    event: Step
    effects: list[str] | None  # the kinds of the effects the event causes (None: checked below instead)
    then: tuple[tuple[str, Check, Any], ...] = ()  # (what, measure, expected)


def play(sim: Sim, *steps: Step) -> Sim:
    for step in steps:
        step(sim)
    return sim


def planning(**kw: Any) -> Sim:
    sim = Sim(**kw)
    sim.send("goal", {"pitch": "snake"})
    return sim


def building(**kw: Any) -> Sim:
    sim = Sim(**kw)
    sim.to_spec()
    return sim


def judging(ok: bool = True, **kw: Any) -> Sim:
    sim = building(**kw)
    sim.to_qa(ok=ok)
    return sim


def waiting() -> Sim:
    sim = judging()
    sim.judge("PARTIAL", total=3.0)
    return sim


def judged(verdict: str, severity: str | None = None, total: float = 4.5) -> Step:
    """The Verifier's score, then its audit: the audit is what routes."""
    def step(sim: Sim) -> list[dict]:
        sim.answer("verifier", "judge.score", judge_data(verdict, severity, total))
        return sim.record("audit")
    return step


def failed(actor: str) -> Step:
    def step(sim: Sim) -> list[dict]:
        run = sim.pending("run_actor", actor)
        return sim.send("effect.failed", {"effect_id": run["id"], "kind": "run_actor", "error": "boom"},
                        effect=run["id"], from_="dispatcher")
    return step


def recorded(kind: str) -> Step:
    return lambda sim: sim.record(kind)


def done_reason(sim: Sim, effects: list[dict]) -> str:
    """Let the dispatcher record the pending done; the reason the session ended with."""
    sim.finish()
    assert sim.state.phase == "done" and sim.state.pending == {}
    return sim.state.done["reason"]


def first(*path: str | int) -> Check:
    """effects[0] followed down `path`."""
    def measure(sim: Sim, effects: list[dict]) -> Any:
        value: Any = effects[0]
        for key in path:
            value = value[key]
        return value
    return measure


def pending(actor: str, *path: str) -> Check:
    """The one pending run of `actor`, followed down `path`."""
    def measure(sim: Sim, effects: list[dict]) -> Any:
        value: Any = sim.pending("run_actor", actor)
        for key in path:
            value = value[key]
        return value
    return measure


def state(name: str) -> Check:
    return lambda sim, effects: getattr(sim.state, name)


ITEM = {"id": "cat:snake", "source": "catalogue", "title": "Snake", "text": "eat, grow"}
PLAN = {"questions": ["which genre?"], "candidates": ["snake"]}
CHAIN = {"builder": [{"harness": "claude"}, {"harness": "local"}]}
CIRCUIT = {"settings": {"circuit": {"failures": 2}}, "bindings": CHAIN}
TOKENS = {"budgets": {"tokens": 1000, "warn_at": 0.5}}


def started_with_tokens(sim: Sim) -> list[dict]:
    run = sim.pending("run_actor", "planner")
    return sim.send("effect.started", {"effect_id": run["id"], "kind": "run_actor"}, effect=run["id"],
                    from_="dispatcher", meta={"tokens_in": 400, "tokens_out": 200})


def progress_with_tokens(sim: Sim) -> list[dict]:
    run = sim.pending("run_actor", "planner")
    return sim.send("progress", {"effect_id": run["id"], "actor": "planner", "message": "x"}, effect=run["id"],
                    from_="planner", meta={"tokens_in": 500})


def builder_fix(verdict: str, severity: str) -> Row:
    return Row("FAIL or REJECT, severity Important/Minor", f"{verdict}-{severity}-builder-fixes-with-feedback-and-qa",
               lambda: judging(ok=False), judged(verdict, severity, 1.0), None,
               (("the fix gets the feedback", lambda s, fx: bool(pending("builder", "input", "feedback")(s, fx)), True),
                ("and QA's evidence", pending("builder", "input", "qa", "ok"), False),
                ("a fix round is counted", state("fixes"), 1)))


def partial_then(command: str, data: dict) -> Row:
    def words(sim: Sim, effects: list[dict]) -> bool:
        run = effects[0]["input"]
        return "too slow" in (run["feedback"] or "") + " ".join(run["steering"])
    return Row("PARTIAL", f"{command}-sends-builder-to-fix-with-the-words", waiting, lambda s: s.send(command, data),
               ["run_actor:builder"], (("the builder gets the person's words", words, True),
                                       ("a fix round is counted", state("fixes"), 1),
                                       ("round 2", first("input", "round"), 2)))


ROUTING = [
    Row("goal", "runs-planner-with-the-pitch", Sim, lambda s: s.send("goal", {"pitch": "60-second snake"}),
        ["run_actor:planner"],
        (("the planner gets the pitch", first("input", "pitch"), "60-second snake"),
         ("the effect id derives from its cause", lambda s, fx: fx[0]["id"].startswith(s.events[-1]["id"]), True),
         ("phase", state("phase"), "planning"))),
    Row("research.plan", "runs-researcher-with-the-plan", lambda: planning(),
        lambda s: s.answer("planner", "research.plan", PLAN), ["run_actor:researcher"],
        (("the researcher gets the questions", first("input", "plan", "questions"), ["which genre?"]),)),
    Row("research.plan", "evidence-returns-to-planner",
        lambda: play(planning(), lambda s: s.answer("planner", "research.plan", PLAN)),
        lambda s: s.answer("researcher", "research.evidence", {"items": [ITEM]}),
        ["run_actor:planner"], (("the planner gets the evidence", first("input", "evidence"), [ITEM]),)),
    Row("spec / spec.update", "spec-runs-builder-with-spec-and-round", lambda: planning(),
        lambda s: s.answer("planner", "spec", spec_data()), ["run_actor:builder"],
        (("the builder gets the spec", first("input", "spec", "genre"), "snake"), ("round 1", first("input", "round"), 1))),
    Row("spec / spec.update", "the-first-build-carries-the-fault", lambda: planning(fault="syntax"),
        lambda s: s.answer("planner", "spec", spec_data()), ["run_actor:builder"],
        (("the injected fault goes to the first build", first("input", "fault"), "syntax"),)),
    Row("spec / spec.update", "the-builder-runs-on-the-first-adapter-of-its-chain", lambda: planning(**CIRCUIT),
        lambda s: s.answer("planner", "spec", spec_data()), ["run_actor:builder"],
        (("first adapter", first("binding", "harness"), "claude"),)),
    Row("spec / spec.update", "a-persons-spec-edit-rebuilds-from-it", waiting,
        lambda s: s.send("spec.update", {**spec_data("breakout"), "by": "user"}), ["run_actor:builder"],
        (("the builder gets the edited spec", first("input", "spec", "genre"), "breakout"),)),
    Row("spec / spec.update", "a-builders-spec-adjustment-is-recorded-without-a-new-run", building,
        lambda s: s.send("spec.update", {**spec_data("snake"), "title": "Red Snake", "by": "builder"},
                         effect=s.pending("run_actor", "builder")["id"], from_="builder"), [],
        (("the builder's run is still pending", lambda s, fx: s.events[-1]["effect"] in s.state.pending, True),
         ("the spec is adjusted", lambda s, fx: s.state.spec["data"]["title"], "Red Snake"))),
    Row("build", "runs-qa-with-build-identity-and-criteria", building,
        lambda s: s.answer("builder", "build", {"manifest": manifest()}), ["qa_check:qa"],
        (("QA checks this build", lambda s, fx: fx[0]["build"] == s.events[-1]["id"], True),
         ("with the spec's criteria", lambda s, fx: len(fx[0]["criteria"]), 3),
         ("and its manifest", first("manifest", "files", 0, "path"), "f0.html"))),
    *[Row("qa.result", f"{'ok' if ok else 'failed'}-runs-verifier-on-projected-evidence",
          lambda: play(building(), lambda s: s.answer("builder", "build", {"manifest": manifest()})),
          lambda s, ok=ok: s.answer("qa", "qa.result", qa_data(ok)), ["run_actor:verifier"],
          (("the projection", lambda s, fx: set(fx[0]["input"]), {"goal", "spec", "build", "qa"}),
           ("QA's verdict", first("input", "qa", "ok"), ok),
           ("QA's event", lambda s, fx: fx[0]["input"]["qa"]["id"] == s.events[-1]["id"], True)))
      for ok in (True, False)],
    Row("judge.score", "goes-through-the-validator-as-an-audit-event", judging,
        lambda s: s.answer("verifier", "judge.score", judge_data("PASS", total=4.9)), ["record:audit"],
        (("the audit names the judgement", lambda s, fx: fx[0]["event"]["data"]["judge"] == s.events[-1]["id"], True),
         ("verdict", first("event", "data", "verdict"), "PASS"))),
    Row("PASS", "ends-done-with-reason-pass", judging, judged("PASS", total=5.0), None,
        (("a done is recorded", lambda s, fx: s.pending("record")["event"]["kind"], "done"),
         ("with reason pass", lambda s, fx: s.pending("record")["event"]["data"]["reason"], "pass"),
         ("the session ends passed", done_reason, "pass"))),
    Row("PARTIAL", "waits-for-a-person", judging, judged("PARTIAL", total=3.0), None,
        (("phase", state("phase"), "waiting"), ("waiting for", state("waiting_for"), "approval"),
         ("nothing runs", state("pending"), {}))),
    Row("PARTIAL", "approve-ends-approved", waiting, lambda s: s.send("user.approve", {}), ["record:done"],
        (("the session ends approved", done_reason, "approved"),)),
    partial_then("user.veto", {"reason": "too slow"}),
    partial_then("user.intervene", {"text": "too slow"}),
    *[Row("FAIL or REJECT, severity Critical", f"{verdict}-planner-redesigns", judging, judged(verdict, "Critical", 1.0), None,
          (("the planner gets the previous spec", pending("planner", "input", "previous_spec", "genre"), "snake"),
           ("and the feedback", lambda s, fx: bool(pending("planner", "input", "feedback")(s, fx)), True),
           ("a redesign round is counted", state("redesigns"), 1)))
      for verdict in ("FAIL", "REJECT")],
    *[builder_fix(verdict, severity) for verdict in ("FAIL", "REJECT") for severity in ("Important", "Minor")],
    Row("FAIL or REJECT, severity Important/Minor", "fixes-do-not-carry-the-fault",
        lambda: play(Sim(fault="syntax"), lambda s: s.to_spec(), lambda s: s.to_qa(ok=False)),
        judged("FAIL", "Important", 1.0), None, (("no fault in a fix", pending("builder", "input", "fault"), None),)),
    Row("actor failure", "a-failed-run-is-retried", lambda: building(**CIRCUIT), failed("builder"), ["run_actor:builder"],
        (("second attempt", first("attempt"), 2),)),
    Row("actor failure", "n-failures-in-a-row-open-the-circuit", lambda: play(building(**CIRCUIT), failed("builder")),
        failed("builder"), ["record:circuit.opened"]),
    Row("actor failure", "an-open-circuit-swaps-to-the-next-adapter",
        lambda: play(building(**CIRCUIT), failed("builder"), failed("builder")), recorded("circuit.opened"),
        ["record:adapter.swapped"]),
    Row("actor failure", "the-next-adapter-takes-over-the-run",
        lambda: play(building(**CIRCUIT), failed("builder"), failed("builder"), recorded("circuit.opened")),
        recorded("adapter.swapped"), ["run_actor:builder"],
        (("next adapter", first("binding", "harness"), "local"), ("same input", first("input", "spec", "genre"), "snake"))),
    Row("actor failure", "an-exhausted-chain-ends-done-circuit-open",
        lambda: play(planning(settings={"circuit": {"failures": 1}}, bindings={"planner": [{"harness": "codex"}]}),
                     failed("planner")),
        recorded("circuit.opened"), ["record:done"], (("the session ends circuit_open", done_reason, "circuit_open"),)),
    Row("actor failure", "a-failure-is-counted", lambda: planning(settings={"circuit": {"failures": 2}}), failed("planner"),
        None, (("one failure", lambda s, fx: s.state.failures["planner"], 1),)),
    Row("actor failure", "success-resets-the-failure-count",
        lambda: play(planning(settings={"circuit": {"failures": 2}}), failed("planner")),
        lambda s: s.answer("planner", "spec", spec_data()), None,
        (("no failures", lambda s, fx: s.state.failures["planner"], 0),)),
    Row("budget exhausted", "fix-rounds-end-done-naming-fixes",
        lambda: play(judging(ok=False, settings={"budgets": {"fixes": 1}}), judged("FAIL", "Important", 1.0),
                     lambda s: s.to_qa(ok=False)),
        judged("FAIL", "Important", 1.0), ["record:done"],
        (("reason", first("event", "data", "reason"), "budget"),
         ("names fixes", lambda s, fx: "fixes" in fx[0]["event"]["data"]["detail"], True))),
    Row("budget exhausted", "redesign-rounds-end-done-naming-redesigns",
        lambda: judging(settings={"budgets": {"redesigns": 0}}), judged("FAIL", "Critical", 1.0), None,
        (("reason", first("event", "data", "reason"), "budget"),
         ("names redesigns", lambda s, fx: "redesigns" in fx[0]["event"]["data"]["detail"], True))),
    Row("budget exhausted", "verifier-runs-end-before-another-verifier-run",
        lambda: play(judging(ok=False, settings={"budgets": {"verifies": 1}}), judged("FAIL", "Minor", 1.0),
                     lambda s: s.answer("builder", "build", {"manifest": manifest()})),
        lambda s: s.answer("qa", "qa.result", qa_data(True)), ["record:done"],
        (("names verifies", lambda s, fx: "verifies" in fx[0]["event"]["data"]["detail"], True),)),
    Row("budget exhausted", "wall-time-is-measured-from-event-timestamps",
        lambda: planning(settings={"budgets": {"wall_s": 100}}),
        lambda s: s.send("user.note", {"text": "much later"}, advance_s=500), ["cancel", "record:done"],  # the planner stops
        (("names wall_s", lambda s, fx: fx[1]["event"]["data"]["detail"].startswith("wall_s"), True),)),
    Row("budget exhausted", "tokens-warn-first", lambda: planning(settings=TOKENS), started_with_tokens,
        ["record:budget.warning"]),
    Row("budget exhausted", "tokens-then-end", lambda: play(planning(settings=TOKENS), started_with_tokens),
        progress_with_tokens, ["cancel", "record:done"],
        (("the running planner is cancelled", lambda s, fx: fx[0]["targets"] == [s.events[-1]["effect"]], True),)),
    Row("budget exhausted", "cost-counts-reported-dollars", lambda: planning(settings={"budgets": {"cost_usd": 1.0}}),
        lambda s: s.answer("planner", "spec", spec_data(), meta={"cost_usd": 1.5}), None,
        (("ends", lambda s, fx: "record:done" in kinds(fx), True),)),
]


@pytest.mark.parametrize("row", ROUTING, ids=[re.sub(r"[^a-z.]+", "-", r.cell.lower()) + ":" + r.name for r in ROUTING])
def test_routing_table(row: Row):
    sim = row.given()
    effects = row.event(sim)
    if row.effects is not None:
        assert kinds(effects) == row.effects
    for what, measure, expected in row.then:
        assert measure(sim, effects) == expected, what


ROOT = Path(__file__).resolve().parents[2]
ROUTING_DOCS = [ROOT / "docs" / "design.md", ROOT.parent / "shared" / "ARCHITECTURE.md"]


def routing_cells(doc: Path) -> list[str]:
    """The event column of the routing table under a `## Routing` heading, as ROUTING's rows name cells."""
    text = doc.read_text(encoding="utf-8")
    section = re.search(r"^## Routing.*?\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, f"{doc}: no `## Routing` section"
    cells = []
    for line in section.group(1).splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cols[0] in ("event", "") or set(cols[0]) <= set("-: "):
            continue
        cells.append(re.sub(r"\s*\(.*$", "", cols[0]).lstrip("· ").strip())
    assert cells, f"{doc}: the routing table has no rows"
    return cells


@pytest.mark.parametrize("doc", ROUTING_DOCS, ids=lambda p: p.name)
def test_every_routing_cell_has_a_row(doc: Path):
    if not doc.exists():
        pytest.skip(f"{doc} is not next to this checkout (docs/design.md carries the same table)")
    cells = routing_cells(doc)
    missing = [c for c in cells if c not in {r.cell for r in ROUTING}]
    assert not missing, f"{doc.name}: routing cells with no row in ROUTING: {missing}"
    strays = sorted({r.cell for r in ROUTING} - set(cells))
    assert not strays, f"ROUTING rows name cells {doc.name} does not have: {strays}"


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
    assert sim.state.deferred[0].actor == "builder"
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


def test_the_planner_is_told_which_harness_will_build():
    """The embedded Planner plans for the Builder bound (an agent's game gets a criterion per stated number), so
    its input names the builder's harness in force: the bound one, or the one a person swapped in before it ran."""
    sim = Sim(bindings={"builder": [{"harness": "claude", "model": "sonnet"}, {"harness": "local"}]})
    sim.send("goal", {"pitch": "snake"})
    assert sim.pending("run_actor", "planner")["input"]["builder"] == "claude"
    local = Sim()
    local.send("goal", {"pitch": "snake"})
    assert local.pending("run_actor", "planner")["input"]["builder"] == "local"
    swapped = Sim(bindings={"builder": [{"harness": "local"}]})
    swapped.send("user.swap", {"actor": "builder", "harness": "codex"})
    swapped.send("goal", {"pitch": "snake"})
    assert swapped.pending("run_actor", "planner")["input"]["builder"] == "codex"
    cannot = Sim(bindings={"builder": [{"harness": "claude"}, {"harness": "local"}]}, unrunnable=["builder"])
    cannot.send("goal", {"pitch": "snake"})  # started with --allow-fallback: the embedded studio will build
    assert cannot.pending("run_actor", "planner")["input"]["builder"] == "local"


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


def test_budget_command_raises_a_limit_live():
    sim = Sim(settings={"budgets": {"fixes": 0}})
    sim.send("user.budget", {"name": "fixes", "value": 3})
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge("FAIL", "Important", 1.0)
    assert sim.pending("run_actor", "builder")
    effects = sim.send("user.budget", {"name": "nonsense", "value": 1})
    assert kinds(effects) == ["record:error"] and "known budgets" in effects[0]["event"]["data"]["message"]


def test_a_budget_below_what_is_used_is_refused_naming_the_use():
    sim = Sim()
    sim.to_spec()
    sim.to_qa(ok=False)
    sim.judge("FAIL", "Important", 1.0)
    effects = sim.send("user.budget", {"name": "fixes", "value": 0})
    assert kinds(effects) == ["record:error"]
    assert "fixes: 1 already used" in effects[0]["event"]["data"]["message"]
    assert sim.state.fixes <= sim.state.budget_limits()["fixes"]
    assert kinds(sim.send("user.budget", {"name": "fixes", "value": 1})) == []  # at the use: no more rounds


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
