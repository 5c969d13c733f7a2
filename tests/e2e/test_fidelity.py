"""Pitch fidelity end to end, as a user runs it: real `crumb run` processes, real QA in Chromium.

The four pitches of issue 13 end honestly (PARTIAL with a reason a designer understands, never a plain
PASS); a game that ignores the numbers the pitch states fails their probes and is fixed; the judge's
settings in crumb.toml change the verdict the embedded Verifier itself gives.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tests.daemon.conftest import crumb, events

pytestmark = pytest.mark.timeout(900)  # several sessions with real QA on a loaded 2-core machine


def run(root: Path, *args: str) -> tuple[int, dict]:
    out = crumb(root, "run", "--json", *args, timeout=600)
    assert out.stdout.strip(), out.stderr
    return out.returncode, json.loads(out.stdout)


@pytest.mark.parametrize(("pitch", "reason"), [
    ("Chess puzzles: checkmate the king in two moves", "has no board or card game"),
    ("Flipperkast: houd de stalen bal zo lang mogelijk in het spel met de twee flippers", "has no pinball game"),
    ("ett ormspel på sextio sekunder med tre liv", "the pitch is in Swedish"),
])
def test_a_pitch_the_embedded_studio_cannot_honour_waits_for_a_person_with_the_reason(root, pitch, reason):
    code, got = run(root, pitch)
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert reason in got["feedback"], got["feedback"]
    spec = events(root, got["session"], "spec")[-1]["data"]
    assert spec["reading"]["genre"]["fits"] is False or spec["reading"]["language"]["recognised"] is False
    qa = events(root, got["session"], "qa.result")[-1]["data"]
    assert qa["ok"] is True  # the game plays: what keeps it from PASS is that it is not the pitch
    md = (root / "sessions" / got["session"] / "artifacts" / "spec.md").read_text()
    assert "## How the pitch was read" in md
    approved = crumb(root, "approve", got["session"])
    assert approved.returncode == 0, approved.stderr


def test_a_thing_the_pitch_asks_to_see_that_the_game_does_not_draw_waits_for_a_person(root):
    """"tetris but with cats" passed before, as a game with no cat in it."""
    code, got = run(root, "tetris but with cats")
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert "the embedded Blocks game draws no cats" in got["feedback"], got["feedback"]
    assert events(root, got["session"], "qa.result")[-1]["data"]["ok"] is True  # it plays; it is not the pitch
    md = (root / "sessions" / got["session"] / "artifacts" / "spec.md").read_text()
    assert "draws no cats" in md, md


def test_a_frogger_pitchs_frog_is_built_and_measured(root):
    """The road hopper hops a chicken; asked for a frog, it hops a frog, and QA reads it from the running game."""
    code, got = run(root, "help the frog cross the busy traffic lanes and jump on the logs, 3 levels")
    assert code == 0 and got["done"] == "pass", got
    probe = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "draws-frogs")
    assert probe["ok"] is True, probe


def test_a_game_that_ignores_the_stated_numbers_fails_their_probes_and_is_fixed(root):
    pitch = "snake with 3 lives, 7 levels, a 12x12 grid and 200 points to win"
    code, got = run(root, pitch, "--fault", "wrongnumbers")
    assert code == 0 and got["done"] == "pass" and got["round"] == 2, got
    first, last = events(root, got["session"], "qa.result")[0]["data"], events(root, got["session"], "qa.result")[-1]["data"]
    failed = {p["id"] for p in first["probes"] if not p["ok"]}
    assert {"lives", "levels", "grid", "target"} <= failed, first["probes"]
    assert all(p["ok"] for p in last["probes"]) and {"lives", "levels", "grid", "target"} <= {p["id"] for p in last["probes"]}
    audit = events(root, got["session"], "audit")[0]["data"]
    assert audit["verdict"] == "FAIL" and audit["severity"] == "Important"


def test_a_move_limit_is_read_back_from_the_running_game(root):
    code, got = run(root, "match-3 with 25 moves", "--fault", "wrongnumbers")
    assert code == 0 and got["round"] == 2, got
    first = events(root, got["session"], "qa.result")[0]["data"]
    moves = next(p for p in first["probes"] if p["id"] == "moves")
    assert moves["ok"] is False and moves["observed"] == {"movesLeft": 26}, moves


def test_the_judge_settings_of_crumb_toml_change_the_embedded_verifiers_own_verdict(root):
    (root / "crumb.toml").write_text("[settings.judge]\nprobe_fail_cap = 1.5\n")
    code, got = run(root, "snake with 3 lives", "--fault", "wrongnumbers")
    assert code == 0 and got["round"] == 2, got
    judged = events(root, got["session"], "judge.score")[0]["data"]
    assert judged["verdict"] == "FAIL" and judged["total"] == 1.5, judged  # the Verifier's own cap, not the default 3


def test_a_pace_in_words_is_measured_in_the_running_game_and_a_pace_of_one_thing_is_not_passed(root):
    code, got = run(root, "pong at half speed")
    assert code == 0 and got["done"] == "pass", got
    speed = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "speed")
    assert speed["ok"] is True and speed["observed"] == {"speed": 0.5}, speed
    code, got = run(root, "a tiny snake where the snake grows twice as fast")
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert "grows twice as fast: the embedded games have one pace" in got["feedback"], got["feedback"]


def test_a_number_no_field_carries_waits_for_a_person_and_counts_a_game_plays_are_played(root):
    code, got = run(root, "minesweeper 10x10 with 20 mines")
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert "'20 mines', which no number of the Minesweeper game carries" in got["feedback"], got["feedback"]
    probes = {p["id"]: p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"]}
    assert probes["grid"]["ok"] is True  # the game plays what it can carry; the mines are what a person decides on
    code, got = run(root, "bubble shooter with 30 shots")
    assert code == 0 and got["done"] == "pass", got
    moves = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "moves")
    assert moves["ok"] is True, moves
    code, got = run(root, "memory game with 12 pairs of cards")  # a 5 × 5 board deals 12 pairs
    assert code == 0 and got["done"] == "pass", got
    grid = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "grid")
    assert grid["ok"] is True and grid["observed"] == {"grid": 5}, grid


def test_no_timer_is_a_round_without_a_clock_in_the_running_game_and_a_missing_extra_waits(root):
    code, got = run(root, "whack-a-mole without a timer")  # whack's default is a 60-second round
    assert code == 0 and got["done"] == "pass", got
    noclock = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "noclock")
    assert noclock["ok"] is True and noclock["observed"] == {"timeLeft": None}, noclock
    code, got = run(root, "snake with a boss")
    assert code == 3 and got["verdict"] == "PARTIAL", got
    assert "the embedded Snake game has no boss: it is not built" in got["feedback"], got["feedback"]


def _agent_builder(root: Path, fault: str | None = None) -> str:
    """A real builder process bound with `command:`: it writes the embedded studio's game for the spec it is
    given (with `fault`, one that ignores the spec's numbers), and claims in its notes it built it all."""
    agent = root / f"agent-{fault or 'honest'}.py"
    agent.write_text(f"#!{sys.executable}\n" + textwrap.dedent("""\
        import json, sys
        from pathlib import Path
        from crumb.actors.embedded.builder import build_game
        from crumb.protocol.game import Spec
        FAULT = sys.argv[1] if len(sys.argv) > 1 else None
        request = json.load(sys.stdin)
        notes = build_game(Spec.model_validate(request["input"]["spec"]), Path(request["work_dir"]), fault=FAULT)
        print(json.dumps({"payload": {"notes": [*notes, "built everything the pitch asks for"]},
                          "usage": {"model": "agent-1", "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0}}))
        """))
    agent.chmod(0o755)
    return f"builder=command:./{agent.name}" + (f" {fault}" if fault else "")


def test_for_an_agent_builder_a_stated_number_is_measured_and_an_ask_nothing_checks_waits(root):
    """With an agent bound to build, the embedded Planner's lines about the embedded games were false (the hint
    said to bind the agent that was bound) and the verdict could never be PASS. A stated number is now a criterion
    the agent's running game is held to; what no criterion checks waits for a person."""
    (root / "crumb.toml").write_text("[settings.budgets]\nfixes = 0\n")
    code, got = run(root, "cookie clicker with 3 lives", "--role", _agent_builder(root, "wrongnumbers"))
    assert code == 1 and got["done"] == "budget", got  # its game has no lives, whatever its notes claim
    spec = events(root, got["session"], "spec")[-1]["data"]
    assert spec["reading"]["builder"] == "command" and spec["reading"]["unhonoured"] == [], spec["reading"]
    lives = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "lives")
    assert lives["ok"] is False, lives
    code, got = run(root, "tetris but with cats", "--role", _agent_builder(root))
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert "no acceptance criterion checks that the game the command Builder makes draws cats" in got["feedback"], got
    assert "embedded" not in got["feedback"] and "--role builder=" not in got["feedback"], got["feedback"]
    assert events(root, got["session"], "qa.result")[-1]["data"]["ok"] is True


def _agent_planner(root: Path, measure: str | None = None) -> str:
    """A real planner process bound with `command:`: it answers the embedded Planner's spec for the pitch as an
    agent's own (no reading), with `measure`, one more criterion on the state field of that name."""
    agent = root / f"planner-{measure or 'plain'}.py"
    agent.write_text(f"#!{sys.executable}\n" + textwrap.dedent("""\
        import json, sys
        from crumb.actors.embedded.research import plan_researched
        MEASURE = sys.argv[1] if len(sys.argv) > 1 else None
        request = json.load(sys.stdin)
        spec, _ = plan_researched(request["input"]["pitch"])
        spec = spec.model_dump(mode="json", exclude={"reading"})
        if MEASURE:
            spec["criteria"].append({"id": "feature", "text": f"The game reports {MEASURE}.",
                                     "probe": {"expect": [{"path": MEASURE, "op": "==", "value": True}]}})
        print(json.dumps({"payload": {"spec": spec}, "usage": {"model": "agent-1", "tokens_in": 0, "tokens_out": 0}}))
        """))
    agent.chmod(0o755)
    return f"planner=command:./{agent.name}" + (f" {measure}" if measure else "")


def test_an_agent_planners_spec_passes_only_with_each_asked_extra_measured(root):
    """An agent Planner's spec was read for numbers only: "match-3 with combo bonus" planned and built by agents
    passed with nothing measuring the combo. Now an extra no criterion measures waits for a person, and one a
    criterion reads in the running game passes."""
    pitch = "match-3 with combo bonus"
    code, got = run(root, pitch, "--role", _agent_planner(root), "--role", _agent_builder(root))
    assert code == 3 and got["waiting_for"] == "approval" and got["verdict"] == "PARTIAL", got
    assert ("the extra 'combo bonus' is asked for, which no acceptance criterion checks in the game the command "
            "Builder makes") in got["feedback"], got["feedback"]
    assert events(root, got["session"], "spec")[-1]["data"]["reading"]["by"] == "crumb"
    code, got = run(root, pitch, "--role", _agent_planner(root, "comboBonus"), "--role", _agent_builder(root))
    assert code == 0 and got["done"] == "pass", got
    feature = next(p for p in events(root, got["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "feature")
    assert feature["ok"] is True and feature["observed"] == {"comboBonus": True}, feature


def test_a_fork_to_another_builder_holds_its_game_to_the_pitch_as_planned_for_it(root):
    """`crumb fork ID --at spec --role builder=…` asks what another Builder makes of the same spec. The spec's
    checks and reasons were the embedded games' ("has no lives: not built; bind an agent"), false for the agent
    bound: they are re-weighed for it, so the pitch's "3 lives" is a probe its running game is held to."""
    (root / "crumb.toml").write_text("[settings.budgets]\nfixes = 0\n")
    code, got = run(root, "cookie clicker with 3 lives")
    assert code == 3 and "the embedded Clicker game has no lives" in got["feedback"], got
    first = got["session"]
    agent = _agent_builder(root)  # it writes the embedded clicker, which has no lives, whatever its notes claim
    out = crumb(root, "fork", first, "--at", "spec", "--role", agent, "--run", "--json", timeout=600)
    forked = json.loads(out.stdout)
    assert out.returncode == 1 and forked["done"] == "budget", forked
    update = events(root, forked["session"], "spec.update")[-1]
    assert update["data"]["by"] == "crumb" and update["data"]["reading"]["builder"] == "command", update["data"]
    assert "lives" in [c["id"] for c in update["data"]["criteria"]]
    lives = next(p for p in events(root, forked["session"], "qa.result")[-1]["data"]["probes"] if p["id"] == "lives")
    assert lives["ok"] is False, lives  # measured, where the embedded games' plan had nothing to measure
    build = events(root, forked["session"], "build")[-1]["data"]
    assert build["spec"] == update["id"], "the build names the spec it was made from"
    assert "embedded" not in events(root, forked["session"], "audit")[-1]["data"]["feedback"]


def test_a_fallback_to_the_embedded_builder_is_held_to_what_its_game_can_carry(root):
    """An agent Builder that cannot run opens the circuit and the embedded studio builds instead: the plan for the
    agent (a lives probe for a clicker) is re-weighed for the embedded game, which names the lives as not built
    rather than failing a probe it was never built to hold."""
    tool = root / "tools" / "broken-builder"
    tool.parent.mkdir(parents=True, exist_ok=True)
    tool.write_text("#!/bin/sh\necho 'no model server here' >&2\nexit 1\n")
    tool.chmod(0o755)
    code, got = run(root, "cookie clicker with 3 lives", "--role", "builder=command:./tools/broken-builder")
    assert code == 3 and got["verdict"] == "PARTIAL", got
    assert "the embedded Clicker game has no lives" in got["feedback"], got["feedback"]
    sid = got["session"]
    assert events(root, sid, "spec")[0]["data"]["reading"]["builder"] == "command"
    update = events(root, sid, "spec.update")[-1]["data"]
    assert update["by"] == "crumb" and update["reading"]["builder"] == "local"
    assert "lives" not in [p["id"] for p in events(root, sid, "qa.result")[-1]["data"]["probes"]]
