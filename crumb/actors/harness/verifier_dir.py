"""The Verifier's sealed folder: its projected input and a copy of the game, nothing else.

Put `base` outside the session folder (a temporary directory is best): an agent whose cwd is inside
sessions/<id>/ could walk up to the transcript and the earlier scores.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any


def prepare_verifier_dir(base: Path, projected: dict[str, Any], game_dir: Path) -> Path:
    """(Re)create `base` holding input.json and game/ (regular files only; symlinks are not followed)."""
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    (base / "input.json").write_text(json.dumps(projected, indent=1, ensure_ascii=False, default=str), "utf-8")
    target = base / "game"
    target.mkdir()
    if game_dir.is_dir():
        root = game_dir.resolve()
        for src in sorted(game_dir.rglob("*")):
            if src.is_symlink() or not src.is_file():
                continue  # a symlink could point at the transcript; regular files only
            try:
                rel = src.resolve().relative_to(root)
            except ValueError:
                continue
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    return base
