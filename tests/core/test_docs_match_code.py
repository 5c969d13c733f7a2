"""The README and docs/transcript.md name what the code has: each table here is checked against the registry
or file it describes, so a command, target, package, steering command, variable, event kind or built-in genre
cannot be added without its row (nor a row outlive what it names). Also: the README's crumb.toml examples load as they are."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import crumb.cli
import crumb.genres
from crumb.config import load_settings
from crumb.daemon.grammar import COMMANDS
from crumb.genres import genres, loaded
from crumb.protocol.names import EVENT_KINDS
from crumb.settings import QASettings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(text: str, start: str, end: str) -> str:
    """The part of `text` from the heading `start` to the heading `end`."""
    return text[text.index(start):text.index(end)]


def as_toml(value: object) -> object:
    """A setting as TOML writes it: a tuple is an array, read back as a list."""
    return list(value) if isinstance(value, tuple) else value


def first_cells(text: str) -> list[str]:
    """The first cell of each table row in `text`."""
    return [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| ")]


def test_every_command_has_a_row_in_the_command_table() -> None:
    part = section(README, "## The `crumb` command", "### Batch reports")
    cells = [cell for cell in first_cells(part) if cell.startswith("| `crumb ")]
    documented = {m.group(1) for cell in cells for m in re.finditer(r"`crumb ([a-z]+)", cell)}
    # the steering shortcuts share `crumb steer`'s row, which names them
    steer_row = next(line for line in part.splitlines() if line.startswith("| `crumb steer "))
    shortcuts = {name for name, (module, _) in crumb.cli.TABLE.items() if module == "steer" and f"`{name}`" in steer_row}
    assert sorted(set(crumb.cli.TABLE) - documented - shortcuts) == [], "commands with no row in the README's command table"
    assert sorted(documented - set(crumb.cli.TABLE)) == [], "rows of the README's command table for no command"


def test_every_make_target_is_named() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):.*## ", makefile, re.M)) - {"help"}
    named = set(re.findall(r"`([a-z-]+)[ `]", section(README, "### Make targets", "### Scripting it")))
    assert sorted(targets - named) == [], "make targets the README's Make targets section does not name"


def test_every_dependency_has_its_why() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    names = {re.split(r"[<>=!~\[;, ]", r, maxsplit=1)[0].lower() for r in wanted}
    cells = [re.sub(r"\s*\(.*?\)", "", cell[2:]) for cell in first_cells(section(README, "## Dependencies", "## Docs"))]
    listed = {name.strip().lower() for cell in cells for name in re.split(r"[,+]", cell)}
    assert sorted(names - listed) == [], "packages pyproject.toml names that the README's Dependencies table does not justify"


def test_every_steering_command_has_a_row_and_no_other() -> None:
    cells = first_cells(section(README, "## How to steer", "## From inside your agent"))
    listed = {m.group(1) for cell in cells for m in re.finditer(r"`(/[a-z-]+)", cell)}
    assert sorted(set(COMMANDS) - listed) == [], "steering commands with no row in the README's How to steer table"
    assert sorted(listed - set(COMMANDS)) == [], "rows of the README's How to steer table that the grammar does not read"


def test_every_event_kind_has_a_row_and_no_other() -> None:
    doc = (ROOT / "docs" / "transcript.md").read_text(encoding="utf-8")
    rows = [line for line in section(doc, "## Kinds", "## Audit rules").splitlines() if line.startswith("| `")]
    named: set[str] = set()
    for row in rows:
        first, _by, data = (row.split(" | ") + ["", ""])[:3]
        for kind in re.findall(r"`([a-z_.*]+)`", first):
            if kind == "user.*":  # one row for a person's commands, named in its data cell before their fields
                named |= {f"user.{name}" for name in re.findall(r"`([a-z_]+)`", data.partition(", each with")[0])}
            else:
                named.add(kind)
    assert sorted(set(EVENT_KINDS) - named) == [], "kinds with no row in docs/transcript.md's table of kinds"
    assert sorted(named - set(EVENT_KINDS)) == [], "rows of docs/transcript.md's table of kinds that are no kind"


def test_every_crumb_variable_is_in_the_environment_table() -> None:
    """CRUMB's own variables (a "CRUMB_..." string in the code: read, or set for a child) are all described."""
    code = {m for path in (ROOT / "crumb").rglob("*.py")
            for m in re.findall(r"[\"'](_?CRUMB_[A-Z_]+)[\"']", path.read_text(encoding="utf-8"))}
    part = section(README, "### Environment variables", "## Quick start")
    assert sorted(name for name in code if f"`{name}`" not in part) == [], \
        "variables CRUMB uses that the README's Environment variables section does not describe"


TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", README, re.S)


def test_the_readme_has_its_crumb_toml_examples() -> None:
    assert len(TOML_BLOCKS) >= 4


@pytest.mark.parametrize("block", TOML_BLOCKS, ids=[b.splitlines()[0] for b in TOML_BLOCKS])
def test_each_crumb_toml_example_loads_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: str) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no user config of the tester's in the way
    (tmp_path / "crumb.toml").write_text(block, encoding="utf-8")
    settings = load_settings(tmp_path)  # raises, naming the key, on anything crumb.toml may not hold
    for name, values in tomllib.loads(block).get("settings", {}).items():
        for key, value in values.items():
            assert as_toml(getattr(getattr(settings, name), key)) == value, f"settings.{name}.{key}"


def test_the_settings_qa_example_shows_every_key_at_its_default() -> None:
    shown = tomllib.loads(next(b for b in TOML_BLOCKS if b.startswith("[settings.qa]")))["settings"]["qa"]
    assert sorted(shown) == sorted(QASettings.__struct_fields__), "the block should show every [settings.qa] key"
    defaults = QASettings()
    for key, value in shown.items():
        got = as_toml(getattr(defaults, key))
        assert got == value, f"qa.{key}: the README shows {value}, the default is {got}"


def test_the_genre_table_lists_every_builtin_genre_with_what_it_honours() -> None:
    part = section(README, "### Genres of the embedded studio", "## How to steer")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9]+)` \([^)]*\) \| .*? \| (.*) \|$", part, re.M)}
    here = Path(crumb.genres.__file__).resolve().parent
    builtin = [g for g in genres() if loaded(g.id).folder.resolve().parent == here]
    assert sorted(rows) == sorted(g.id for g in builtin)
    for g in builtin:
        listed = {w.split()[0] for w in rows[g.id].split(", ")} - {"—"}
        assert listed == set(g.honours), (g.id, rows[g.id])
