"""The local Verifier: QA evidence decides; never PASS on failed QA; Critical when the genre is wrong."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crumb.actors.embedded.planner import plan
from crumb.actors.embedded.verifier import judge
from crumb.protocol.game import DIMENSIONS, Spec
from crumb.settings import Judge

SHA = "0" * 64


@cache
def _spec() -> Spec:
    out = plan("a neon snake game with three lives and a 60 second time limit")
    assert isinstance(out, Spec)
    return out


def projection(**qa: Any) -> dict[str, Any]:
    spec = _spec()
    probes = [{"id": c.id, "ok": True} for c in spec.criteria]
    fails = qa.pop("fail", {})
    for p in probes:
        if p["id"] in fails:
            p.update(ok=False, **fails[p["id"]])
    result = {"id": "Q1", "build": "B1", "ok": not fails, "exec_ok": True, "static_ok": True, "loaded": True,
              "hook": True, "canvas_nonblank": True, "canvas_animates": True, "input_responds": True,
              "probes": probes, "fps": 60.0}
    result.update(qa)
    return {
        "goal": {"id": "G1", "pitch": spec.pitch},
        "spec": {"id": "S1", **spec.model_dump(mode="json")},
        "build": {"id": "B1", "manifest": {"dir": "artifacts/game", "entry": "index.html",
                                           "files": [{"path": "index.html", "sha256": SHA, "bytes": 10}]}},
        "qa": result,
    }


def test_a_clean_build_passes_with_evidence() -> None:
    score = judge(projection())
    assert score.verdict == "PASS" and score.severity is None
    assert score.total >= 3.5
    assert set(score.scores) == set(DIMENSIONS)
    assert "G1" in score.scores["goal_fit"].evidence and "Q1" in score.scores["runs"].evidence
    assert "B1" in score.scores["runs"].evidence
    assert score.evidence == ["G1", "S1", "B1", "Q1"]


def test_qa_checking_twice_after_its_own_stall_says_nothing_about_the_game() -> None:
    """A loaded machine once made a good game PARTIAL: QA's note that it ran the check again is not a fault."""
    score = judge(projection(rechecked="QA's own process stood still for 17 s (a loaded machine); QA checked the "
                                       "game again, on a fresh browser, and this result is that second run"))
    assert score.verdict == "PASS" and score.severity is None, score.feedback


def test_genre_mismatch_is_critical() -> None:
    score = judge(projection(fail={"genre": {"observed": {"genre": "breakout"}, "detail": "genre == snake"}}))
    assert score.verdict == "FAIL" and score.severity == "Critical"
    assert "probe 'genre' failed" in score.feedback and "breakout" in score.feedback
    assert score.total <= 3.0 and score.scores["goal_fit"].score <= 1


def test_a_failed_probe_is_important_and_named() -> None:
    score = judge(projection(fail={"lives": {"observed": {"lives": 5}}}))
    assert score.verdict == "FAIL" and score.severity == "Important"
    assert "probe 'lives' failed" in score.feedback and "lives == 3" in score.feedback and '"lives": 5' in score.feedback
    assert score.total <= 3.0


def test_console_errors_and_network_are_named() -> None:
    score = judge(projection(ok=False, errors=["TypeError: x is undefined"], blocked=["https://cdn.example/x.js"]))
    assert score.verdict == "FAIL" and score.severity == "Important"
    assert "TypeError: x is undefined" in score.feedback and "cdn.example" in score.feedback


def test_nothing_loads() -> None:
    once = judge(projection(ok=False, exec_ok=False, loaded=False, hook=False, probes=[], canvas_nonblank=None, fps=None))
    assert once.verdict == "FAIL" and once.severity == "Important" and "did not load" in once.feedback
    assert once.scores["runs"].score == 0
    proj = projection(ok=False, exec_ok=False, loaded=False, hook=False, probes=[], fps=None)
    proj["history"] = [{"loaded": False}]
    twice = judge(proj)
    assert twice.verdict == "FAIL" and twice.severity == "Critical"


def test_cosmetic_issues_are_partial() -> None:
    score = judge(projection(fps=25.0))
    assert score.verdict == "PARTIAL" and score.severity is None and "[Minor]" in score.feedback and "25 fps" in score.feedback


def test_qa_critical_findings_are_for_the_builder_to_fix() -> None:
    finding = {"code": "syntax_error", "severity": "Critical", "message": "the game threw SyntaxError"}
    score = judge(projection(ok=False, findings=[finding], errors=["SyntaxError: x"]))
    assert score.verdict == "FAIL" and score.severity == "Important" and "syntax_error" in score.feedback


def test_the_validator_agrees_with_the_verdict() -> None:
    from crumb.reducer.validator import validate

    for proj in (projection(), projection(fail={"lives": {}}), projection(fps=25.0),
                 projection(ok=False, exec_ok=False, loaded=False, hook=False, probes=[], fps=None)):
        score = judge(proj).model_dump(mode="json")
        audit = validate(score, qa=proj["qa"], spec=proj["spec"], build=proj["build"], input_ids=["G1", "S1", "B1", "Q1"],
                         judge_provider=None, builder_provider=None, settings=Judge())
        # the validator recomputes the mean and caps it again: same total, nothing else corrected
        assert {c["rule"] for c in audit["corrections"]} <= {"total_from_scores", "probe_fail_cap"}, audit["corrections"]
        assert audit["verdict"] == score["verdict"] and audit["severity"] == score["severity"]
        assert audit["total"] == score["total"]


def test_qa_crash_is_not_a_pass() -> None:
    score = judge(projection(ok=False, error="browser died"))
    assert score.verdict == "FAIL" and "browser died" in score.feedback


def test_a_probe_qa_did_not_run_is_reported() -> None:
    proj = projection()
    proj["qa"]["probes"] = [p for p in proj["qa"]["probes"] if p["id"] != "timer"]
    score = judge(proj)
    assert score.verdict == "FAIL" and "probe 'timer' was not run" in score.feedback


@settings(max_examples=200, deadline=None)
@given(ok=st.booleans(), loaded=st.booleans(), hook=st.booleans(), errors=st.lists(st.text(max_size=20), max_size=3),
       flags=st.lists(st.booleans(), min_size=7, max_size=7), fps=st.one_of(st.none(), st.floats(0, 120)),
       nonblank=st.sampled_from([True, False, None]), responds=st.sampled_from([True, False, None]))
def test_never_pass_when_qa_is_not_ok(ok: bool, loaded: bool, hook: bool, errors: list[str], flags: list[bool],
                                      fps: float | None, nonblank: bool | None, responds: bool | None) -> None:
    proj = projection(ok=ok, loaded=loaded, hook=hook, errors=errors, fps=fps, canvas_nonblank=nonblank,
                      input_responds=responds)
    for p, flag in zip(proj["qa"]["probes"], flags, strict=False):
        p["ok"] = flag
    score = judge(proj)
    probe_failed = not all(p["ok"] for p in proj["qa"]["probes"])
    if not ok or probe_failed or errors:
        assert score.verdict != "PASS"
    if not ok or probe_failed:
        assert score.total <= 3.0
    if score.verdict == "PASS":
        assert ok and loaded and hook and not errors
    assert (score.severity is None) == (score.verdict in ("PASS", "PARTIAL"))
    assert judge(proj) == score


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="lacks qa"):
        judge({"goal": {"id": "G", "pitch": "x"}, "spec": {"id": "S", **_spec().model_dump(mode="json")}})
    proj = projection()
    proj["qa"]["ok"] = "maybe"
    with pytest.raises(ValueError, match="qa is invalid at ok"):
        judge(proj)


def test_a_fact_qa_reported_is_said_once() -> None:
    finding = {"code": "no_input_response", "severity": "Important", "message": "pressing '1' changed nothing"}
    score = judge(projection(ok=False, input_responds=False, findings=[finding]))
    lines = [line for line in score.feedback.split("\n") if line.startswith("- ")]
    assert lines == ["- [Important] no_input_response: pressing '1' changed nothing"]


def _frames(*colours: str, dot: bool = False) -> list[bytes]:
    import io

    from PIL import Image, ImageDraw

    out = []
    for n, c in enumerate(colours):
        im = Image.new("RGB", (192, 128), c)
        if dot:  # a sprite that moves across the picture frame by frame
            ImageDraw.Draw(im).rectangle((20 * n, 40, 20 * n + 30, 70), fill="#ffffff")
        buf = io.BytesIO()
        im.save(buf, format="PNG")
        out.append(buf.getvalue())
    return out


def test_the_filmstrip_is_read_for_motion_and_a_still_one_costs_visuals_only() -> None:
    from crumb.actors.embedded.filmstrip import read_film

    moving = read_film(_frames(*["#102030"] * 5, dot=True))
    still = read_film(_frames(*["#102030"] * 5))
    assert moving is not None and moving.moving_steps == 4 and moving.distinct == 5 and not moving.still
    assert still is not None and still.still and still.distinct == 1
    plain, seen, frozen = judge(projection()), judge(projection(), film=moving), judge(projection(), film=still)
    assert "the picture moved in 4 of 4 steps" in seen.scores["visuals"].note
    assert seen.scores["visuals"].score == plain.scores["visuals"].score
    assert frozen.scores["visuals"].score == plain.scores["visuals"].score - 1.0
    assert frozen.verdict == plain.verdict == "PASS"  # a rule's reading of pixels never decides alone
    assert read_film([b"not a png", _frames("#000000")[0]]) is None  # fewer than two pictures: nothing read
