"""What the Studio shows, read from the session folder: summary, scorecard, artifacts, logs.

Everything is derived from transcript.jsonl and the files beside it; nothing here writes. Results
are cached per file by (size, mtime) so a page refresh or fifty tabs cost one replay, not fifty.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from crumb.store import paths
from crumb.store.follow import TranscriptReplaced
from crumb.store.paths import SESSION_ID, artifacts_dir, list_sessions, session_dir, transcript_path
from crumb.studio import history
from crumb.studio.disk import inside, sha256_file

T = TypeVar("T")

MAX_TEXT = 256 * 1024
MAX_ARTIFACTS = 500
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
               ".gif": "image/gif"}


def valid_session(session: str) -> bool:
    return bool(SESSION_ID.match(session))


# ---------------------------------------------------------------- summary and facts


class _Fold:
    """The reducer's state and the latest event of each kind, folded incrementally over new lines.

    A growing transcript costs only its new lines per refresh, not a full replay each time.
    """

    def __init__(self, path: Path) -> None:
        from crumb.reducer.reduce import initial_state  # the reducer package is optional at import time
        from crumb.store.follow import Follower

        self.path = path
        self.follower = Follower(path, chain="note")  # the seal badge: checked as lines are folded
        self.state = initial_state(path.parent.name)
        self.latest: dict[str, dict[str, Any]] = {}
        self.judges: dict[str, dict[str, Any]] = {}
        self.logs: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def refresh(self) -> _Fold:
        from crumb.reducer.reduce import apply

        with self.lock:
            for ev in self.follower.read_new():  # TranscriptReplaced: _fold starts a new fold
                apply(self.state, ev)
                self._note(ev)
            return self

    def _note(self, ev: dict[str, Any]) -> None:
        kind = ev["kind"]
        self.latest[kind] = ev
        raw = ev.get("data")
        data: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if kind == "spec.update":
            self.latest["spec"] = ev
        elif kind == "judge.score":
            self.judges[ev["id"]] = ev
            del_keys = list(self.judges)[:-20]
            for k in del_keys:
                del self.judges[k]
        elif kind.startswith("effect.") and data.get("log"):
            self.logs.append({"path": data["log"], "actor": data.get("actor"), "kind": data.get("kind"),
                              "attempt": data.get("attempt", 1), "state": kind.split(".", 1)[1], "seq": ev["seq"]})
            del self.logs[:-200]

    def facts(self) -> dict[str, Any]:
        audit = self.latest.get("audit")
        judge = self.judges.get(audit["data"].get("judge")) if audit else None
        return {"latest": dict(self.latest), "judge": judge or self.latest.get("judge.score"), "logs": list(self.logs)}


_folds: dict[Path, _Fold] = {}
_folds_lock = threading.Lock()


def _fold(root: Path, session: str) -> _Fold:
    path = transcript_path(root, session)
    with _folds_lock:
        fold = _folds.get(path)
        if fold is None:
            fold = _folds[path] = _Fold(path)
    try:
        return fold.refresh()
    except TranscriptReplaced:  # not an append: fold it again from the start
        with _folds_lock:
            fold = _folds[path] = _Fold(path)
        return fold.refresh()


def seal(root: Path, session: str) -> dict[str, Any]:
    """The transcript's hash chain as the session page's badge shows it: sealed, unsealed, or broken at
    line N with what that suggests (`crumb verify` says the same, and checks the artifacts too)."""
    with _folds_lock:
        fold = _folds.get(transcript_path(root, session))
    if fold is None:
        fold = _fold(root, session)
    with fold.lock:  # not refreshed here: a damaged line stops the fold, and the chain has seen it
        chain = fold.follower.chain
        if chain is None:
            return {"status": "unknown", "line": None, "what": ""}
        broken = chain.doubt()
        if broken is not None:
            return {"status": "broken", "line": broken.line, "what": broken.message()}
        return {"status": chain.status, "line": None, "what": "", "sealed_from": chain.sealed_from}


def damaged(root: Path, session: str, err: Exception) -> str:
    """One line for a transcript the Studio cannot fold: the broken seal when the chain names it (a line
    removed or moved shows as a seq out of order too), else the reader's error."""
    try:
        s = seal(root, session)
    except Exception:
        s = {}
    if s.get("status") == "broken":
        return f"seal broken at line {s['line']}: {s['what']}"[:300]
    return str(err).splitlines()[0][:300]


def summary(root: Path, session: str) -> dict[str, Any]:
    """The reducer's view of a session (phase, round, verdicts, budgets...), as replay computes it."""
    fold = _fold(root, session)
    with fold.lock:
        return dict(fold.state.summary())


def session_facts(root: Path, session: str) -> dict[str, Any]:
    fold = _fold(root, session)
    with fold.lock:
        return fold.facts()


# ---------------------------------------------------------------- scorecard


_QA_FACTS = (("loaded", "page loaded"), ("hook", "test hook present"), ("canvas_nonblank", "canvas draws"),
             ("canvas_animates", "canvas animates"), ("input_responds", "input changes the game"),
             ("static_ok", "static checks"), ("exec_ok", "runs in the browser"))


def scorecard(facts: dict[str, Any]) -> dict[str, Any]:
    """QA facts, model scores and validator corrections side by side, each marked with its source."""
    latest = facts["latest"]
    spec = (latest.get("spec") or {}).get("data") or {}
    criteria = {c.get("id"): c.get("text", "") for c in spec.get("criteria", []) if isinstance(c, dict)}
    card: dict[str, Any] = {"qa": None, "model": None, "validator": None}
    qa_ev = latest.get("qa.result")
    if qa_ev:
        q = qa_ev["data"]
        card["qa"] = {
            "source": "qa", "seq": qa_ev["seq"], "ok": q.get("ok"), "error": q.get("error"),
            "facts": [{"name": label, "value": q.get(key)} for key, label in _QA_FACTS if key in q],
            "probes": [{"id": p.get("id"), "ok": p.get("ok"), "detail": p.get("detail", ""),
                        "text": criteria.get(p.get("id"), "")} for p in q.get("probes", [])],
            "fps": q.get("fps"), "errors": q.get("errors", [])[:20], "blocked": q.get("blocked", [])[:20],
            "findings": q.get("findings", [])[:20], "duration_ms": q.get("duration_ms"),
            "rechecked": q.get("rechecked"),
        }
    judge = facts.get("judge")
    if judge:
        j = judge["data"]
        card["model"] = {
            "source": "model", "seq": judge["seq"], "verdict": j.get("verdict"), "severity": j.get("severity"),
            "total": j.get("total"), "feedback": j.get("feedback", ""), "model": (judge.get("meta") or {}).get("model"),
            "scores": [{"dimension": k, "score": v.get("score"), "note": v.get("note", ""),
                        "evidence": v.get("evidence", [])} for k, v in (j.get("scores") or {}).items()],
        }
    audit = latest.get("audit")
    if audit:
        a = audit["data"]
        card["validator"] = {
            "source": "validator", "seq": audit["seq"], "verdict": a.get("verdict"), "severity": a.get("severity"),
            "total": a.get("total"), "feedback": a.get("feedback", ""), "corrections": a.get("corrections", []),
        }
    return card


# ---------------------------------------------------------------- files


def game_dir(root: Path, session: str, facts: dict[str, Any] | None = None) -> tuple[Path, str]:
    """The built game's folder and entry file, from the latest build's manifest."""
    facts = facts if facts is not None else session_facts(root, session)
    sdir = session_dir(root, session)
    build = facts["latest"].get("build")
    manifest = (build or {}).get("data", {}).get("manifest", {}) if build else {}
    entry = manifest.get("entry") or "index.html"
    folder = manifest.get("dir")
    candidates = [Path(folder) if Path(folder).is_absolute() else sdir / folder] if folder else []
    for p in [*candidates, paths.game_dir(root, session)]:  # the fallback is contained alike
        try:
            if p.resolve().is_relative_to(sdir.resolve()):
                return p, entry
        except OSError:
            pass
    return paths.artifacts_dir(root, session) / "game-outside-session", entry  # a link out of the session: nothing to serve


def artifacts(root: Path, session: str, facts: dict[str, Any]) -> list[dict[str, Any]]:
    """Every file under artifacts/ with its sha256 on disk, checked against the build manifest."""
    base = artifacts_dir(root, session)
    sdir = session_dir(root, session)
    build = facts["latest"].get("build")
    gdir, _ = game_dir(root, session, facts)
    recorded: dict[str, str] = {}
    if build:
        for f in build["data"].get("manifest", {}).get("files", []):
            try:
                rel = str((gdir / f["path"]).relative_to(sdir))
            except ValueError:
                rel = f["path"]
            recorded[rel] = f["sha256"]
    out: list[dict[str, Any]] = []
    if base.is_dir():
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                p = Path(dirpath) / name
                if p.is_symlink() or not p.is_file():
                    continue
                rel = str(p.relative_to(sdir))
                digest = sha256_file(p)
                want = recorded.pop(rel, None)
                out.append({"path": rel, "bytes": p.stat().st_size, "sha256": digest,
                            "manifest": None if want is None else want == digest})
                if len(out) >= MAX_ARTIFACTS:
                    return out
    out.extend({"path": rel, "bytes": None, "sha256": sha, "manifest": False, "missing": True}
               for rel, sha in recorded.items())
    return out


def screenshots(root: Path, session: str, facts: dict[str, Any]) -> list[str]:
    """Session-relative paths of QA screenshots, the latest QA run's first."""
    sdir = session_dir(root, session)
    seen: list[str] = []
    qa_ev = facts["latest"].get("qa.result")
    for shot in (qa_ev or {}).get("data", {}).get("screenshots", []):
        for cand in (shot, f"{paths.ARTIFACTS}/{shot}", f"{paths.ARTIFACTS}/qa/{shot}"):
            p = inside(sdir, cand)
            if p is not None:
                rel = str(p.relative_to(sdir.resolve()))
                if rel not in seen:
                    seen.append(rel)
                break
    qa_dir = paths.qa_dir(root, session)
    if qa_dir.is_dir():
        for p in sorted(qa_dir.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True):
            rel = str(p.relative_to(sdir))
            if p.suffix.lower() in IMAGE_TYPES and rel not in seen and not p.is_symlink():
                seen.append(rel)
    return seen[:24]


def logs(root: Path, session: str, facts: dict[str, Any]) -> list[dict[str, Any]]:
    """Per-run logs: those the transcript names (with actor and attempt) plus any other under logs/."""
    sdir = session_dir(root, session)
    out: dict[str, dict[str, Any]] = {}
    for entry in facts["logs"]:
        out[entry["path"]] = dict(entry)
    ldir = paths.logs_dir(root, session)
    if ldir.is_dir():
        for p in sorted(ldir.rglob("*")):
            if p.is_file() and not p.is_symlink():
                out.setdefault(str(p.relative_to(sdir)), {"path": str(p.relative_to(sdir))})
    result = []
    for rel, entry in out.items():
        found = inside(sdir, rel)
        entry["bytes"] = found.stat().st_size if found else None
        result.append(entry)
    return result


def read_text(path: Path, limit: int = MAX_TEXT) -> tuple[str, bool]:
    """A text file's last `limit` bytes (logs grow at the end), decoded leniently; True if cut."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        if size > limit:
            f.seek(size - limit)
        data = f.read(limit)
    return data.decode("utf-8", "replace"), size > limit


# ---------------------------------------------------------------- pages


DETAIL_TTL_S = 0.5
_details: dict[tuple[Path, str], tuple[int, float, bytes]] = {}


def session_detail_json(root: Path, session: str) -> bytes:
    """session_detail as JSON bytes, for a page's first paint and API users (open pages get panel
    updates on their stream instead). Tabs opened together share one computation and one encoding
    per transcript position (files beside it are re-checked at most every DETAIL_TTL_S).
    """
    seq = _fold(root, session).follower.seq
    key = (root, session)
    hit = _details.get(key)
    now = time.monotonic()
    if hit is not None and hit[0] == seq and now - hit[1] < DETAIL_TTL_S:
        return hit[2]
    value = msgspec.json.encode({"session": session, "pending": False, **session_detail(root, session)})
    if len(_details) > 256:
        _details.clear()
    _details[key] = (seq, now, value)
    return value


VOLATILE = ("last_seq", "events", "state_hash")  # change with every event; no panel shows them


def session_panels(root: Path, session: str) -> dict[str, Any]:
    """session_detail as the pushed panels: {} before the transcript exists, `error` for a damaged one."""
    if not transcript_path(root, session).is_file():
        return {}
    try:
        detail = session_detail(root, session)
    except Exception as err:  # a damaged transcript: say which line, keep the panels shown so far
        return {"error": damaged(root, session, err)}
    detail["summary"] = {k: v for k, v in detail["summary"].items() if k not in VOLATILE}
    return {**detail, "error": None}


def session_detail(root: Path, session: str) -> dict[str, Any]:
    """Everything the session page shows apart from the timeline (which streams)."""
    facts = session_facts(root, session)
    sdir = session_dir(root, session)
    spec_md = inside(sdir, paths.SPEC_REL)
    spec_ev = facts["latest"].get("spec")
    gdir, entry = game_dir(root, session, facts)
    game = inside(gdir, entry) if gdir.is_dir() else None
    build = facts["latest"].get("build")
    return {
        "summary": summary(root, session),
        "spec_md": read_text(spec_md)[0] if spec_md else None,
        "spec": spec_ev["data"] if spec_ev else None,
        "scorecard": scorecard(facts),
        "artifacts": artifacts(root, session, facts),
        "screenshots": screenshots(root, session, facts),
        "logs": logs(root, session, facts),
        "game": {"entry": entry, "build": build["id"] if build else None} if game else None,
        "rounds": _rounds(root, session, facts),
        "seal": seal(root, session),
    }


_ROUND_KINDS = ("build", "qa.result", "judge.score", "audit", "done")
_rounds_seen: dict[tuple[Path, str], tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}


def _rounds(root: Path, session: str, facts: dict[str, Any]) -> list[dict[str, Any]]:
    """The rounds panel, gathered again (a read of the whole transcript) only when an event that makes
    or judges a round arrived: a busy session's progress lines cost the panels nothing here."""
    key = tuple((facts["latest"].get(kind) or {}).get("id") for kind in _ROUND_KINDS)
    hit = _rounds_seen.get((root, session))
    if hit is not None and hit[0] == key:
        return hit[1]
    value = history.rounds(root, session)
    if len(_rounds_seen) > 256:
        _rounds_seen.clear()
    _rounds_seen[(root, session)] = (key, value)
    return value


def session_row(root: Path, session: str) -> dict[str, Any]:
    """One line of the session list: status, verdict, genre and a thumbnail."""
    fold = _fold(root, session)
    with fold.lock:
        s = dict(fold.state.summary())
        cost, tokens = fold.state.cost_usd, fold.state.tokens
        started, last_ts = fold.state.started_at, fold.state.last_ts
    facts = session_facts(root, session)
    shots = screenshots(root, session, facts)
    verdicts = s.get("verdicts") or []
    return {
        "cost_usd": round(cost, 6), "tokens": tokens, "started": started, "last_ts": last_ts,
        "duration_s": _seconds(started, last_ts),
        # harness:model per role: who played it, else who is bound to play it
        "roles": {role: (s.get("played_text") or {}).get(role) or _binding_text(b)
                  for role, b in (s.get("bindings") or {}).items() if b or (s.get("played_text") or {}).get(role)},
        "session": session, "title": s.get("title"), "pitch": s.get("pitch"), "genre": s.get("genre"),
        "phase": s.get("phase"), "round": s.get("round"), "done": s.get("done"),
        "verdict": verdicts[-1].get("verdict") if verdicts else None,
        "waiting_for": s.get("waiting_for"), "thumbnail": shots[0] if shots else None,
        "last_seq": s.get("last_seq"),
        # who played: never a plain PASS when a fallback adapter produced a role's result
        "fallback": s.get("fallback", False), "played_note": s.get("played_note", ""),
        "played": s.get("played") or {}, "played_text": s.get("played_text") or {},
    }


def _seconds(start: str | None, end: str | None) -> float | None:
    """Seconds between two event timestamps (the session's wall time as its transcript says it)."""
    from datetime import datetime

    try:
        a = datetime.fromisoformat(str(start).replace("Z", "+00:00"))
        b = datetime.fromisoformat(str(end).replace("Z", "+00:00"))
    except ValueError:
        return None
    return round(max(0.0, (b - a).total_seconds()), 1)


def _binding_text(binding: Any) -> str:
    if isinstance(binding, dict):
        return ":".join(str(binding[k]) for k in ("harness", "model") if binding.get(k))
    return str(binding or "")


SESSION_PAGE = 100
MAX_SESSION_PAGE = 1000
FILTERS = ("q", "verdict", "phase", "genre", "harness")


def matches(row: dict[str, Any], filters: dict[str, str]) -> bool:
    """A session row against the list's filters: text (pitch, title, id), verdict or phase, genre, harness."""
    q = filters.get("q", "").strip().lower()
    if q and not any(q in str(row.get(k) or "").lower() for k in ("pitch", "title", "session", "genre")):
        return False
    verdict = filters.get("verdict", "").strip().upper()
    if verdict and (row.get("verdict") or "NONE") != verdict:
        return False
    phase = filters.get("phase", "").strip().lower()
    if phase and (row.get("phase") or "") != phase:
        return False
    genre = filters.get("genre", "").strip().lower()
    if genre and (row.get("genre") or "").lower() != genre:
        return False
    harness = filters.get("harness", "").strip().lower()
    if harness and not any(str(t).lower().split(":", 1)[0].split(" ", 1)[0] == harness
                           for t in (row.get("roles") or {}).values()):
        return False
    return True


def session_page(root: Path, *, limit: int = SESSION_PAGE, before: str | None = None,
                 filters: dict[str, str] | None = None) -> dict[str, Any]:
    """One page of the session list, newest first: the `limit` sessions older than `before` (a session id).

    The cursor is an id, not an offset, so a session started while someone pages never shifts the
    pages they have yet to load; `next` is the cursor of the following page (None on the last one).
    With filters, the page holds the next `limit` sessions that match (`total` still counts them all).
    """
    ids = list_sessions(root)
    older = [sid for sid in ids if before is None or sid < before]
    wanted = {k: v for k, v in (filters or {}).items() if v and v.strip()}
    if not wanted:
        page = older[:limit]
        return {"sessions": session_rows(root, page), "total": len(ids),
                "next": page[-1] if len(older) > len(page) else None}
    rows: list[dict[str, Any]] = []
    last = None
    for sid in older:
        row = session_rows(root, [sid])[0]
        last = sid
        if matches(row, wanted):
            rows.append(row)
            if len(rows) >= limit:
                break
    more = last is not None and older.index(last) < len(older) - 1
    return {"sessions": rows, "total": len(ids), "next": last if more else None, "filtered": True}


def session_rows(root: Path, ids: list[str]) -> list[dict[str, Any]]:
    rows = []
    for sid in ids:
        try:
            rows.append(session_row(root, sid))
        except Exception as err:  # one damaged transcript must not hide the others
            rows.append({"session": sid, "phase": "damaged", "error": str(err).splitlines()[0][:300]})
    return rows
