"""Each dependency is justified in one line in the README: every package pyproject.toml names has a row."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_dependency_has_a_row_in_the_readme() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    names = {re.split(r"[<>=!~\[;, ]", r, maxsplit=1)[0].lower() for r in wanted}
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Dependencies"):text.index("## Docs")]
    rows = {re.sub(r"\s*\(.*?\)", "", line.split("|")[1]) for line in section.splitlines() if line.startswith("| ")}
    listed = {name.strip().lower() for row in rows for name in re.split(r"[,+]", row)}
    assert sorted(names - listed) == [], "packages pyproject.toml depends on that the README's Dependencies table does not justify"
