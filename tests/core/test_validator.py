"""The anti-deception validator: each named rule, and the rules holding for any judgement (hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from crumb.protocol.game import DIMENSIONS
from crumb.reducer.validator import RULES, qa_scores, validate
from crumb.settings import Settings
from tests.core.sim import Sim, judge_data, manifest, qa_data, spec_data

SETTINGS = Settings().judge
IDS = ["G", "S", "B", "Q"]


def audit(judge, qa=None, spec=None, build=None, judge_provider=None, builder_provider=None):
    return validate(judge, qa=qa, spec=spec if spec is not None else spec_data(),
                    build=build if build is not None else {"manifest": manifest()}, input_ids=IDS,
                    judge_provider=judge_provider, builder_provider=builder_provider, settings=SETTINGS)


def rules(result):
    return {c["rule"] for c in result["corrections"]}


def test_pass_without_successful_qa_becomes_fail():
    result = audit(judge_data("PASS", total=5), qa=qa_data(False))
    assert result["verdict"] == "FAIL" and result["severity"] == "Important"
    assert "pass_needs_qa" in rules(result)


def test_pass_with_no_qa_at_all_becomes_fail():
    result = audit(judge_data("PASS", total=5), qa=None)
    assert result["verdict"] == "FAIL" and "no QA run" in result["feedback"]


def test_execution_scores_come_from_qa_not_the_model():
    judge = judge_data("PASS", total=5)
    judge["scores"] = {d: {"score": 5, "evidence": ["Q"]} for d in ("goal_fit", "runs", "controls", "rules")}
    result = audit(judge, qa=qa_data(True, input_responds=False))
    controls = [c for c in result["corrections"] if c["field"] == "scores.controls"]
    assert controls and controls[0]["before"] == 5 and controls[0]["after"] == 0.0
    assert result["total"] < 5


def test_a_bare_total_gets_its_execution_scores_from_qa_too():
    result = audit(judge_data("PASS", total=5.0), qa=qa_data(True, input_responds=False))
    measured = {c["field"]: (c["before"], c["after"]) for c in result["corrections"] if c["rule"] == "exec_from_qa"}
    assert measured == {"scores.runs": (None, 5.0), "scores.controls": (None, 0.0), "scores.rules": (None, 5.0),
                        "scores.performance": (None, 5.0)}
    recomputed = [c for c in result["corrections"] if c["rule"] == "total_from_scores"][0]
    assert (recomputed["before"], recomputed["after"]) == (5.0, 4.17)  # goal_fit and visuals keep the model's 5
    assert "gave only a total" in recomputed["reason"]
    assert result["total"] == 4.17


def test_a_bare_total_cannot_carry_a_game_that_never_ran():
    dead = qa_data(True, loaded=False, exec_ok=False, input_responds=False, probes=[], fps=None)
    result = audit(judge_data("PARTIAL", total=5.0), qa=dead)
    assert result["total"] == 2.0  # goal_fit and visuals at 5; runs, controls, rules at 0; performance unmeasured
    assert result["verdict"] == "PARTIAL"  # the validator lowers scores; it never promotes or invents a verdict


def test_a_bare_total_without_qa_is_kept_and_cannot_pass():
    result = audit(judge_data("PASS", total=5.0), qa=None)
    assert "exec_from_qa" not in rules(result) and result["verdict"] == "FAIL"


def test_dimensions_the_protocol_does_not_know_are_ignored():
    judge = judge_data("PASS", total=5.0)
    judge["scores"] = {d: {"score": 5.0} for d in ("goal_fit", "runs", "controls", "rules", "visuals", "performance")}
    plain = audit(judge, qa=qa_data(True))
    judge["scores"]["fun"] = {"score": 0.0}
    assert audit(judge, qa=qa_data(True)) == plain and plain["total"] == 5.0


def test_pass_below_threshold_is_demoted_to_partial():
    result = audit(judge_data("PASS", total=2.0), qa=qa_data(True, input_responds=False))
    assert result["verdict"] == "PARTIAL" and "verdict_agrees" in rules(result)


def test_failed_probe_caps_the_total():
    result = audit(judge_data("PARTIAL", total=4.8), qa=qa_data(True, probes_ok=False))
    assert result["total"] == 3.0 and "probe_fail_cap" in rules(result)


def test_citing_evidence_not_in_the_input_is_penalised():
    result = audit(judge_data("PASS", total=5.0, evidence=["Q", "made-up-1", "made-up-2"]), qa=qa_data(True))
    penalty = [c for c in result["corrections"] if c["rule"] == "cited_evidence"][0]
    assert penalty["after"] == 4.0 and "made-up-1" in penalty["reason"]


def test_spec_without_criteria_fails_critical_so_the_planner_redoes_it():
    result = audit(judge_data("PASS", total=5), qa=qa_data(True), spec=spec_data(criteria=0))
    assert result["verdict"] == "FAIL" and result["severity"] == "Critical"


def test_build_without_files_fails():
    result = audit(judge_data("PASS", total=5), qa=qa_data(True), build={"manifest": manifest(files=0)})
    assert result["verdict"] == "FAIL" and "build_has_files" in rules(result)


def test_same_provider_for_judge_and_builder_is_discounted():
    fair = audit(judge_data("PASS", total=4.0), qa=qa_data(True))
    biased = audit(judge_data("PASS", total=4.0), qa=qa_data(True), judge_provider="anthropic", builder_provider="anthropic")
    assert biased["total"] == fair["total"] - 0.5 and "self_bias" in rules(biased)


def test_fail_without_severity_gets_one_and_pass_loses_one():
    assert audit(judge_data("FAIL", None, 1.0), qa=qa_data(False))["severity"] == "Important"
    assert audit(judge_data("PASS", "Minor", 5.0), qa=qa_data(True))["severity"] is None


def test_an_honest_pass_is_left_alone():
    judge = judge_data("PASS", total=5.0, evidence=["Q"])
    judge["scores"] = {d: {"score": 5.0, "evidence": ["Q"]} for d in ("goal_fit", "runs", "controls", "rules", "performance")}
    result = audit(judge, qa=qa_data(True))
    assert result["verdict"] == "PASS" and result["corrections"] == []


def test_routing_uses_the_corrected_verdict_and_records_corrections():
    sim = Sim()
    sim.to_spec()
    sim.to_qa(ok=False)
    effects = sim.answer("verifier", "judge.score", judge_data("PASS", total=5.0))
    audit_event = effects[0]["event"]["data"]
    assert audit_event["verdict"] == "FAIL" and audit_event["corrections"]
    sim.record("audit")
    assert sim.pending("run_actor", "builder")  # fixed, not done


def test_every_rule_is_documented():
    import crumb.reducer.validator as module

    docs = (Path(__file__).resolve().parents[2] / "docs" / "transcript.md").read_text()
    for rule in RULES:
        assert rule in module.__doc__
        assert f"| `{rule}` |" in docs, f"docs/transcript.md does not explain the audit rule {rule}"


probes = st.lists(st.builds(lambda i, ok: {"id": f"p{i}", "ok": ok}, st.integers(0, 9), st.booleans()), max_size=6)
qas = st.one_of(st.none(), st.builds(
    lambda ok, exec_ok, loaded, inp, fps, pr: {"ok": ok, "exec_ok": exec_ok, "loaded": loaded, "input_responds": inp,
                                               "fps": fps, "probes": pr},
    st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.one_of(st.none(), st.floats(0, 240)), probes))
judges = st.builds(
    lambda v, sev, total, ev, scores: {"verdict": v, "severity": sev, "total": total, "evidence": ev,
                                       "scores": {k: {"score": s, "evidence": ev} for k, s in scores.items()}},
    st.sampled_from(["PASS", "PARTIAL", "FAIL", "REJECT"]), st.sampled_from([None, "Critical", "Important", "Minor"]),
    st.floats(0, 5), st.lists(st.sampled_from(IDS + ["X", "Y"]), max_size=4),
    st.dictionaries(st.sampled_from([*DIMENSIONS, "fun"]), st.floats(0, 5)))


def most_qa_allows(qa) -> float:
    """The highest total any judgement can keep: execution dimensions as QA measured, the rest at 5."""
    measured = qa_scores(qa)
    return (sum(measured.values()) + 5.0 * (len(DIMENSIONS) - len(measured))) / len(DIMENSIONS)


@settings(max_examples=300, deadline=None)
@given(judge=judges, qa=qas, criteria=st.integers(0, 3), files=st.integers(0, 2),
       providers=st.sampled_from([(None, None), ("a", "a"), ("a", "b")]))
def test_validator_output_always_satisfies_its_rules(judge, qa, criteria, files, providers):
    result = audit(judge, qa=qa, spec=spec_data(criteria=criteria), build={"manifest": manifest(files)},
                   judge_provider=providers[0], builder_provider=providers[1])
    threshold = SETTINGS.pass_threshold
    assert 0 <= result["total"] <= 5
    if result["verdict"] == "PASS":
        assert qa is not None and qa["ok"]
        assert result["total"] >= threshold
        assert criteria > 0 and files > 0
        assert result["severity"] is None
    if result["verdict"] in ("FAIL", "REJECT"):
        assert result["severity"] in ("Critical", "Important", "Minor")
    if qa is not None:  # scored or bare, a total never rests on execution QA did not see
        assert result["total"] <= most_qa_allows(qa) + 0.01
    if qa is not None and any(not p["ok"] for p in qa["probes"]):
        assert result["total"] <= SETTINGS.probe_fail_cap
    assert all(c["rule"] in RULES for c in result["corrections"])
