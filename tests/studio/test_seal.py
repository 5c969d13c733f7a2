"""The session page's seal badge (the transcript's hash chain): sealed, unsealed, or broken at line N,
through the JSON API and in real Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from crumb.store.paths import transcript_path
from crumb.studio.server import Studio
from tests.studio.conftest import open_session
from tests.studio.scripted import Scripted


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def forged(root: Path) -> tuple[str, int]:
    """A session with a `qa.result` turned round after it was written; the line number it is on."""
    s = Scripted(root)
    s.start()
    s.plan()
    s.build()
    s.qa(ok=False)
    s.judge("PARTIAL")
    path = transcript_path(root, s.session)
    lines = lines_of(path)
    at = next(i for i, raw in enumerate(lines) if json.loads(raw)["kind"] == "qa.result")
    ev = json.loads(lines[at])
    ev["data"]["ok"] = True
    lines[at] = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    return s.session, at + 1


def test_the_api_says_sealed_unsealed_or_broken_at_a_line(client: httpx.Client, root: Path) -> None:
    sealed = Scripted(root)
    sealed.start()
    sealed.plan()
    assert client.get(f"/api/sessions/{sealed.session}").json()["seal"]["status"] == "sealed"

    old = Scripted(root)
    old.start()
    path = transcript_path(root, old.session)
    stripped = []
    for raw in lines_of(path):
        ev = json.loads(raw)
        del ev["prev"]
        stripped.append(json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    path.write_bytes(b"".join(stripped))
    assert client.get(f"/api/sessions/{old.session}").json()["seal"]["status"] == "unsealed"

    sid, line = forged(root)
    seal = client.get(f"/api/sessions/{sid}").json()["seal"]
    assert seal["status"] == "broken" and seal["line"] == line and "changed after it was written" in seal["what"]


def test_a_removed_line_is_named_as_the_broken_seal(client: httpx.Client, root: Path) -> None:
    s = Scripted(root)
    s.start()
    s.plan()
    s.build()
    path = transcript_path(root, s.session)
    lines = lines_of(path)
    del lines[2]
    path.write_bytes(b"".join(lines))
    r = client.get(f"/api/sessions/{s.session}")
    assert r.status_code == 500 and r.json()["error"].startswith("seal broken at line 3: the line(s) with seq 3 were removed")


@pytest.mark.browser
def test_the_session_page_shows_a_broken_seal(page: Any, studio: Studio, root: Path) -> None:
    sid, line = forged(root)
    open_session(page, studio, sid)
    badge = page.wait_for_selector("#badges [data-seal]")
    assert badge.get_attribute("data-seal") == "broken" and badge.inner_text() == f"seal broken at line {line}"
    assert "changed after it was written" in (badge.get_attribute("title") or "")
    good = Scripted(root)
    good.start()
    open_session(page, studio, good.session)
    assert page.wait_for_selector("#badges [data-seal]").inner_text() == "sealed"
    assert page.errors == []
