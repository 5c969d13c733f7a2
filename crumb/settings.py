"""All defaults in one model. A session records the Settings in force at its start (session.start),
so replay never depends on today's defaults. Overridable by preset, crumb.toml and CLI flags."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from crumb.protocol.errors import first_problem


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Budgets(_Section):
    redesigns: int = Field(default=2, ge=0, description="Planner redesigns after a Critical verdict")
    fixes: int = Field(default=4, ge=0, description="Builder fix rounds after a failed verdict")
    verifies: int = Field(default=8, ge=1, description="Verifier runs")
    tokens: int = Field(default=2_000_000, ge=0, description="tokens in + out, all roles")
    cost_usd: float = Field(default=5.0, ge=0)
    wall_s: float = Field(default=3600.0, gt=0, description="from session start, by event timestamps")
    warn_at: float = Field(default=0.8, gt=0, le=1, description="fraction of a budget that triggers a warning")


class Circuit(_Section):
    failures: int = Field(default=3, ge=1, description="consecutive failures that open a role's circuit")


class Judge(_Section):
    pass_threshold: float = Field(default=3.5, ge=0, le=5, description="lowest total a PASS may have")
    probe_fail_cap: float = Field(default=3.0, ge=0, le=5, description="highest total with a failed probe")
    self_bias_discount: float = Field(default=0.5, ge=0, le=5)


class QASettings(_Section):
    timeout_s: float = Field(default=120.0, gt=0)
    load_timeout_s: float = Field(default=10.0, gt=0)
    probe_timeout_s: float = Field(default=10.0, gt=0)
    probe_tabs: int = Field(default=3, ge=1, le=8, description="acceptance probes run in this many tabs at once")
    max_bytes: int = Field(default=5_000_000, gt=0, description="size budget of a game folder")
    max_files: int = Field(default=200, gt=0)
    viewport: tuple[int, int] = (960, 640)


class Inbox(_Section):
    max_bytes: int = Field(default=65_536, gt=0, description="larger inbox files are rejected and kept")
    settle_ms: int = Field(default=50, ge=0, description="a file must stay unchanged this long before it is read")


class ActorLimits(_Section):
    wall_s: float = Field(default=900.0, gt=0)
    idle_s: float = Field(default=300.0, gt=0)


class HarnessSettings(_Section):
    fallback: Literal["refuse", "allow"] = Field(
        default="refuse",
        description="refuse: a pitch whose bound harness cannot run here (CLI not on PATH, model server not "
                    "answering) is refused before it starts; allow: it starts and the role falls back along its chain",
    )
    probe_timeout_s: float = Field(default=2.0, gt=0, le=60, description="how long a model server has to answer the check")


class Store(_Section):
    fsync: Literal["always", "never"] = "always"


class Settings(_Section):
    budgets: Budgets = Field(default_factory=Budgets)
    circuit: Circuit = Field(default_factory=Circuit)
    judge: Judge = Field(default_factory=Judge)
    qa: QASettings = Field(default_factory=QASettings)
    inbox: Inbox = Field(default_factory=Inbox)
    actors: ActorLimits = Field(default_factory=ActorLimits)
    harness: HarnessSettings = Field(default_factory=HarnessSettings)
    store: Store = Field(default_factory=Store)

    def merged(self, overrides: dict[str, Any]) -> Settings:
        """A copy with nested overrides applied ({"budgets": {"fixes": 2}}); validates every value."""
        data = self.model_dump()
        for section, values in overrides.items():
            if section not in data:
                raise ValueError(f"unknown settings section {section!r}; known: {', '.join(data)}")
            if not isinstance(values, dict):
                raise ValueError(f"settings section {section!r} must be a table of values")
            data[section].update(values)
        return Settings.model_validate(data)


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
        if section not in Settings.model_fields:
            problems.append(f"session.start: unknown settings section {section!r} ignored (known: "
                            f"{', '.join(Settings.model_fields)}); remove it from [settings.{section}]")
        elif not isinstance(values, dict):
            problems.append(f"session.start: settings section {section!r} is not a table; its settings are at "
                            f"their defaults in this session: fix [settings.{section}]")
        else:
            data[str(section)] = dict(values)
    defaults = Settings()
    known = defaults.model_dump()
    for _ in range(sum(len(v) for v in data.values()) + 1):  # each round drops one bad value
        try:
            return Settings.model_validate(data), problems
        except ValidationError as err:
            p = first_problem(err)
            section, key = str(p.loc[0]), str(p.loc[1]) if len(p.loc) > 1 else ""
            if key in data.get(section, {}) and key in known.get(section, {}):
                value = known[section][key]
                problems.append(f"session.start: settings {section}.{key}: {p.message}; this session uses the "
                                f"default ({value!r}): fix {key} under [settings.{section}] in crumb.toml or the preset")
            else:
                problems.append(f"session.start: settings {p.where or section}: {p.message}; ignored: fix or remove "
                                f"{key or section} under [settings.{section}] in crumb.toml or the preset")
            if key in data.get(section, {}):
                del data[section][key]
            else:
                data.pop(section, None)
    return defaults, problems  # pragma: no cover - every round removes a value, so the loop ends with a return
