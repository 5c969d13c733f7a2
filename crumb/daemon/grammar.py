"""What an inbox file says: a pitch (with optional front matter) or steering lines. Pure functions.

Steering grammar, one command per line:

    /approve                      /veto [reason]             /cancel [reason]
    /pause [@actor]               /resume [@actor]           /goto actor
    /swap actor=harness[:model]   /append [@actor] text      /note text
    /redo [actor]                 /reset-circuit actor|all   /budget name=value
    /status                       /release name
    @actor text                   a message for one role
    any other text                a message for the session (consecutive lines are one message)

Text after /veto, /append, /note and @actor continues on the following plain lines. `/release v2` asks
the daemon to record the version `crumb release` copied to versions/v2/: the line names it, and the
daemon reads and hashes the facts of the `release` event there itself (MEASURED). Inside a
``` fence every line is plain text. A mistake becomes an "error" item, never silence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from crumb.protocol.names import ACTORS, ROLES
from crumb.settings import Budgets, setting_names

__all__ = ["COMMANDS", "FRONT_MATTER_KEYS", "MEASURED", "PitchFile", "front_matter_value", "parse_pitch", "parse_steering"]

Item = tuple[str, dict[str, Any], int]

#: binding keys: one role, or `all` for every role not named on its own (as in crumb.toml's [roles])
BINDING_KEYS: tuple[str, ...] = (*ROLES, "all")
FRONT_MATTER_KEYS: tuple[str, ...] = ("session", "preset", "seed", "fault", "fallback", "fork", *BINDING_KEYS)
#: `fallback: allow` starts a pitch whose bound harness cannot run here (crumb/actors/harness/preflight.py)
FALLBACK_VALUES: tuple[str, ...] = ("allow", "refuse")
_ACTORS: tuple[str, ...] = ACTORS
_SESSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


# ---------------------------------------------------------------- pitch


class PitchFile(BaseModel):
    """A pitch file, understood: the pitch text and the choices its front matter made."""

    model_config = ConfigDict(extra="forbid")

    pitch: str = Field(min_length=1)
    session: str | None = None
    preset: str | None = None
    seed: int | None = None
    fault: str | None = None
    fallback: str | None = Field(None, description="allow | refuse; None: the setting harness.fallback decides")
    bindings: dict[str, str] = Field(default_factory=dict, description="role (or all) → 'harness[:model]'")
    fork: str | None = Field(None, description="ORIGINAL@AT: start as a fork of that session (crumb/daemon/fork.py)")


def _unquote(value: str) -> str:
    """A YAML-ish scalar: 'quoted' or "quoted", or bare with an optional trailing ' # comment'."""
    value = value.strip()
    if value[:1] in ("'", '"'):
        closing = value.find(value[0], 1)
        if closing > 0 and (not value[closing + 1 :].strip() or value[closing + 1 :].strip().startswith("#")):
            return value[1:closing]
    if " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    return value


def front_matter_value(value: str) -> str:
    """`value` written so parse_pitch reads it back unchanged (quoted when it holds ' #' or starts with a
    quote); ValueError for what one front matter line cannot carry (a line break, a control character)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value) or value != value.strip():
        raise ValueError(f"{value[:60]!r} cannot go on one front matter line: drop line breaks, tabs and outer spaces")
    if _unquote(value) == value:
        return value
    for quote in ("'", '"'):
        if quote not in value:
            return f"{quote}{value}{quote}"
    raise ValueError(f"{value[:60]!r} holds both quote characters and ' #' or a leading quote: drop one of them")


def _odd(ch: str) -> bool:
    """A character no binding may hold: a control character, or whitespace other than the plain space
    (a tab would split a command's arguments where the person saw one word)."""
    return ch != " " and (ch.isspace() or not ch.isprintable())


def _binding_value(key: str, value: str, no: int) -> str:
    """'harness[:model]'; only a command (`command:./tool --fast`) may hold spaces, its arguments."""
    harness = value.partition(":")[0]
    spaced = any(ch.isspace() for ch in harness) or (harness.lower() != "command" and any(ch.isspace() for ch in value)) \
        or any(_odd(ch) for ch in value)
    if not harness or spaced:
        raise ValueError(
            f"{key} binding {value[:40]!r} on line {no + 1} is not 'harness[:model]': write e.g. '{key}: claude:sonnet'"
            " (only a command takes spaces: 'command:./my-agent --fast')"
        )
    return value


def parse_pitch(text: str) -> PitchFile:
    """Split optional front matter (between two '---' lines at the top) from the pitch.

    Raises ValueError with one line naming the problem and the fix.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    fields: dict[str, Any] = {}
    bindings: dict[str, str] = {}
    body_from = start
    if start < len(lines) and lines[start].strip() == "---":
        end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == "---"), None)
        if end is None:
            raise ValueError(
                f"front matter opened with '---' on line {start + 1} is never closed: end it with a line '---'"
            )
        seen: set[str] = set()
        for no in range(start + 1, end):
            raw = lines[no].strip()
            if not raw or raw.startswith("#"):
                continue
            key, colon, value = raw.partition(":")
            key = key.strip().lower()
            if not colon:
                raise ValueError(f"front matter line {no + 1} {raw[:60]!r} is not 'key: value': write e.g. 'preset: local'")
            if key not in FRONT_MATTER_KEYS:
                raise ValueError(
                    f"unknown front matter key {key[:40]!r} on line {no + 1}: known keys are {', '.join(FRONT_MATTER_KEYS)}"
                )
            if key in seen:
                raise ValueError(f"front matter key {key!r} is given twice (line {no + 1}): keep one")
            seen.add(key)
            value = _unquote(value)
            if not value:
                raise ValueError(f"front matter key {key!r} on line {no + 1} has no value: write '{key}: <value>' or drop the line")
            if key == "seed":
                try:
                    fields["seed"] = int(value, 10)
                except ValueError:
                    raise ValueError(f"seed {value[:40]!r} on line {no + 1} is not a whole number: write e.g. 'seed: 42'") from None
            elif key == "session":
                if not _SESSION.match(value):
                    raise ValueError(
                        f"session {value[:40]!r} on line {no + 1} is not a usable folder name: "
                        "use letters, digits, '-' or '_' (at most 64)"
                    )
                fields["session"] = value
            elif key == "preset":
                if not _NAME.match(value):
                    raise ValueError(f"preset {value[:40]!r} on line {no + 1} is not a preset name: use e.g. 'preset: local'")
                fields["preset"] = value
            elif key == "fault":
                fields["fault"] = value
            elif key == "fork":
                fields["fork"] = value
            elif key == "fallback":
                if value.lower() not in FALLBACK_VALUES:
                    raise ValueError(f"fallback {value[:40]!r} on line {no + 1} is not allow or refuse: write 'fallback: allow'")
                fields["fallback"] = value.lower()
            else:
                bindings[key] = _binding_value(key, value, no)
        body_from = end + 1
    pitch = "\n".join(lines[body_from:]).strip()
    if not pitch:
        raise ValueError("the pitch is empty: write one line describing the game (e.g. '60-second snake')")
    return PitchFile(pitch=pitch, bindings=bindings, **fields)


# ---------------------------------------------------------------- steering


class _Bad(Exception):
    """A steering line that cannot be understood; the message is the error event's text."""


def _actor(word: str, command: str, *, allow_all: bool = False) -> str:
    name = word[1:] if word.startswith("@") else word
    name = name.lower()
    if name in _ACTORS or (allow_all and name == "all"):
        return name
    known = ", ".join(_ACTORS) + (" or all" if allow_all else "")
    raise _Bad(f"unknown actor {word[:40]!r} in {command}: use one of {known}")


def _none(cmd: str, args: str) -> dict[str, Any]:
    if args:
        raise _Bad(f"{cmd} takes nothing after it (got {args[:40]!r}): write just {cmd}, and /note for remarks")
    return {}


def _reason(cmd: str, args: str) -> dict[str, Any]:
    return {"reason": args}


def _opt_actor(cmd: str, args: str) -> dict[str, Any]:
    if not args:
        return {}
    words = args.split()
    if len(words) > 1:
        raise _Bad(f"{cmd} takes at most one actor (got {args[:40]!r}): e.g. {cmd} @builder")
    return {"actor": _actor(words[0], cmd)}


def _goto(cmd: str, args: str) -> dict[str, Any]:
    words = args.split()
    if len(words) != 1:
        raise _Bad(f"{cmd} needs exactly one actor: e.g. {cmd} builder")
    return {"actor": _actor(words[0], cmd)}


def _swap(cmd: str, args: str) -> dict[str, Any]:
    actor, eq, binding = args.partition("=")
    harness, colon, model = binding.strip().partition(":")
    actor, harness, model = actor.strip(), harness.strip(), model.strip()
    if not eq or not actor or not harness or (colon and not model) or any(ch.isspace() or _odd(ch) for ch in binding.strip()):
        raise _Bad(f"{cmd} needs actor=harness[:model] (got {args[:60]!r}): e.g. {cmd} builder=claude:sonnet")
    data: dict[str, Any] = {"actor": _actor(actor, cmd), "harness": harness}
    if model:
        data["model"] = model
    return data


def _append(cmd: str, args: str) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if args.startswith("@"):
        word, _, args = args.partition(" ")
        data["actor"] = _actor(word, cmd)
        args = args.strip()
    data["text"] = args
    return data


def _note(cmd: str, args: str) -> dict[str, Any]:
    return {"text": args}


def _reset(cmd: str, args: str) -> dict[str, Any]:
    words = args.split()
    if len(words) > 1:
        raise _Bad(f"{cmd} takes one actor or all (got {args[:40]!r}): e.g. {cmd} builder")
    return {"actor": _actor(words[0], cmd, allow_all=True) if words else "all"}


def _release(cmd: str, args: str) -> dict[str, Any]:
    words = args.split()
    if len(words) != 1:
        raise _Bad(f"{cmd} needs the name of one version under versions/ (got {args[:40]!r}): e.g. {cmd} v2; "
                   "`crumb release SESSION` copies the game and sends it")
    if not _NAME.match(words[0]):
        raise _Bad(f"{words[0][:40]!r} in {cmd} is not a version name: letters, digits, '.', '_' and '-', "
                   f"starting with a letter or digit (e.g. {cmd} v2)")
    return {"name": words[0]}


def _budget(cmd: str, args: str) -> dict[str, Any]:
    names = [n for n in setting_names(Budgets) if n != "warn_at"]
    name, eq, value = args.partition("=")
    name, value = name.strip(), value.strip()
    if not eq or not name or not value:
        raise _Bad(f"{cmd} needs name=value (got {args[:40]!r}): e.g. {cmd} fixes=6; names: {', '.join(names)}")
    if name not in names:
        raise _Bad(f"unknown budget {name[:40]!r} in {cmd}: use one of {', '.join(names)}")
    try:
        number = float(value.lstrip("$"))
    except ValueError:
        raise _Bad(f"budget value {value[:40]!r} in {cmd} is not a number: e.g. {cmd} {name}=6") from None
    if not number >= 0 or number == float("inf"):
        raise _Bad(f"budget value {value[:40]!r} in {cmd} must be a number ≥ 0: e.g. {cmd} {name}=6")
    return {"name": name, "value": number}


#: command → (event kind, argument parser, whether following plain lines continue its text field).
COMMANDS: dict[str, tuple[str, Callable[[str, str], dict[str, Any]], str | None]] = {
    "/approve": ("user.approve", _none, None),
    "/veto": ("user.veto", _reason, "reason"),
    "/pause": ("user.pause", _opt_actor, None),
    "/resume": ("user.resume", _opt_actor, None),
    "/goto": ("user.goto", _goto, None),
    "/swap": ("user.swap", _swap, None),
    "/append": ("user.append", _append, "text"),
    "/note": ("user.note", _note, "text"),
    "/cancel": ("user.cancel", _reason, "reason"),
    "/redo": ("user.redo", _opt_actor, None),
    "/reset-circuit": ("user.reset_circuit", _reset, None),
    "/budget": ("user.budget", _budget, None),
    "/status": ("user.status", _none, None),
    "/release": ("release", _release, None),
}
#: kinds a steering line asks for but does not make: its item names what to measure ({"name": ...} for a
#: release), and the daemon writes the event from what it measures, or an error naming the problem
MEASURED: frozenset[str] = frozenset({"release"})
_ALIASES = {"/reset_circuit": "/reset-circuit", "/resetcircuit": "/reset-circuit"}
_KNOWN = ", ".join(COMMANDS)
_FENCE = re.compile(r"^\s*(```|~~~)")
_AT = re.compile(r"^@(\S+)(?:\s+(.*))?$")


class _Steering:
    """The parse state: finished items and the message still taking continuation lines."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.open: tuple[str, dict[str, Any], int, str] | None = None  # kind, data, line, text field

    def start(self, kind: str, data: dict[str, Any], line: int, field: str) -> None:
        self.close()
        self.open = (kind, data, line, field)

    def add_line(self, line: str, no: int) -> None:
        """A plain line: continues the open message, or starts a plain message."""
        if self.open is None:
            self.open = ("user.intervene", {"text": line}, no, "text")
            return
        _, data, _, field = self.open
        data[field] = f"{data[field]}\n{line}" if data[field] else line

    def emit(self, item: Item) -> None:
        self.close()
        self.items.append(item)

    def close(self) -> None:
        if self.open is None:
            return
        kind, data, line, field = self.open
        self.open = None
        data[field] = data[field].strip("\n")
        if kind in ("user.append", "user.note", "user.intervene") and not data[field].strip():
            self.items.append(("error", {"message": _empty_text(kind, data)}, line))
        else:
            self.items.append((kind, data, line))


def parse_steering(text: str) -> list[Item]:
    """Steering file → [(event kind, data without "source", 1-based line)], in file order.

    Each data dict validates against KINDS[kind] once "source" (and optionally "line") is added, except
    for the MEASURED kinds, whose data the daemon completes with what it measures.
    Errors come back as ("error", {"message": ...}, line) so the person sees them in the transcript.
    """
    state = _Steering()
    fence: str | None = None
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for no, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        stripped = line.strip()
        opening = _FENCE.match(line)
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            state.add_line(line, no)
        elif opening:
            fence = opening.group(1)
            state.add_line(line, no)
        elif not stripped:
            state.close()
        elif stripped.startswith("/") and not stripped.startswith("//"):
            item = _command(stripped, no)
            field = COMMANDS[_command_name(stripped)][2] if item[0] != "error" else None
            if field is None:
                state.emit(item)
            else:
                state.start(item[0], item[1], no, field)
        elif at := _AT.match(stripped):
            actor = at.group(1).lower()
            if actor not in _ACTORS:
                message = (
                    f"unknown actor '@{at.group(1)[:40]}': use one of {', '.join(_ACTORS)}, "
                    "or plain text for the whole session"
                )
                state.emit(("error", {"message": message}, no))
                continue
            state.start("user.intervene", {"text": at.group(2) or "", "actor": actor}, no, "text")
        else:
            state.add_line(line, no)
    state.close()
    return state.items


def _command_name(stripped: str) -> str:
    name = stripped.split(None, 1)[0].lower()
    return _ALIASES.get(name, name)


def _command(stripped: str, no: int) -> Item:
    name = _command_name(stripped)
    args = stripped[len(stripped.split(None, 1)[0]) :].strip()
    spec = COMMANDS.get(name)
    if spec is None:
        shown = stripped.split(None, 1)[0][:40]
        return ("error", {"message": f"unknown command {shown}: known commands are {_KNOWN}; use /note for free text"}, no)
    kind, parse, _ = spec
    try:
        return (kind, parse(name, args), no)
    except _Bad as bad:
        return ("error", {"message": str(bad)}, no)


def _empty_text(kind: str, data: dict[str, Any]) -> str:
    if kind == "user.note":
        return "/note needs text after it: e.g. /note the snake should be green"
    if kind == "user.append":
        return "/append needs text after it: e.g. /append @builder add a pause key"
    return f"@{data.get('actor')} needs a message after it: e.g. @{data.get('actor')} make it faster"
