"""What a scripted model answers for each CRUMB role: the Tap Dash spec, the game (game.html beside this
file), a PASS verdict, one research item. Shared by the fake model servers, the fake chat-completions
server and the example `command` agent, so every harness plays the same session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: a small game that passes real QA for spec(): window.__crumb, Enter starts, Space scores, 30 s rounds
GAME_HTML = (HERE / "game.html").read_text()
ROLE_MARK = "# CRUMB role:"
DIMENSIONS = ("goal_fit", "runs", "controls", "rules", "visuals", "performance")


def role_of(prompt: str) -> str | None:
    """The role a CRUMB prompt is for (its `# CRUMB role: <role>` line), None without one."""
    for line in prompt.splitlines():
        if line.startswith(ROLE_MARK):
            return line.split(":", 1)[1].strip() or None
    return None


def spec() -> dict[str, Any]:
    return {
        "title": "Tap Dash",
        "genre": "clicker",
        "pitch": "tap the dot as often as you can in 30 seconds",
        "core_loop": "A dot appears; press Space or click to score and move it.",
        "controls": {"keys": ["Enter", " "], "pointer": "click the dot", "touch": "tap the dot"},
        "win": "reach 20 points", "lose": "time runs out",
        "numbers": {"time_limit_s": 30, "target_score": 20},
        "criteria": [
            {"id": "starts", "text": "Enter starts the round",
             "probe": {"steps": [{"do": "start"}], "expect": [{"path": "phase", "op": "==", "value": "playing"}]}},
            {"id": "scores", "text": "Space scores a point",
             "probe": {"steps": [{"do": "start"}, {"do": "key", "key": " "}, {"do": "key", "key": " "}],
                       "expect": [{"path": "score", "op": "increased"}]}},
            {"id": "timer", "text": "The round ends after 30 seconds",
             "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 31000}],
                       "expect": [{"path": "phase", "op": "in", "value": ["over", "won"]}]}},
        ],
        "seed": 7,
    }


def judge(verdict: str = "PASS", qa_id: str = "qa", feedback: str | None = None) -> dict[str, Any]:
    """A verifier's answer: every dimension scored, citing the QA result `qa_id`."""
    good = verdict == "PASS"
    score = 4.0 if good else 2.0
    out: dict[str, Any] = {"verdict": verdict, "scores": {d: {"score": score, "evidence": [qa_id]} for d in DIMENSIONS},
                           "total": score, "feedback": feedback or ("plays as pitched" if good else "make the dot bigger"),
                           "evidence": [qa_id]}
    if verdict in ("FAIL", "REJECT"):
        out["severity"] = "Important"
    return {"judge": out}


def auto_reply(role: str | None, qa_id: str = "qa") -> dict[str, Any]:
    """A valid answer for `role`."""
    if role == "planner":
        return {"spec": spec()}
    if role == "builder":
        return {"notes": ["wrote index.html (Tap Dash)"]}
    if role == "verifier":
        return judge("PASS", qa_id)
    if role == "researcher":
        return {"evidence": {"items": [{"id": "r1", "source": "knowledge", "title": "Clickers", "text": "Short rounds."}]}}
    return {"note": "no role found in the prompt"}


def reply_text(reply: Any) -> str:
    """The final text of an agent that ends with its JSON answer in a fenced block."""
    if isinstance(reply, str):
        return reply
    return "Done.\n\n```json\n" + json.dumps(reply) + "\n```\n"
