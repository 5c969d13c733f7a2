"""A session folder holding a QA filmstrip as QA writes it (crumb.qa.film.save_film), and the Verifier's
projected input naming it: for tests of what each harness hands the Verifier."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from crumb.qa.film import Shot, save_film
from tests.harness.conftest import role_input

COLOURS = ["#d03030", "#30a030", "#3050d0"]


def png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (48, 32), colour).save(out, format="PNG")
    return out.getvalue()


def session_with_film(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """(session folder, verifier input) with three frames of three colours in artifacts/qa/round-1/."""
    sdir = tmp_path / "session"
    shots = [Shot(png(c), t_ms=500 + 300 * n, after="'ArrowLeft'" if n == 1 else None) for n, c in enumerate(COLOURS)]
    film, files = save_film(shots, sdir / "artifacts" / "qa" / "round-1", sdir, ["'ArrowLeft'"], width=48)
    projected = role_input("verifier", tmp_path)
    projected["qa"] = {**projected["qa"], "filmstrip": film.model_dump(), "files": [f.model_dump() for f in files]}
    return sdir, projected
