"""What the Studio shows, read from the session folder: summary, scorecard, artifacts, logs.

Everything is derived from transcript.jsonl and the files beside it; nothing here writes. Results
are cached per file by (size, mtime) so a page refresh or fifty tabs cost one replay, not fifty.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from crumb.dispatcher import manifest
from crumb.store import paths
from crumb.store.follow import TranscriptReplaced
from crumb.store.paths import SESSION_ID, artifacts_dir, list_sessions, session_dir, transcript_path

T = TypeVar("T")

MAX_TEXT = 256 * 1024
MAX_ARTIFACTS = 500
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
               ".gif": "image/gif"}


class _Cache:
    """Values keyed by a file's (size, mtime_ns): recomputed only when the file changed."""

    def __init__(self, limit: int = 512) -> None:
        self._data: dict[tuple[str, Path], tuple[tuple[int, int], Any]] = {}
        self._lock = threading.Lock()
        self.limit = limit

    def get(self, name: str, path: Path, compute: Callable[[], T]) -> T:
        try:
            st = path.stat()
            stamp = (st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            stamp = (-1, -1)
        key = (name, path)
        with self._lock:
            hit = self._data.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = compute()
        with self._lock:
            if len(self._data) >= self.limit:
                self._data.pop(next(iter(self._data)))
            self._data[key] = (stamp, value)
        return value


_cache = _Cache()


def valid_session(session: str) -> bool:
    return bool(SESSION_ID.match(session))


def inside(base: Path, rel: str) -> Path | None:
    """`base/rel` if it exists as a regular file inside `base` (symlinks resolved), else None."""
    if not rel or "\x00" in rel or rel.startswith(("/", "\\")):
        return None
    try:
        root = base.resolve(strict=True)
        target = (root / rel).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(root) or not target.is_file():
        return None
    return target


def sha256_file(path: Path) -> str:
    """The dispatcher's measurement, cached by the file's stamp (the Studio asks on every refresh)."""
    return _cache.get("sha", path, lambda: manifest.sha256_file(path))


# ---------------------------------------------------------------- summary and facts


class _Fold:
    """The reducer's state and the latest event of each kind, folded incrementally over new lines.

    A growing transcript costs only its new lines per refresh, not a full replay each time.
    """

    def __init__(self, path: Path) -> None:
        from crumb.reducer.reduce import initial_state  # the reducer package is optional at import time
        from crumb.store.follow import Follower

        self.path = path
        self.follower = Follower(path)
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
        return {"error": str(err).splitlines()[0][:300]}
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
    }


def session_row(root: Path, session: str) -> dict[str, Any]:
    """One line of the session list: status, verdict, genre and a thumbnail."""
    s = summary(root, session)
    facts = session_facts(root, session)
    shots = screenshots(root, session, facts)
    verdicts = s.get("verdicts") or []
    return {
        "session": session, "title": s.get("title"), "pitch": s.get("pitch"), "genre": s.get("genre"),
        "phase": s.get("phase"), "round": s.get("round"), "done": s.get("done"),
        "verdict": verdicts[-1].get("verdict") if verdicts else None,
        "waiting_for": s.get("waiting_for"), "thumbnail": shots[0] if shots else None,
        "last_seq": s.get("last_seq"),
        # who played: never a plain PASS when a fallback adapter produced a role's result
        "fallback": s.get("fallback", False), "played_note": s.get("played_note", ""),
        "played": s.get("played") or {}, "played_text": s.get("played_text") or {},
    }


SESSION_PAGE = 100
MAX_SESSION_PAGE = 1000


def session_page(root: Path, *, limit: int = SESSION_PAGE, before: str | None = None) -> dict[str, Any]:
    """One page of the session list, newest first: the `limit` sessions older than `before` (a session id).

    The cursor is an id, not an offset, so a session started while someone pages never shifts the
    pages they have yet to load; `next` is the cursor of the following page (None on the last one).
    """
    ids = list_sessions(root)
    older = [sid for sid in ids if before is None or sid < before]
    page = older[:limit]
    return {"sessions": session_rows(root, page), "total": len(ids),
            "next": page[-1] if len(older) > len(page) else None}


def session_rows(root: Path, ids: list[str]) -> list[dict[str, Any]]:
    rows = []
    for sid in ids:
        try:
            rows.append(session_row(root, sid))
        except Exception as err:  # one damaged transcript must not hide the others
            rows.append({"session": sid, "phase": "damaged", "error": str(err).splitlines()[0][:300]})
    return rows
