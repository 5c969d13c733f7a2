"""One name per thing: no two public classes of crumb/ share a name (two `PitchRequest`s and two `Limits`
once meant a reader had to check which one a module imported)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "crumb"


def public_classes(root: Path) -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where[node.name].append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return where


def test_no_two_public_classes_share_a_name() -> None:
    where = public_classes(ROOT)
    assert len(where) > 50, "the walk found too few classes to mean anything"
    twice = {name: places for name, places in where.items() if len(places) > 1}
    assert not twice, f"public classes with one name (rename one): {twice}"


def test_the_check_names_a_shared_class_name(tmp_path: Path) -> None:
    pkg = tmp_path / "crumb"
    (pkg / "a").mkdir(parents=True)
    (pkg / "a" / "x.py").write_text("class Limits:\n    pass\n")
    (pkg / "y.py").write_text("class Limits:\n    pass\nclass _Private:\n    pass\n")
    assert public_classes(pkg)["Limits"] == ["crumb/a/x.py:1", "crumb/y.py:1"]
    assert "_Private" not in public_classes(pkg)
