"""LocalAdapter plays planner, researcher, builder and verifier on projected input only."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.base import ActorError, ActorRequest, ProgressUpdate
from crumb.actors.embedded import LocalAdapter
from crumb.protocol.events import ResearchEvidence, ResearchPlan
from crumb.protocol.game import JudgeScore, Spec


def run(role: str, data: dict[str, Any], work: Path, cancel: threading.Event | None = None) -> Any:
    seen: list[ProgressUpdate] = []
    request = ActorRequest(role=role, session="S", effect_id="E1", work_dir=work, input=data)  # type: ignore[arg-type]
    result = LocalAdapter().run(request, seen.append, cancel or threading.Event())
    assert seen, "the adapter reports progress"
    assert result.usage.harness == "local" and result.usage.cost_usd == 0
    return result.payload


def test_planner_then_researcher_then_planner(tmp_path: Path) -> None:
    assert LocalAdapter.name == "local"
    first = run("planner", {"pitch": "a cozy game about a cat that catches fish", "seed": 3, "evidence": [],
                            "feedback": None, "previous_spec": None, "steering": []}, tmp_path)
    plan = ResearchPlan.model_validate(first["research"])
    evidence = ResearchEvidence.model_validate(
        run("researcher", {"pitch": "a cozy game about a cat that catches fish", "plan": plan.model_dump()},
            tmp_path)["evidence"])
    spec = Spec.model_validate(run("planner", {"pitch": "a cozy game about a cat that catches fish", "seed": 3,
                                               "evidence": [i.model_dump() for i in evidence.items]}, tmp_path)["spec"])
    assert spec.genre == "dodge" and spec.seed == 3


def test_builder_writes_the_game_and_returns_the_steered_spec(tmp_path: Path) -> None:
    spec = Spec.model_validate(run("planner", {"pitch": "a snake game with 3 lives", "seed": 1}, tmp_path)["spec"])
    work = tmp_path / "game"
    payload = run("builder", {"spec": spec.model_dump(), "feedback": None, "qa": None, "round": 1,
                              "steering": [{"text": "make it red"}, "30 seconds"], "fault": None, "seed": 5}, work)
    assert (work / "index.html").is_file()
    amended = Spec.model_validate(payload["spec"])
    assert amended.numbers.time_limit_s == 30 and amended.theme.palette[1] == "#e63946"
    assert any("time_limit_s" in n for n in payload["notes"])
    unchanged = run("builder", {"spec": spec.model_dump(), "steering": [], "round": 1}, tmp_path / "again")
    assert "spec" not in unchanged and isinstance(unchanged["notes"], list)


def test_builder_ignores_the_verifiers_report_but_reads_a_persons_wish(tmp_path: Path) -> None:
    spec = Spec.model_validate(run("planner", {"pitch": "a snake game with 3 lives"}, tmp_path)["spec"])
    report = "FAIL (Important), total 2/5.\n- [Important] probe 'lives' failed — Expected lives == 3; observed 5 lives"
    payload = run("builder", {"spec": spec.model_dump(), "feedback": report}, tmp_path / "a")
    assert "spec" not in payload
    payload = run("builder", {"spec": spec.model_dump(), "feedback": "too slow, make it faster"}, tmp_path / "b")
    assert "speed:1.25" in Spec.model_validate(payload["spec"]).extras


def test_verifier_role(tmp_path: Path) -> None:
    spec = Spec.model_validate(run("planner", {"pitch": "a snake game"}, tmp_path)["spec"])
    data = {"goal": {"id": "G", "pitch": "a snake game"}, "spec": {"id": "S", **spec.model_dump(mode="json")},
            "build": {"id": "B", "manifest": {"dir": "x", "files": []}},
            "qa": {"id": "Q", "ok": False, "loaded": True, "hook": True,
                   "probes": [{"id": c.id, "ok": c.id != "genre", "observed": {"genre": "pong"} if c.id == "genre" else None}
                              for c in spec.criteria]}}
    score = JudgeScore.model_validate(run("verifier", data, tmp_path)["judge"])
    assert score.verdict == "FAIL" and score.severity == "Critical"


@pytest.mark.parametrize(("role", "data", "needle"), [
    ("planner", {"pitch": 42}, "local planner: bad input at pitch"),
    ("planner", {"pitch": "snake", "previous_spec": {"title": ""}}, "local planner: bad input at previous_spec"),
    ("researcher", {"pitch": "x"}, "local researcher: bad input at plan"),
    ("builder", {"steering": ["faster"]}, "local builder: bad input at spec"),
    ("verifier", {"goal": {"id": "G"}}, "local verifier: verifier input lacks spec, qa"),
])
def test_bad_input_raises_a_clear_actor_error(tmp_path: Path, role: str, data: dict[str, Any], needle: str) -> None:
    with pytest.raises(ActorError) as err:
        run(role, data, tmp_path)
    assert needle in str(err.value)


def test_cancel_is_honoured(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ActorError, match="cancelled"):
        run("planner", {"pitch": "snake"}, tmp_path, cancel)


def test_builder_does_not_apply_a_steer_twice(tmp_path: Path) -> None:
    # a steer while waiting for approval arrives as steering and as the fix's feedback
    spec = Spec.model_validate(run("planner", {"pitch": "a snake game"}, tmp_path)["spec"])
    payload = run("builder", {"spec": spec.model_dump(), "feedback": "faster", "steering": ["faster"]}, tmp_path / "g")
    assert "speed:1.25" in Spec.model_validate(payload["spec"]).extras
