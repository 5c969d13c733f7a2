"""The offline Verifier: a rule-based judgement of one build from projected evidence only.

QA's measurements are ground truth here: a failed probe or console error is never argued away,
and the verdict is never PASS when QA says not ok. Deterministic: same input, same JudgeScore.

QA's filmstrip (when the Verifier's folder holds it) is read for motion and variety only (filmstrip.py):
a play-through whose frames never move costs `visuals` a point, and the note says what the frames showed;
it adds no issue, so it never decides a verdict on its own.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from crumb.actors.embedded.filmstrip import FilmReading
from crumb.protocol.errors import first_problem
from crumb.protocol.game import DIMENSIONS, Criterion, DimensionScore, JudgeScore, QAResult, Severity, Spec, Verdict
from crumb.reducer.validator import qa_scores
from crumb.settings import Judge

_RANK = {"Minor": 1, "Important": 2, "Critical": 3}
_BY_RANK: dict[int, Severity | None] = {0: None, 1: "Minor", 2: "Important", 3: "Critical"}
NUMBER_PATHS = ("lives", "target", "timeLeft", "levelTimeLeft")


class Issue(BaseModel):
    severity: str
    message: str


def _ids(projected: dict[str, Any]) -> dict[str, str]:
    out = {}
    for key in ("goal", "spec", "build", "qa"):
        part = projected.get(key)
        if isinstance(part, dict) and isinstance(part.get("id"), str):
            out[key] = part["id"]
    return out


def _strip_id(part: Any) -> dict[str, Any]:
    return {k: v for k, v in part.items() if k != "id"} if isinstance(part, dict) else {}


def _short(value: Any, limit: int = 120) -> str:
    try:
        s = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        s = repr(value)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _expect_text(c: Criterion) -> str:
    return ", ".join(f"{x.path} {x.op}" + ("" if x.value is None else f" {_short(x.value, 40)}") for x in c.probe.expect)


def parse_projection(projected: dict[str, Any]) -> tuple[Spec, QAResult, dict[str, Any]]:
    """The spec, the QA result and the build manifest from a projection; ValueError names what is wrong."""
    if not isinstance(projected, dict):
        raise ValueError("verifier input must be an object with goal, spec, build and qa")
    missing = [k for k in ("spec", "qa") if not isinstance(projected.get(k), dict)]
    if missing:
        raise ValueError(f"verifier input lacks {', '.join(missing)}: project the latest spec and qa.result events")
    try:
        spec = Spec.model_validate(_strip_id(projected["spec"]))
    except ValidationError as exc:
        p = first_problem(exc)
        raise ValueError(f"verifier input spec is invalid at {p.where}: {p.message}") from None
    try:
        qa = QAResult.model_validate(_strip_id(projected["qa"]))
    except ValidationError as exc:
        p = first_problem(exc)
        raise ValueError(f"verifier input qa is invalid at {p.where}: {p.message}") from None
    build = projected.get("build")
    manifest = build.get("manifest") if isinstance(build, dict) else None
    return spec, qa, manifest if isinstance(manifest, dict) else {}


def judge(projected: dict[str, Any], settings: Judge | None = None, film: FilmReading | None = None) -> JudgeScore:
    """Score the six dimensions from the projected goal, spec, build and QA result, and decide;
    `film`: what QA's filmstrip frames showed (see filmstrip.read_film).

    Optional `projected["history"]`: earlier QA results of this session ([{"loaded": bool}, ...]);
    a second build that does not load is Critical (the design, not the build, is the problem).
    """
    spec, qa, manifest = parse_projection(projected)
    ids = _ids(projected)
    goal_id, spec_id, build_id, qa_id = (ids.get(k) for k in ("goal", "spec", "build", "qa"))
    cfg = settings or Judge()

    def ev(*names: str | None) -> list[str]:
        return [n for n in names if n]

    criteria = {c.id: c for c in spec.criteria}
    results = {p.id: p for p in qa.probes}
    genre_ids = {c.id for c in spec.criteria if any(x.path == "genre" for x in c.probe.expect)}
    number_ids = {c.id for c in spec.criteria if any(x.path in NUMBER_PATHS for x in c.probe.expect)}
    issues: list[Issue] = []
    codes = {f.code for f in qa.findings}  # QA's own findings say it best: no second line for the same fact

    def add(severity: str, message: str) -> None:
        issues.append(Issue(severity=severity, message=message))

    files = [f.get("path") for f in manifest.get("files", []) if isinstance(f, dict)]
    entry = manifest.get("entry", "index.html")
    if manifest and entry not in files:
        add("Important", f"the build has no {entry} (files: {_short(files, 80)}); write the entry page")
    if qa.error:
        add("Important", f"QA could not finish: {qa.error[:200]}")
    if not qa.loaded:
        history = projected.get("history")
        twice = isinstance(history, list) and any(isinstance(h, dict) and h.get("loaded") is False for h in history)
        add("Critical" if twice else "Important",
            "the page did not load" + (" for the second build in a row: redesign more simply" if twice else ""))
    elif not qa.hook and "no_hook" not in codes:
        add("Important", "window.__crumb (the test hook) is missing; add it as docs/game-contract.md describes")
    shown = [] if codes & {"console_error", "syntax_error"} else qa.errors
    for err in shown[:3]:
        add("Important", f"console error: {err[:200]}")
    if len(shown) > 3:
        add("Important", f"{len(shown) - 3} more console errors")
    if qa.blocked and "network_blocked" not in codes:
        add("Important", f"the game tried the network ({_short(qa.blocked[:3], 100)}); ship every file inside the game folder")
    if qa.canvas_nonblank is False and "blank_canvas" not in codes:
        add("Important", "the canvas stays blank")
    if qa.input_responds is False and "no_input_response" not in codes:
        add("Important", "input does not change the game (keys, clicks and taps are ignored)")
    if qa.canvas_animates is False and "frozen_canvas" not in codes:
        add("Minor", "the canvas does not animate")
    if qa.fps is not None and qa.fps < 30 and "low_fps" not in codes:
        add("Important" if qa.fps < 10 else "Minor", f"it runs at {qa.fps:.0f} fps (aim for 50+)")
    for f in qa.findings:
        if f.code == "probe_failed":
            continue  # each probe is reported below, with what it expected and saw
        if qa.error and f.code in ("crash", "timeout") and f.message in qa.error:
            continue  # the same failure as qa.error, already said
        # QA's "Critical" means badly broken, which a fix can mend; only a wrong game needs a redesign
        add("Important" if f.severity == "Critical" else f.severity, f"{f.code}: {f.message[:200]}")
    for cid, c in criteria.items():
        r = results.get(cid)
        if r is None:
            if qa.loaded and qa.hook and not qa.error:
                add("Important", f"probe '{cid}' was not run by QA ({c.text})")
            continue
        if r.ok:
            continue
        observed = "" if r.observed is None else f"; observed {_short(r.observed)}"
        detail = f" ({r.detail[:160]})" if r.detail else ""
        # Critical only for a game that runs and says it is another genre; a game that did not run
        # at all fails every probe, and that is the Builder's to fix
        seen = r.observed.get("genre") if isinstance(r.observed, dict) else None
        wrong_game = cid in genre_ids and qa.loaded and qa.hook and isinstance(seen, str) and bool(seen)
        sev = "Critical" if wrong_game else "Important"
        what = "the game built is not the genre specified: " if wrong_game else ""
        add(sev, f"{what}probe '{cid}' failed — {c.text} Expected {_expect_text(c)}{observed}{detail}")
    for r in qa.probes:
        if r.id not in criteria and not r.ok:
            add("Important", f"probe '{r.id}' failed{': ' + r.detail[:160] if r.detail else ''}")
    if not spec.criteria:
        add("Critical", "the spec has no acceptance criteria to check")
    if not qa.ok and not any(i.severity in ("Important", "Critical") for i in issues):
        add("Important", "QA reports the build as not ok" + (" (static checks failed)" if not qa.static_ok else ""))

    # ---- scores
    failed = [cid for cid, r in results.items() if not r.ok]
    measured = qa_scores(qa.model_dump(mode="json"))  # the validator's own measure: no corrections
    runs = measured["runs"]
    controls = measured["controls"] if qa.input_responds is not None else 2.5
    rules = measured["rules"]
    goal_fit = 3.0 if not genre_ids else (5.0 if all(results.get(g) and results[g].ok for g in genre_ids) else 1.0)
    goal_fit -= sum(1.0 for cid in number_ids if cid in results and not results[cid].ok)
    # pitch fidelity: the spec's record of how the pitch was read, against what QA checked
    reading = spec.reading
    shortfalls = reading.shortfalls() if reading is not None else []
    unchecked = [] if reading is None else [
        f"{n.said or n.field} ({n.field})" for n in reading.numbers if n.honoured and n.criterion not in results]
    if reading is not None:
        if reading.genre.fits is False:
            goal_fit = min(goal_fit, 2.0)
        goal_fit -= 1.0 * (not reading.language.recognised)
        goal_fit -= 1.0 * sum(1 for n in reading.numbers if not n.honoured) + 0.5 * len(reading.unhonoured)
        goal_fit -= 0.5 * len(unchecked)
    visuals = 5.0
    if qa.canvas_nonblank is False or not qa.loaded:
        visuals = 0.0 if not qa.loaded else 1.0
    else:
        visuals -= 1.5 if qa.canvas_animates is False else 0
        visuals = min(visuals, 3.5) if qa.canvas_nonblank is None else visuals
        if film is not None and film.still and qa.canvas_animates is not False:
            visuals -= 1.0  # QA saw the canvas change, but the play-through's frames never moved
    fps = qa.fps
    performance = measured.get("performance", 0.0 if not qa.loaded else 3.0)
    raw = {"goal_fit": goal_fit, "runs": runs, "controls": controls, "rules": rules, "visuals": visuals,
           "performance": performance}
    genre_note = ("genre probe held" if genre_ids and not (genre_ids & set(failed)) else
                  ("genre probe failed" if genre_ids & set(failed) else "no genre probe in the spec"))
    notes = {
        "goal_fit": "; ".join([genre_note, *shortfalls, *(f"not checked by QA: {u}" for u in unchecked)])[:1000],
        "runs": f"loaded={qa.loaded}, hook={qa.hook}, {len(qa.errors)} console errors",
        "controls": f"input responds: {qa.input_responds}",
        "rules": f"{sum(1 for p in qa.probes if p.ok)}/{len(qa.probes)} probes held",
        "visuals": f"canvas nonblank={qa.canvas_nonblank}, animates={qa.canvas_animates}"
                   + (f"; {film.note()}" if film is not None else ""),
        "performance": "fps not measured" if fps is None else f"{fps:.0f} fps",
    }
    evidence_for = {
        "goal_fit": ev(goal_id, spec_id, qa_id), "runs": ev(qa_id, build_id), "controls": ev(qa_id, spec_id),
        "rules": ev(qa_id, spec_id), "visuals": ev(qa_id), "performance": ev(qa_id),
    }
    scores = {d: DimensionScore(score=round(max(0.0, min(5.0, raw[d])), 2), evidence=evidence_for[d], note=notes[d])
              for d in DIMENSIONS}
    total = round(sum(s.score for s in scores.values()) / len(scores), 2)
    if failed or not qa.ok:
        total = min(total, cfg.probe_fail_cap)

    # ---- verdict
    worst = max((_RANK[i.severity] for i in issues), default=0)
    severity = _BY_RANK[worst]
    verdict: Verdict
    if worst >= 2 or not qa.ok:
        verdict = "FAIL"
        severity = severity if worst >= 2 else "Important"
    elif worst == 1 or total < cfg.pass_threshold or shortfalls or unchecked:
        verdict = "PARTIAL"  # playable; a person decides. PARTIAL carries no severity (the validator's rule)
        severity = None
    else:
        verdict = "PASS"
    ordered = sorted(issues, key=lambda i: -_RANK[i.severity])
    head = f"{verdict}" + (f" ({severity})" if severity else "") + f", total {total:g}/5."
    if verdict == "PASS":
        head += " Every acceptance probe held; QA found no errors; the game is the one pitched."
    person = [f"- [needs a person] {x}" for x in shortfalls]
    person += [f"- [needs a person] QA did not check {u}" for u in unchecked]
    if verdict == "PARTIAL" and person:
        head += " The game plays, but it is not all the pitch asked for:"
    lines = [head] + person + [f"- [{i.severity}] {i.message}" for i in ordered[:12]]
    if len(ordered) > 12:
        lines.append(f"- … and {len(ordered) - 12} more")
    return JudgeScore(
        verdict=verdict,
        severity=severity,
        scores=scores,
        total=total,
        feedback="\n".join(lines),
        evidence=ev(goal_id, spec_id, build_id, qa_id),
    )
