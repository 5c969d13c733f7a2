"""The worked example of docs/add-a-genre.md, read from the page itself so the doc and the test cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "add-a-genre.md"
_BLOCK = r"<!-- {tag} -->\s*```[a-z]*\n(.*?)```"


def example_files() -> dict[str, str]:
    """{relative path: text} of every `<!-- file: PATH -->` block of the page."""
    text = DOC.read_text("utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- file: (\S+) -->\s*```[a-z]*\n(.*?)```", text, re.S)}


def example_pitch() -> str:
    m = re.search(_BLOCK.format(tag="pitch"), DOC.read_text("utf-8"), re.S)
    assert m, f"{DOC} has no <!-- pitch --> block"
    return m.group(1).strip()


def write_example(base: Path) -> Path:
    """The example's genre folders written under base (a folder of genre folders); returns base."""
    for rel, text in example_files().items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return base
