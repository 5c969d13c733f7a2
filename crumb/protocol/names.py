"""The protocol's names as plain data: the schema version, the roles, the actors and the kinds of event.

Apart from their models (crumb.protocol.events, pydantic) so that replay, `crumb status` and a binding's
parser can name them without building a model. events.py checks its KINDS against EVENT_KINDS.
"""

from __future__ import annotations

SCHEMA_VERSION = 1

ROLES: tuple[str, ...] = ("planner", "builder", "verifier", "researcher")  # the actors an agent can play
ACTORS: tuple[str, ...] = (*ROLES, "qa")

#: every kind a transcript line may have, in the order of crumb.protocol.events.KINDS
EVENT_KINDS: tuple[str, ...] = (
    "session.start", "goal", "research.plan", "research.evidence", "spec", "spec.update", "build", "qa.result",
    "judge.score", "audit", "effect.started", "effect.finished", "effect.failed", "progress", "circuit.opened",
    "adapter.swapped", "budget.warning", "done", "note", "error", "release", "session.fork",
    "user.intervene", "user.approve", "user.veto", "user.pause", "user.resume", "user.goto", "user.swap",
    "user.append", "user.note", "user.cancel", "user.reset_circuit", "user.redo", "user.budget", "user.status",
)

#: where the game's test hook reports each stated number (docs/game-contract.md), so QA can check it
NUMBER_PATHS: dict[str, str] = {
    "time_limit_s": "timeLeft", "lives": "lives", "target_score": "target", "moves": "movesLeft", "levels": "levels",
    "speed": "speed", "grid": "grid", "level_time_s": "levelTimeLeft"}

#: what a verdict scores, and the ones QA's facts decide (the validator sets those, not the model)
DIMENSIONS: tuple[str, ...] = ("goal_fit", "runs", "controls", "rules", "visuals", "performance")
EXEC_DIMENSIONS: tuple[str, ...] = ("runs", "controls", "rules", "performance")

#: what `--fault` (and a preset's `fault`) may ask of the embedded studio: the Builder's broken games, and
#: "crash", the Builder itself failing (for the circuit breaker); here so a preset or a batch set-up is
#: checked without loading the embedded studio
BUILD_FAULTS: tuple[str, ...] = ("blank", "throws", "noinput", "wrongtimer", "syntax", "wronggenre", "wrongnumbers")
CRASH_FAULT = "crash"
FAULTS: tuple[str, ...] = (*BUILD_FAULTS, CRASH_FAULT)
