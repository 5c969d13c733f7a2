"""The anti-deception validator: reconciles a model's judgement with the deterministic evidence.

Pure. Each rule is named; every change it makes is a Correction, recorded in an `audit` event, and
routing uses the corrected verdict. Rules, in the order they run:

  spec_has_criteria   a spec without acceptance criteria cannot pass: FAIL, Critical (re-plan)
  build_has_files     a build without files cannot pass: FAIL, Important
  exec_from_qa        runs / controls / rules / performance are set from QA facts, not the model,
                      whether the judge scored dimensions or gave only a total
  total_from_scores   the total is the mean of the (corrected) dimension scores; a bare total stands
                      for the dimensions a model judges (goal_fit, visuals), so it cannot carry
                      execution QA did not see
  cited_evidence      citing an id that was not in the Verifier's input costs 0.5 each (at most 2)
  self_bias           judge and builder on the same provider: total minus a discount
  probe_fail_cap      any failed acceptance probe caps the total
  fidelity_probes     PASS whose genre probe or a probe of a stated number failed becomes FAIL: the game
                      is not the one pitched, whatever the model says
  pass_needs_qa       PASS without a successful QA run becomes FAIL
  verdict_agrees      PASS below the pass threshold becomes PARTIAL
  numbers_checked     PASS with a number the pitch states that no probe checked (or QA did not run)
                      becomes PARTIAL: what QA did not check is not claimed
  pitch_fidelity      PASS whose spec records a shortfall against the pitch (another genre than asked,
                      a language not read, a number or wish not built) becomes PARTIAL, with that reason
  severity_fits       FAIL/REJECT always carry a severity (default Important); PASS/PARTIAL none
"""

from __future__ import annotations

from typing import Any

from crumb.protocol.names import DIMENSIONS, EXEC_DIMENSIONS, NUMBER_PATHS
from crumb.protocol.reading import PitchReadingData, read, shortfalls
from crumb.settings import Judge

JUDGED_DIMENSIONS = tuple(d for d in DIMENSIONS if d not in EXEC_DIMENSIONS)

RULES = (
    "spec_has_criteria",
    "build_has_files",
    "exec_from_qa",
    "total_from_scores",
    "cited_evidence",
    "self_bias",
    "probe_fail_cap",
    "fidelity_probes",
    "pass_needs_qa",
    "verdict_agrees",
    "numbers_checked",
    "pitch_fidelity",
    "severity_fits",
)


def _fps_score(fps: float | None) -> float | None:
    if fps is None:
        return None
    if fps >= 50:
        return 5.0
    if fps >= 30:
        return 4.0
    if fps >= 20:
        return 3.0
    if fps >= 10:
        return 2.0
    return 1.0


def qa_scores(qa: dict[str, Any]) -> dict[str, float]:
    """What QA's facts say the execution-related dimensions are worth."""
    probes = qa.get("probes") or []
    passed = sum(1 for p in probes if p.get("ok"))
    out: dict[str, float] = {
        "runs": 5.0 if qa.get("exec_ok") else (1.0 if qa.get("loaded") else 0.0),
        "controls": 5.0 if qa.get("input_responds") else 0.0,
        "rules": round(5.0 * passed / len(probes), 2) if probes else 0.0,
    }
    perf = _fps_score(qa.get("fps"))
    if perf is not None:
        out["performance"] = perf
    return out


def _fidelity_criteria(spec: dict[str, Any] | None, reading: PitchReadingData | None) -> set[str]:
    """Criteria that check the game is the one pitched: its genre, each number the game reports, and
    every criterion the reading names as checking a stated number."""
    paths = {"genre", *NUMBER_PATHS.values()}
    out: set[str] = {n.criterion for n in reading.numbers if n.criterion} if reading is not None else set()
    for c in (spec or {}).get("criteria") or []:
        expects = ((c.get("probe") or {}).get("expect") or []) if isinstance(c, dict) else []
        if any(isinstance(x, dict) and x.get("path") in paths for x in expects):
            out.add(str(c.get("id")))
    return out


def _reading(spec: dict[str, Any] | None) -> PitchReadingData | None:
    """The spec's reading, as the pydantic model reads it (without loading pydantic for what the writer
    wrote); None: a reading this version cannot read says nothing, the probes still count."""
    raw = (spec or {}).get("reading")
    if not isinstance(raw, dict):
        return None
    fast = read(raw)
    if fast is not None:
        return fast
    from crumb.protocol.game import PitchReading  # pydantic: only for a reading out of the ordinary

    try:
        return read(PitchReading.model_validate(raw).model_dump())
    except ValueError:  # pydantic's ValidationError is one
        return None


def validate(
    judge: dict[str, Any],
    *,
    qa: dict[str, Any] | None,
    spec: dict[str, Any] | None,
    build: dict[str, Any] | None,
    input_ids: list[str],
    judge_provider: str | None,
    builder_provider: str | None,
    settings: Judge,
) -> dict[str, Any]:
    """Return the audit: {"corrections": [...], "verdict", "severity", "total", "feedback"}."""
    threshold = settings.pass_threshold
    cap = settings.probe_fail_cap
    discount = settings.self_bias_discount

    corrections: list[dict[str, Any]] = []
    verdict: str = judge.get("verdict", "FAIL")
    severity: str | None = judge.get("severity")
    total = float(judge.get("total", 0.0))
    feedback: list[str] = [judge.get("feedback", "")] if judge.get("feedback") else []
    given = judge.get("scores") or {}
    scores = {d: float(given[d].get("score", 0.0)) for d in DIMENSIONS if isinstance(given.get(d), dict)}

    def correct(rule: str, field: str, before: Any, after: Any, reason: str) -> None:
        corrections.append({"rule": rule, "field": field, "before": before, "after": after, "reason": reason})

    def demote(rule: str, to: str, sev: str | None, reason: str) -> None:
        nonlocal verdict, severity
        if verdict != to:
            correct(rule, "verdict", verdict, to, reason)
            verdict = to
        if sev is not None and severity != sev and to in ("FAIL", "REJECT"):
            correct(rule, "severity", severity, sev, reason)
            severity = sev
        feedback.append(reason)

    if spec is not None and not (spec.get("criteria") or []):
        demote("spec_has_criteria", "FAIL", "Critical", "the spec has no acceptance criteria: re-plan with checkable ones")
    if build is not None and not ((build.get("manifest") or {}).get("files") or []):
        demote("build_has_files", "FAIL", "Important", "the build produced no files")

    bare = not scores
    if qa is not None:
        if bare:  # a total alone is the model's view of what it can judge; execution is QA's to say
            scores = {d: total for d in JUDGED_DIMENSIONS}
        for dim, value in qa_scores(qa).items():
            before = scores.get(dim)
            if before != value:
                correct("exec_from_qa", f"scores.{dim}", before, value, f"{dim} is measured by QA, not judged")
                scores[dim] = value
    if scores:
        mean = round(sum(scores.values()) / len(scores), 2)
        if abs(mean - total) > 0.01:
            why = "the total is the mean of the dimension scores"
            if bare:
                why += f" (the judge gave only a total: it stands for {', '.join(JUDGED_DIMENSIONS)}; the rest is QA's)"
            correct("total_from_scores", "total", total, mean, why)
            total = mean

    cited = set(judge.get("evidence") or [])
    for v in (judge.get("scores") or {}).values():
        if isinstance(v, dict):
            cited.update(v.get("evidence") or [])
    unknown = sorted(c for c in cited if c not in input_ids)
    if unknown:
        penalty = min(2.0, 0.5 * len(unknown))
        after = max(0.0, round(total - penalty, 2))
        correct("cited_evidence", "total", total, after, f"cited evidence not in the Verifier's input: {', '.join(unknown[:5])}")
        total = after

    if judge_provider and builder_provider and judge_provider == builder_provider and discount > 0:
        after = max(0.0, round(total - discount, 2))
        correct("self_bias", "total", total, after, f"judge and builder share the provider {judge_provider}")
        total = after

    failed = [p.get("id", "?") for p in (qa or {}).get("probes") or [] if not p.get("ok")]
    if failed and total > cap:
        correct("probe_fail_cap", "total", total, cap, f"acceptance probes failed: {', '.join(failed)}")
        total = cap

    # the pitch's reading and the probes that check it matter to a PASS only: read them for one
    reading = _reading(spec) if verdict == "PASS" else None
    if verdict == "PASS" and failed:
        fidelity = _fidelity_criteria(spec, reading)
        fidelity_failed = [cid for cid in failed if cid in fidelity]
        if fidelity_failed:
            demote("fidelity_probes", "FAIL", "Important",
                   f"the game does not hold what the pitch states: probes {', '.join(fidelity_failed)} failed")
    if verdict == "PASS" and (qa is None or not qa.get("ok")):
        why = "no QA run" if qa is None else (qa.get("error") or "QA failed")
        demote("pass_needs_qa", "FAIL", "Important", f"PASS without a successful QA run ({why})")
    if verdict == "PASS" and total < threshold:
        demote("verdict_agrees", "PARTIAL", None, f"a PASS needs a total of at least {threshold}, not {total}")
    if verdict == "PASS" and reading is not None:
        ran = {p.get("id") for p in (qa or {}).get("probes") or []}
        unchecked = [f"{n.said or n.field} ({n.field})" for n in reading.numbers
                     if n.honoured and (n.criterion is None or n.criterion not in ran)]
        if unchecked:
            demote("numbers_checked", "PARTIAL", None,
                   f"QA did not check what the pitch states: {', '.join(unchecked)}; a person decides")
        missing = shortfalls(reading)
        if missing:  # said even when numbers_checked already made it PARTIAL: both are reasons
            demote("pitch_fidelity", "PARTIAL", None, "; ".join(missing))

    if verdict in ("FAIL", "REJECT") and severity is None:
        correct("severity_fits", "severity", None, "Important", "a failing verdict needs a severity")
        severity = "Important"
    if verdict in ("PASS", "PARTIAL") and severity is not None:
        correct("severity_fits", "severity", severity, None, "a passing verdict has no severity")
        severity = None

    return {
        "corrections": corrections,
        "verdict": verdict,
        "severity": severity,
        "total": max(0.0, min(5.0, total)),
        "feedback": "\n".join(f for f in feedback if f),
    }
