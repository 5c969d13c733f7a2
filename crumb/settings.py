"""All defaults in one model. A session records the Settings in force at its start (session.start),
so replay never depends on today's defaults. Overridable by preset, crumb.toml and CLI flags.

msgspec structs, not pydantic models: every replay reads a session's settings (recorded_settings), and
`crumb ls` and `crumb status` replay; msgspec is already loaded there and checks the same constraints
in C, where pydantic would cost more to import than the rest of those commands together.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, field


class _Section(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Frozen (each subclass says so too, for mypy): nothing changes a Settings once made; the reducer
    shares one between copies of a state."""

    def to_data(self) -> dict[str, Any]:
        """The JSON form (tuples as lists), as session.start records it."""
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data


def _d(description: str, **constraints: Any) -> Meta:
    return Meta(description=description, **constraints)


class Budgets(_Section, frozen=True):
    redesigns: Annotated[int, _d("Planner redesigns after a Critical verdict", ge=0)] = 2
    fixes: Annotated[int, _d("Builder fix rounds after a failed verdict", ge=0)] = 4
    verifies: Annotated[int, _d("Verifier runs", ge=1)] = 8
    tokens: Annotated[int, _d("tokens in + out, all roles", ge=0)] = 2_000_000
    cost_usd: Annotated[float, Meta(ge=0)] = 5.0
    wall_s: Annotated[float, _d("from session start, by event timestamps", gt=0)] = 3600.0
    warn_at: Annotated[float, _d("fraction of a budget that triggers a warning", gt=0, le=1)] = 0.8


class Circuit(_Section, frozen=True):
    failures: Annotated[int, _d("consecutive failures that open a role's circuit", ge=1)] = 3


class Judge(_Section, frozen=True):
    pass_threshold: Annotated[float, _d("lowest total a PASS may have", ge=0, le=5)] = 3.5
    probe_fail_cap: Annotated[float, _d("highest total with a failed probe", ge=0, le=5)] = 3.0
    self_bias_discount: Annotated[float, Meta(ge=0, le=5)] = 0.5


class QASettings(_Section, frozen=True):
    timeout_s: Annotated[float, Meta(gt=0)] = 120.0
    load_timeout_s: Annotated[float, Meta(gt=0)] = 10.0
    probe_timeout_s: Annotated[float, Meta(gt=0)] = 10.0
    probe_tabs: Annotated[int, _d("acceptance probes run in this many tabs at once", ge=1, le=8)] = 3
    max_bytes: Annotated[int, _d("size budget of a game folder", gt=0)] = 5_000_000
    max_files: Annotated[int, Meta(gt=0)] = 200
    viewport: tuple[int, int] = (960, 640)
    film_frames: Annotated[int, _d(
        "filmstrip: frames spread evenly over the main play-through (plus one after each input); 0: none",
        ge=0, le=24)] = 8


class Inbox(_Section, frozen=True):
    max_bytes: Annotated[int, _d("larger inbox files are rejected and kept", gt=0)] = 65_536
    settle_ms: Annotated[int, _d("a file must stay unchanged this long before it is read", ge=0)] = 50


class ActorLimits(_Section, frozen=True):
    wall_s: Annotated[float, Meta(gt=0)] = 900.0
    idle_s: Annotated[float, Meta(gt=0)] = 300.0


class HarnessSettings(_Section, frozen=True):
    fallback: Annotated[Literal["refuse", "allow"], _d(
        "refuse: a pitch whose bound harness cannot run here (CLI not on PATH, model server not answering) is "
        "refused before it starts; allow: it starts and the role falls back along its chain")] = "refuse"
    probe_timeout_s: Annotated[float, _d("how long a model server has to answer the check", gt=0, le=60)] = 2.0


class Store(_Section, frozen=True):
    fsync: Literal["always", "never"] = "always"


class Otel(_Section, frozen=True):
    endpoint: Annotated[str, _d(
        "an OTLP/HTTP collector (http://127.0.0.1:4318): `crumb watch` streams every session's spans to it "
        "(the `otel` extra); empty: no stream")] = ""


class Settings(_Section, frozen=True):
    budgets: Budgets = field(default_factory=Budgets)
    circuit: Circuit = field(default_factory=Circuit)
    judge: Judge = field(default_factory=Judge)
    qa: QASettings = field(default_factory=QASettings)
    inbox: Inbox = field(default_factory=Inbox)
    actors: ActorLimits = field(default_factory=ActorLimits)
    harness: HarnessSettings = field(default_factory=HarnessSettings)
    store: Store = field(default_factory=Store)
    otel: Otel = field(default_factory=Otel)

    def merged(self, overrides: dict[str, Any]) -> Settings:
        """A copy with nested overrides applied ({"budgets": {"fixes": 2}}); validates every value
        (SettingsError naming the first bad one)."""
        data = self.to_data()
        for section, values in overrides.items():
            if section not in data:
                raise SettingsError(f"unknown settings section {section!r}; known: {', '.join(data)}")
            if not isinstance(values, dict):
                raise SettingsError(f"settings section {section!r} must be a table of values")
            data[section].update(values)
        return convert(data)


def setting_names(section: type[_Section]) -> tuple[str, ...]:
    """A section's setting names, in order (Settings' own: its sections)."""
    return section.__struct_fields__


SECTIONS = setting_names(Settings)


class SettingsError(ValueError):
    """A setting that does not validate: `where` ("budgets.fixes", "" for the whole) and `message`."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`$")


def convert(data: Any) -> Settings:
    """Settings from their JSON or TOML form; SettingsError naming the first bad value. Lax like a config
    file wants: "3" or 3.0 for an int is 3, 5 for a float is 5.0."""
    try:
        return msgspec.convert(data, Settings, strict=False)
    except msgspec.ValidationError as err:
        m = _AT.match(str(err))
        msg, path = (m["msg"], m["path"] or "") if m else (str(err), "")
        where = path.lstrip(".").replace("[", ".").replace("]", "")
        unknown = _UNKNOWN.match(msg)
        if unknown:
            where = f"{where}.{unknown['name']}".lstrip(".")
            msg = "not a setting CRUMB knows (a typo?)"
        raise SettingsError(msg, where) from None


def recorded_settings(raw: Any) -> tuple[Settings, list[str]]:
    """The Settings a session recorded in session.start, and one line per recorded value it could not use.

    The one reader of a session's settings (the reducer calls it; everyone else reads the state's).
    A value not recorded gets today's default, once, here. A value that does not validate, an unknown
    key or section (a transcript from another CRUMB, or edited by hand) is not silently dropped and
    does not stop the session: its default is used and the line naming it says so and how to fix it.
    Pure: no I/O, so replay stays a fold.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return Settings(), [f"session.start: settings is {type(raw).__name__}, not a table of sections; every setting "
                            "is at its default in this session"]
    problems: list[str] = []
    data: dict[str, dict[str, Any]] = {}
    for section, values in raw.items():
        if section not in SECTIONS:
            problems.append(f"session.start: unknown settings section {section!r} ignored (known: "
                            f"{', '.join(SECTIONS)}); remove it from [settings.{section}]")
        elif not isinstance(values, dict):
            problems.append(f"session.start: settings section {section!r} is not a table; its settings are at "
                            f"their defaults in this session: fix [settings.{section}]")
        else:
            data[str(section)] = dict(values)
    known: dict[str, dict[str, Any]] | None = None
    for _ in range(sum(len(v) for v in data.values()) + 1):  # each round drops one bad value
        try:
            return convert(data), problems
        except SettingsError as err:
            known = known or Settings().to_data()
            section, _, key = err.where.partition(".")
            key = key.partition(".")[0]
            if key in data.get(section, {}) and key in known.get(section, {}):
                value = known[section][key]
                value = tuple(value) if isinstance(value, list) else value  # as the default is written in Python
                problems.append(f"session.start: settings {section}.{key}: {err.message}; this session uses the "
                                f"default ({value!r}): fix {key} under [settings.{section}] in crumb.toml or the preset")
            else:
                problems.append(f"session.start: settings {err.where or section}: {err.message}; ignored: fix or remove "
                                f"{key or section} under [settings.{section}] in crumb.toml or the preset")
            if key in data.get(section, {}):
                del data[section][key]
            else:
                data.pop(section, None)
    return Settings(), problems  # pragma: no cover - every round removes a value, so the loop ends with a return
