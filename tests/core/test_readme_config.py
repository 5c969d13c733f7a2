"""The README's crumb.toml examples are ones CRUMB takes, and the [settings.qa] block shows the defaults it says."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from crumb.config import load_settings
from crumb.settings import QASettings

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_crumb_toml_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0] for b in BLOCKS])
def test_each_crumb_toml_example_is_taken_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: str) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no user config of the tester's in the way
    (tmp_path / "crumb.toml").write_text(block, encoding="utf-8")
    settings = load_settings(tmp_path)  # raises, naming the key, on anything crumb.toml may not hold
    for section, values in tomllib.loads(block).get("settings", {}).items():
        for key, value in values.items():
            got = getattr(getattr(settings, section), key)
            assert (list(got) if isinstance(got, tuple) else got) == value, f"settings.{section}.{key}"


def test_the_settings_qa_example_is_the_defaults() -> None:
    block = next(b for b in BLOCKS if b.startswith("[settings.qa]"))
    shown = tomllib.loads(block)["settings"]["qa"]
    defaults = QASettings()
    assert sorted(shown) == sorted(QASettings.__struct_fields__), "the block should show every [settings.qa] key"
    for key, value in shown.items():
        got = getattr(defaults, key)
        assert (list(got) if isinstance(got, tuple) else got) == value, f"qa.{key}: the README shows {value}, the default is {got}"
