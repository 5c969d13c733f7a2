"""The only things the Studio changes: it drops inbox files (pitch, steer) and can start a daemon.

Like every other tool it never touches a transcript; the daemon reads these files and records them.
Inputs are checked here so a bad request gets one line naming the problem and the fix.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from ulid import ULID

from crumb.actors.harness.bindings import ROLES
from crumb.daemon.spawn import START_TIMEOUT_S, DaemonFailed, daemon_log, start_daemon  # noqa: F401  (the Studio's API)
from crumb.store.paths import inbox_dir, session_dir, session_inbox

MAX_TEXT = 65_536
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_BINDING = re.compile(r"^[a-z][a-z0-9_-]{0,31}(:[^\x00-\x1f\x7f#]{1,200})?$")  # one line, no comment


class BadRequest(ValueError):
    """A request the Studio will not act on; str() is the one-line reason and fix."""


class Choices(BaseModel):
    """Who plays: what the pitch form and the fork form both ask (a preset, role bindings, fallback)."""

    model_config = ConfigDict(extra="forbid")

    preset: str | None = Field(None, description="None: what `crumb pitch` without --preset gets (crumb.toml, ...)")
    bindings: dict[str, str] = Field(default_factory=dict, description="role -> harness[:model]")
    allow_fallback: bool = Field(False, description="start even when a bound harness cannot run here (--allow-fallback)")

    @field_validator("preset")
    @classmethod
    def _preset(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None
        v = v.strip()
        if not _NAME.match(v):
            raise ValueError(f"preset {v!r} is not a preset name; pick one from the list")
        return v

    @field_validator("bindings")
    @classmethod
    def _bindings(cls, v: dict[str, str]) -> dict[str, str]:
        out = {}
        for role, binding in v.items():
            binding = binding.strip()
            if not binding:
                continue
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}; roles are {', '.join(ROLES)}")
            if not _BINDING.match(binding):
                raise ValueError(f"binding {binding!r} for {role} must look like harness or harness:model")
            out[role] = binding
        return out


class PitchForm(Choices):
    """The Studio's pitch form (the body of POST /api/pitch); the daemon reads the file it becomes as a PitchFile."""

    pitch: str = Field(description="one line (or a few) describing the game")

    @field_validator("pitch")
    @classmethod
    def _pitch(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("the pitch is empty; describe the game in a sentence")
        if len(v.encode()) > MAX_TEXT:
            raise ValueError(f"the pitch is longer than {MAX_TEXT} bytes; shorten it")
        return v


class ForkForm(Choices):
    """Fork here (POST /api/sessions/<id>/fork): the event's seq, and who plays from there on."""

    at: int = Field(ge=1, description="the seq of the last line the fork keeps")


class SteerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("the message is empty; type text, a /command or @actor text")
        if len(v.encode()) > MAX_TEXT:
            raise ValueError(f"the message is longer than {MAX_TEXT} bytes; shorten it")
        return v


def check_choices(root: Path, req: Choices) -> None:
    """Refuse a preset or harness the daemon would not find, or a bound harness that cannot run here
    (unless fallback is allowed), before anything is written: the daemon would only fall back to the
    embedded studio, and the person would learn it from the timeline."""
    from crumb.actors.harness.preflight import STUDIO_HINT
    from crumb.daemon.pitch_file import check_remote_choices

    try:  # the checks `crumb pitch --preset --role [--allow-fallback]` makes, and no unlisted command
        check_remote_choices(root, preset=req.preset, bindings=req.bindings, allow_fallback=req.allow_fallback,
                             where="the Studio", hint=STUDIO_HINT, flag="the pitch form")
    except ValueError as err:
        raise BadRequest(str(err)) from None


def pitch(root: Path, req: PitchForm) -> dict[str, Any]:
    """Drop a pitch in the root inbox, written as `crumb pitch` writes it; the session id is chosen here
    so the page can open it at once."""
    from crumb.daemon.files import drop_inbox_file
    from crumb.daemon.pitch_file import pitch_text

    check_choices(root, req)
    session = str(ULID())
    text = pitch_text(req.pitch, session=session, preset=req.preset, seed=None, fault=None,
                      bindings=dict(sorted(req.bindings.items())), fallback="allow" if req.allow_fallback else None)
    path = drop_inbox_file(inbox_dir(root), text, stem="studio-pitch")
    return {"session": session, "file": path.name}


def fork(root: Path, session: str, req: ForkForm) -> dict[str, Any]:
    """Drop a fork file in the root inbox, written as `crumb fork --at SEQ` writes it: the daemon makes
    the new session from the original's lines 1..SEQ (crumb/daemon/fork.py)."""
    from crumb.daemon.files import drop_inbox_file
    from crumb.daemon.fork import ForkProblem, cut, game_problem
    from crumb.daemon.pitch_file import pitch_text

    check_choices(root, req)
    try:
        c = cut(root, session, str(req.at))
        problem = game_problem(root, c)
    except ForkProblem as err:
        raise BadRequest(str(err)) from None
    if problem:
        raise BadRequest(problem)
    new = str(ULID())
    text = pitch_text(f"fork of {session} at #{c.seq}", session=new, preset=req.preset, seed=None, fault=None,
                      bindings=dict(sorted(req.bindings.items())), fallback="allow" if req.allow_fallback else None,
                      fork=f"{session}@{c.seq}")
    path = drop_inbox_file(inbox_dir(root), text, stem="studio-fork")
    return {"session": new, "file": path.name, "from": session, "at": c.seq}


def not_started(session: str) -> str:
    """What the Studio says of a session the daemon has not taken yet (its pitch still in the inbox)."""
    return f"session {session} has not started yet; wait until the daemon has taken the pitch"


def steer(root: Path, session: str, req: SteerRequest) -> dict[str, Any]:
    """Drop a steering message (text, /command or @actor text) in the session's inbox."""
    from crumb.daemon.files import drop_inbox_file

    if not session_dir(root, session).is_dir():
        raise BadRequest(not_started(session))
    path = drop_inbox_file(session_inbox(root, session), req.text + "\n", stem="studio")
    return {"session": session, "file": path.name}


class SpecEdit(BaseModel):
    """The spec editor's save (POST /api/sessions/<id>/spec): the whole artifacts/spec.md text."""

    model_config = ConfigDict(extra="forbid")

    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("the spec is empty; edit the values and keep the headings")
        if len(v.encode()) > MAX_TEXT:
            raise ValueError(f"the spec is longer than {MAX_TEXT} bytes; shorten it")
        return v if v.endswith("\n") else v + "\n"


def edit_spec(root: Path, session: str, req: SpecEdit) -> dict[str, Any]:
    """Drop a person's spec edit in the session's inbox as <stem>.spec.md: the daemon reads it as it reads
    a save of artifacts/spec.md (spec.update by the user, or an error naming the line) and rewrites spec.md."""
    from crumb.daemon.files import SPEC_SUFFIX, drop_inbox_file

    if not session_dir(root, session).is_dir():
        raise BadRequest(not_started(session))
    path = drop_inbox_file(session_inbox(root, session), req.text, stem="studio-spec", suffix=SPEC_SUFFIX)
    return {"session": session, "file": path.name}


def presets(root: Path) -> list[str]:
    """Preset names a new session may use (packaged ones and root/presets/*.toml), "local" first."""
    from crumb.actors.harness.bindings import preset_names

    names = set(preset_names(root)) | {"local"}
    return sorted((n for n in names if _NAME.match(n)), key=lambda n: (n != "local", n))


def configured_preset(root: Path) -> str | None:
    """The preset crumb.toml names (what a pitch without one gets), or None (the host CLI or local)."""
    from crumb.actors.harness.bindings import chosen_preset, load_config

    try:
        return chosen_preset(root, None, load_config(root))[0]
    except ValueError:  # a broken crumb.toml: the daemon says so when it starts the session
        return None


def harnesses() -> list[str]:
    from crumb.actors.harness.registry import HARNESSES as known

    return list(known)


def daemon_state(root: Path) -> dict[str, Any]:
    try:
        from crumb.daemon.lock import daemon_status
    except ImportError:
        return {"running": False, "pid": None, "available": False}
    return {**daemon_status(root), "available": True}


