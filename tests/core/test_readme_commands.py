"""The README's command reference is the CLI's: every command `crumb --help` lists is documented there."""

from __future__ import annotations

import re
from pathlib import Path

import crumb.cli

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_documents_every_command() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The `crumb` command"):text.index("### Batch reports")]
    rows = [line for line in section.splitlines() if line.startswith("| `crumb ")]
    documented = {m.group(1) for row in rows for m in re.finditer(r"`crumb ([a-z]+)", row.split(" | ")[0])}
    # the steering shortcuts share `crumb steer`'s row, which names them
    steer_row = next(row for row in rows if row.startswith("| `crumb steer "))
    shortcuts = {name for name in crumb.cli.TABLE if f"`{name}`" in steer_row and crumb.cli.TABLE[name][0] == "steer"}
    missing = sorted(set(crumb.cli.TABLE) - documented - shortcuts)
    assert missing == [], f"commands with no row in the README's `crumb` command table: {missing}"
    assert documented <= set(crumb.cli.TABLE), f"rows for commands that do not exist: {sorted(documented - set(crumb.cli.TABLE))}"


def test_the_readme_names_every_make_target() -> None:
    makefile = (README.parent / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):.*## ", makefile, re.M)) - {"help"}
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Make targets"):text.index("### Scripting it")]
    named = set(re.findall(r"`([a-z-]+)[ `]", section))
    assert sorted(targets - named) == [], "make targets the README's Make targets section does not name"
