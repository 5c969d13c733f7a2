"""docs/transcript.md's table of kinds is the protocol's: every kind a transcript line can have has a row."""

from __future__ import annotations

import re
from pathlib import Path

from crumb.protocol.names import EVENT_KINDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "transcript.md"


def test_every_kind_has_a_row_in_the_table_of_kinds() -> None:
    text = DOC.read_text(encoding="utf-8")
    kinds = text[text.index("## Kinds"):]
    kinds = kinds[:kinds.index("\n## ")]
    rows = [line for line in kinds.splitlines() if line.startswith("| `")]
    named: set[str] = set()
    for row in rows:
        first, _by, rest = (row.split(" | ") + ["", ""])[:3]
        for kind in re.findall(r"`([a-z_.*]+)`", first):
            if kind == "user.*":  # one row for the person's commands, named in its data column before their fields
                named |= {f"user.{name}" for name in re.findall(r"`([a-z_]+)`", rest.partition(", each with")[0])}
            else:
                named.add(kind)
    assert sorted(set(EVENT_KINDS) - named) == [], "kinds with no row in docs/transcript.md's table of kinds"
    assert sorted(named - set(EVENT_KINDS)) == [], "rows of docs/transcript.md's table of kinds that are no kind"
