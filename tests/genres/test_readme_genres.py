"""The README's genre table is the registry's: every built-in genre listed, with the numbers it honours."""

from __future__ import annotations

import re
from pathlib import Path

import crumb.genres
from crumb.genres import genres, loaded

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_lists_every_builtin_genre_with_what_it_honours() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Genres of the embedded studio"):text.index("## How to steer")]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9]+)` \([^)]*\) \| .*? \| (.*) \|$", section, re.M)}
    here = Path(crumb.genres.__file__).resolve().parent
    builtin = [g for g in genres() if loaded(g.id).folder.resolve().parent == here]
    assert sorted(rows) == sorted(g.id for g in builtin)
    for g in builtin:
        listed = {w.split()[0] for w in rows[g.id].split(", ")} - {"—"}
        assert listed == set(g.honours), (g.id, rows[g.id])
