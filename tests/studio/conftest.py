"""Fixtures: a real Studio on loopback (random free ports), real Chromium, real transcripts."""

from __future__ import annotations

import http.client
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import pytest

from crumb.studio.server import Studio
from tests.studio.scripted import Scripted

#: how long a test's request may wait for the Studio: a guard against a hang, not a measure of speed (this
#: machine was seen to stand still as a whole for up to 8 s beside the browser tests; httpx's default is 5 s)
HTTP_TIMEOUT_S = 60
#: the same for a page's waits (Playwright's own default is 30 s; a 10 s wait for the session list ran out
#: once beside two busy loops, while the list answers in under 0.05 s on a quiet machine)
PAGE_TIMEOUT_MS = 30_000


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "inbox").mkdir()
    (tmp_path / "sessions").mkdir()
    return tmp_path


@pytest.fixture
def studio(root: Path) -> Iterator[Studio]:
    s = Studio(root, port=0).start()
    yield s
    s.stop()


@pytest.fixture
def agent_clis(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The real `claude`, `codex` and `gemini` (installed by `make agents`) on PATH: the Studio checks a
    bound CLI is there before it drops a pitch (crumb/actors/harness/preflight.py); nothing runs them here."""
    from tests.agents.clis import BIN, cli

    for name in ("claude", "codex", "gemini"):
        cli(name)
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    return BIN


@pytest.fixture
def scripted(root: Path) -> Scripted:
    return Scripted(root)


@pytest.fixture
def client(studio: Studio) -> Iterator[httpx.Client]:
    # a limit against a hang, not a measure of speed: a fresh-clone CI run saw /api/sessions answer after
    # more than 10 s while both cores were busy with the other worker's browser tests
    with httpx.Client(base_url=studio.url.rstrip("/"), timeout=HTTP_TIMEOUT_S) as c:
        yield c


@pytest.fixture
def http_client() -> Iterator[httpx.Client]:
    """For the Studio's other ports (preview, stream), with `client`'s guard against a hang."""
    with httpx.Client(timeout=HTTP_TIMEOUT_S) as c:
        yield c


def post_headers(studio: Studio, **extra: str) -> dict[str, str]:
    return {"origin": studio.url.rstrip("/"), "x-crumb-token": studio.guard.token, **extra}


class SSEReader:
    """Reads an SSE stream in a thread over a plain socket, collecting (event, id, data).

    close() shuts the socket down, which also unblocks the reading thread at once.
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.headers = headers or {}
        self.events: list[tuple[str, int | None, Any]] = []
        self.comments: list[str] = []  # ": keepalive" lines
        self.status: int | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.conn.request("GET", self.path, headers={"accept": "text/event-stream", **self.headers})
            resp = self.conn.getresponse()
            self.status = resp.status
            kind, eid, data = "message", None, []
            while True:
                raw = resp.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\r\n")
                if line == "":
                    if data:
                        self.events.append((kind, eid, orjson.loads("\n".join(data))))
                    kind, eid, data = "message", None, []
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("id: "):
                    eid = int(line[4:])
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line.startswith(":"):
                    self.comments.append(line[1:].strip())
        except Exception:
            pass

    def seqs(self) -> list[int]:
        return [e[1] for e in self.events if e[0] == "ev" and e[1] is not None]

    def close(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conn.close()
        self._thread.join(5)


def preview_frame(page: Any, prefix: str = "http://localhost:") -> Any:
    """The session page's game iframe once it shows a game under `prefix`. Playwright's own waits, not
    a poll of `page.frames`: a sync Playwright only learns of new frames while one of its calls runs."""
    frame = page.wait_for_selector("iframe#preview").content_frame()
    assert frame is not None, "iframe#preview has no frame"
    frame.wait_for_url(lambda url: url.startswith(prefix) and "/s/" in url)
    return frame


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
    yield pg
    ctx.close()


# Headless pages are always visible: hide or show one the way a browser tells it (visibilityState + event).
VISIBILITY = """(visible) => {
  const state = visible ? "visible" : "hidden";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => !visible });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def set_visible(page: Any, visible: bool) -> None:
    page.evaluate(VISIBILITY, visible)


def open_session(page: Any, studio: Studio, session: str) -> None:
    """Open a session page and wait until its stream is live."""
    page.goto(f"{studio.url}s/{session}")
    page.wait_for_function("() => window.__studio && window.__studio.connects >= 1")
