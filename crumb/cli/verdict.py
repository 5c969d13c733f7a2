"""How a waited-on session ended, said to a person and to a script: the summary lines, the `--json`
object and the exit code of `crumb run`, `crumb wait` and `crumb pitch --wait`.

A PASS earned by a fallback adapter is not the bound harness's PASS, and a session that waits for a
person is not finished: each has its own exit code, so a script never reads either as a plain 0.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from crumb.protocol.names import ROLES
from crumb.reducer.played import fell_back, label
from crumb.reducer.state import SessionState, VerdictRow
from crumb.store import paths
from crumb.terminal import safe

EXIT_PASS = 0  # PASS (or approved), every role played by the harness it was bound to
EXIT_NOT_PASSED = 1  # done otherwise: FAIL, budget, circuit_open, cancelled, error
EXIT_TIMEOUT = 2  # not done in time (click's usage errors are 2 as well)
EXIT_WAITING = 3  # waits for a person: a PARTIAL verdict to approve or veto
EXIT_FALLBACK = 4  # PASS (or approved), but some role's result came from a fallback adapter

PASSED = ("pass", "approved")


def waits_for_person(state: SessionState) -> bool:
    """A PARTIAL verdict holds the session until a person approves or vetoes it."""
    return state.done is None and state.waiting_for == "approval"


def settled(state: SessionState) -> bool:
    """Nothing more will happen without a person: done, or waiting for one."""
    return state.done is not None or waits_for_person(state)


def exit_code(state: SessionState) -> int:
    if state.done is None:
        return EXIT_WAITING if waits_for_person(state) else EXIT_TIMEOUT
    if state.done.get("reason") in PASSED:
        return EXIT_FALLBACK if fell_back(state.played) else EXIT_PASS
    return EXIT_NOT_PASSED


def game_path(root: Path, session: str) -> Path:
    return paths.game_dir(root, session) / "index.html"


def next_commands(root: Path, session: str) -> list[str]:
    """The two commands that take a waiting session on, as a person would type them here."""
    where = "" if root == Path.cwd().resolve() else f"--root {shlex.quote(str(root))} "
    return [f"crumb {where}approve {session}", f'crumb {where}veto {session} "why"']


def cast_line(state: SessionState) -> str:
    """`planner=local builder=local (fallback; bound claude:sonnet) verifier=local`: who played each role."""
    parts = []
    for role in ROLES:
        p = state.played.get(role)
        if p is None:
            continue
        who = f"{role}={label(p.get('harness'), p.get('model'))}"
        if p.get("fallback"):
            who += f" (fallback; bound {p.get('bound')})"
        elif p.get("origin") == "user":
            who += " (a person's /swap)"
        parts.append(who)
    return " ".join(parts)


def last_verdict(state: SessionState) -> VerdictRow | None:
    """The verifier's latest verdict; None before its first."""
    return state.verdicts[-1] if state.verdicts else None


def describe(root: Path, state: SessionState) -> str:
    """The lines `crumb run`, `crumb wait` and `crumb pitch --wait` print when a session is settled."""
    done = state.done
    game = game_path(root, state.session)
    if done is not None:
        mark = ", fallback" if fell_back(state.played) else ""
        lines = [safe(f"{state.session}: done ({done.get('reason')}{mark}) {done.get('detail', '')}".rstrip())]
    else:  # the reason is a verifier's words: each line shown, never obeyed (crumb.terminal)
        v = last_verdict(state)
        verdict, at, total = (v.get("verdict", "PARTIAL"), v.get("round", state.round), v.get("total")) if v \
            else ("PARTIAL", state.round, None)
        reason = (state.feedback or "the verifier gave no reason").split("\n")
        lines = [f"{state.session}: waiting for a person — {verdict} at round {at}"
                 f" (total {total}): {safe(reason[0])}", *(safe(r) for r in reason[1:])]
    if state.played:
        lines.append(f"  played: {cast_line(state)}")
    if waits_for_person(state):
        approve, veto = next_commands(root, state.session)
        lines += [f"  approve: {approve}", f"  veto:    {veto}"]
    lines.append(f"  game: {game}")
    return "\n".join(lines)


def outcome(root: Path, state: SessionState) -> dict[str, Any]:
    """Where a waited-on session ended up, as `--json` prints it: done is null while it still runs (or
    waits for a person), game is null until a game exists, exit is the command's exit status."""
    done = state.done
    verdicts = [v.get("verdict") for v in state.verdicts if v.get("verdict")]
    game = game_path(root, state.session)
    waiting = waits_for_person(state)
    return {
        "session": state.session,
        "phase": state.phase,
        "done": done.get("reason") if done is not None else None,
        "detail": done.get("detail") if done is not None else None,
        "verdict": (done.get("verdict") if done is not None else None) or (verdicts[-1] if verdicts else None),
        "round": state.round,
        "game": str(game) if game.is_file() else None,
        "played": {role: dict(p) for role, p in state.played.items()},
        "fallback": fell_back(state.played),
        "fallbacks": [dict(f) for f in state.fallbacks],
        "waiting_for": state.waiting_for if waiting else None,
        "feedback": state.feedback if waiting else None,
        "next": next_commands(root, state.session) if waiting else [],
        "exit": exit_code(state),
    }
