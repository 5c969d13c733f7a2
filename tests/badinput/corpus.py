"""The bad-input corpus: one TOML file per case under cases/, each naming its entry point, its input,
the clear error a person must see and what must not be lost. The runner checks both."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

CASES = Path(__file__).parent / "cases"

Entry = Literal["pitch_inbox", "steer_inbox", "cli", "config", "agent", "game", "studio"]


class Case(BaseModel):
    """One bad input. `expect` are substrings of the one-line error (all must appear); `kept` says, for
    people, what must survive; `outcome` says how the entry point answers (its driver checks it)."""

    model_config = ConfigDict(extra="forbid")

    entry: Entry
    title: str = Field(min_length=5)
    expect: list[str]
    kept: str = Field(min_length=5)
    outcome: str
    input: dict[str, Any] = Field(default_factory=dict)
    id: str = ""

    @model_validator(mode="after")
    def _silence_is_named(self) -> Case:
        if not self.expect and self.outcome not in ("ignored", "session"):
            raise ValueError("only an accepted (session) or ignored outcome may expect no error message")
        return self


def load_cases() -> list[Case]:
    """Every case file, sorted; a malformed case file fails loudly with its name."""
    cases = []
    for path in sorted(CASES.glob("*.toml")):
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
            cases.append(Case.model_validate({**raw, "id": path.stem}))
        except Exception as err:
            raise ValueError(f"{path.name}: {err}") from None
    return cases


def one_line(text: str) -> str:
    """The error as a person sees it: one line, no traceback."""
    stripped = text.strip()
    assert stripped, "the error message is empty"
    assert "\n" not in stripped, f"the error is not one line: {stripped!r}"
    assert "Traceback" not in stripped, stripped
    return stripped


def assert_names(message: str, expect: list[str]) -> None:
    missing = [e for e in expect if e not in message]
    assert not missing, f"the error {message!r} does not say {missing!r}"
