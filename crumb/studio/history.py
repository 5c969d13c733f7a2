"""The session over time, for the Studio: every round's scorecard, the game's diff between rounds, QA's
screenshots and filmstrip per round, and the game as a zip. Read-only, like the rest of what the Studio shows.

The rounds come from crumb/export/facts.py (the same pairing of build, QA, judge and audit that `crumb
export` and the session report use); the game of each round is artifacts/history/round-N for a round
a later build replaced and artifacts/game/ for the latest one.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from crumb.export import gamefiles
from crumb.export.archive import game_zip
from crumb.export.facts import Round, SessionFacts, slug
from crumb.store import paths
from crumb.studio.disk import cache, inside, sha256_file

MAX_DIFF_FILE = 512 * 1024  # a file bigger than this is named as changed, not diffed
MAX_DIFF_LINES = 4000  # per file: a longer diff is cut, saying so
MAX_FILES = 500


def facts(root: Path, session: str) -> SessionFacts:
    """The session's facts, gathered once per transcript change (GameFilesError for a damaged one)."""
    return cache.get("facts", paths.transcript_path(root, session), lambda: gamefiles.load(root, session))


def round_dir(root: Path, session: str, number: int, last: int) -> Path:
    """Where round `number`'s game is kept: the game in force for the latest round, else its history copy."""
    if number == last:
        return paths.game_dir(root, session)
    return paths.artifacts_dir(root, session) / "history" / f"round-{number}"


def _shots(root: Path, session: str, rounds: list[Round]) -> dict[int, list[dict[str, Any]]]:
    """Each round's screenshots as its QA run named them; a later QA run that wrote the same path replaced them."""
    sdir = paths.session_dir(root, session)
    named = {r.number: [str(s) for s in ((r.qa or {}).get("screenshots") or []) if isinstance(s, str)][:24]
             for r in rounds}
    out: dict[int, list[dict[str, Any]]] = {}
    for r in rounds:
        shots = []
        for rel in named[r.number]:
            later = next((n for n in sorted(named) if n > r.number and rel in named[n]), None)
            exists = inside(sdir, rel) is not None
            shots.append({"path": rel, "exists": exists and later is None, "replaced_by": later,
                          "missing": not exists})
        out[r.number] = shots
    return out


def _film(root: Path, session: str, qa: dict[str, Any]) -> dict[str, Any] | None:
    """A round's filmstrip as its QA run recorded it (artifacts/qa/round-K/), each file marked as on disk or not."""
    film = qa.get("filmstrip")
    if not isinstance(film, dict):
        return None
    sdir = paths.session_dir(root, session)
    frames = [{"path": str(f.get("path")), "t_ms": f.get("t_ms"), "after": f.get("after"),
               "exists": inside(sdir, str(f.get("path"))) is not None}
              for f in (film.get("frames") or [])[:48] if isinstance(f, dict) and isinstance(f.get("path"), str)]
    sheet = film.get("sheet") if isinstance(film.get("sheet"), str) else None
    return {"frames": frames, "sheet": sheet if sheet and inside(sdir, sheet) is not None else None,
            "inputs": [str(i) for i in film.get("inputs") or []][:16]}


def rounds(root: Path, session: str) -> list[dict[str, Any]]:
    """Every round with its verdict, scorecard (each score marked QA or model), QA facts, feedback and shots."""
    f = facts(root, session)
    shots = _shots(root, session, f.rounds)
    last = len(f.rounds)
    out = []
    for r in f.rounds:
        qa = r.qa or {}
        judge = r.judge or {}
        out.append({
            "round": r.number, "build": r.build_id, "ts": r.build_ts,
            "files": len(r.manifest.get("files") or []),
            "verdict": r.verdict, "total": r.total, "severity": (r.audit or judge).get("severity"),
            "judge_verdict": judge.get("verdict"), "judge_total": judge.get("total"),
            "scores": [{"dimension": s.dimension, "score": s.score, "note": s.note, "source": s.source,
                        "corrected": s.corrected or None} for s in r.scorecard()],
            "corrections": r.corrections(),
            "qa": None if r.qa is None else {
                "ok": qa.get("ok"), "error": qa.get("error"), "fps": qa.get("fps"),
                "facts": {k: qa.get(k) for k in ("loaded", "canvas_nonblank", "canvas_animates", "input_responds")
                          if k in qa},
                "probes": [{"id": p.get("id"), "ok": p.get("ok"), "detail": p.get("detail", "")}
                           for p in qa.get("probes") or [] if isinstance(p, dict)],
            },
            "feedback": (r.audit or {}).get("feedback") or judge.get("feedback") or "",
            "screenshots": shots.get(r.number, []),
            "filmstrip": _film(root, session, qa),
            "kept": round_dir(root, session, r.number, last).is_dir(),
        })
    return out


def _files(folder: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file() and not p.is_symlink():
                found[p.relative_to(folder).as_posix()] = p
                if len(found) >= MAX_FILES:
                    break
    return found


def _lines(path: Path | None) -> list[str] | None:
    """A file's lines for a diff; None for a binary or too big file."""
    if path is None:
        return []
    if path.stat().st_size > MAX_DIFF_FILE:
        return None
    raw = path.read_bytes()
    if b"\x00" in raw:
        return None
    return raw.decode("utf-8", "replace").splitlines(keepends=True)


def diff(root: Path, session: str, number: int) -> dict[str, Any]:
    """The game's files from round number-1 to round `number`: one unified diff per changed file."""
    f = facts(root, session)
    last = len(f.rounds)
    if not 2 <= number <= last:
        raise ValueError(f"round {number} has no earlier round to compare with: "
                         + (f"pick a round from 2 to {last}" if last >= 2 else "this session has one round or none"))
    before_dir, after_dir = round_dir(root, session, number - 1, last), round_dir(root, session, number, last)
    missing = [str(d.relative_to(paths.session_dir(root, session))) for d in (before_dir, after_dir) if not d.is_dir()]
    if missing:
        return {"round": number, "from": number - 1, "files": [], "unchanged": 0,
                "missing": missing, "note": f"{', '.join(missing)} no longer on disk: nothing to compare"}
    before, after = _files(before_dir), _files(after_dir)
    files: list[dict[str, Any]] = []
    unchanged = 0
    for rel in sorted(set(before) | set(after)):
        a, b = before.get(rel), after.get(rel)
        if a is not None and b is not None and sha256_file(a) == sha256_file(b):
            unchanged += 1
            continue
        status = "added" if a is None else "removed" if b is None else "changed"
        old, new = _lines(a), _lines(b)
        if old is None or new is None:
            files.append({"path": rel, "status": status, "diff": None, "note": "binary or large file: not diffed"})
            continue
        lines = list(difflib.unified_diff(old, new, f"round-{number - 1}/{rel}", f"round-{number}/{rel}", n=3))
        cut = len(lines) > MAX_DIFF_LINES
        text = "".join(ln if ln.endswith("\n") else ln + "\n" for ln in lines[:MAX_DIFF_LINES])
        added = sum(1 for ln in lines if ln.startswith("+") and not ln.startswith("+++"))
        removed = sum(1 for ln in lines if ln.startswith("-") and not ln.startswith("---"))
        files.append({"path": rel, "status": status, "diff": text, "added": added, "removed": removed,
                      "note": f"cut at {MAX_DIFF_LINES} lines" if cut else None})
    return {"round": number, "from": number - 1, "files": files, "unchanged": unchanged, "missing": []}


def download(root: Path, session: str) -> tuple[str, bytes]:
    """The game as `crumb export --zip` writes it (GameFilesError when there is no game)."""
    f = facts(root, session)
    files, entry = gamefiles.game_files(root, f)
    name = slug(f.title, f.session)
    return f"{name}.zip", game_zip(f, files, entry, gamefiles.spec_text(root, f), name)
