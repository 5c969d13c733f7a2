"""A game under QA reaches nothing but its own folder server: no other loopback service, no network.

A control run in an unfenced Chromium proves the hostile game really does reach the service when
nothing stops it, so the fenced run's silence means something."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.qa.conftest import GAMES, chromium_or_skip
from tests.wait import wait_until

pytestmark = pytest.mark.browser

ATTACK = """
<script>
(() => {
  // URLs are assembled at run time so that only the browser fence, not the static scan, can stop them.
  const svc = ["http:", "", "127.0.0.1:" + PORT].join("/");
  const quiet = p => p.catch(() => {});
  quiet(fetch(svc + "/fetch").then(r => r.text()).then(t => { window.__leak = t; }));
  quiet(fetch(["http:", "", "localhost:" + PORT, "by-name"].join("/"), {mode: "no-cors"}));
  quiet(fetch(["http:", "", "127.1:" + PORT, "short-ip"].join("/"), {mode: "no-cors"}));
  const img = new Image(); img.src = svc + "/img";
  const s = document.createElement("script"); s.src = svc + "/script.js"; document.head.appendChild(s);
  const f = document.createElement("iframe"); f.src = svc + "/iframe"; document.body.appendChild(f);
  try { navigator.sendBeacon(svc + "/beacon", "x"); } catch (e) {}
  try { new EventSource(svc + "/sse"); } catch (e) {}
  try { new WebSocket(["ws:", "", "127.0.0.1:" + PORT, "ws"].join("/")); } catch (e) {}
  const code = "fetch(" + JSON.stringify(svc + "/worker") + ").catch(() => {})";
  new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})));
  quiet(fetch(["http:", "", "example.com", "internet"].join("/"), {mode: "no-cors"}));
  quiet(fetch(["http:", "", "93.184.215.14", "raw-ip"].join("/"), {mode: "no-cors"}));
})();
</script>
"""

SERVICE_PATHS = {"/fetch", "/by-name", "/short-ip", "/img", "/script.js", "/iframe", "/beacon", "/sse", "/ws", "/worker"}


class Service:
    """A local HTTP service a game must never reach; it remembers every request it got."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                hits.append(self.path)
                body = b"SECRET-FROM-LOCAL-SERVICE"
                self.send_response(200)
                self.send_header("content-length", str(len(body)))
                self.send_header("access-control-allow-origin", "*")
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

        self.hits = hits
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Service:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service() -> Iterator[Service]:
    with Service() as s:
        yield s


@pytest.fixture
def hostile_game(tmp_path: Path, service: Service) -> Path:
    """tests/qa/games/mini (a game that passes QA) with the attacks added before </body>."""
    game = tmp_path / "game"
    game.mkdir()
    html = (GAMES / "mini" / "index.html").read_text()
    attack = ATTACK.replace("PORT", str(service.port))
    (game / "index.html").write_text(html.replace("</body>", attack + "</body>"))
    return game


def test_control_unfenced_chromium_does_reach_the_service(hostile_game: Path, service: Service) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import sync_playwright

    def attack() -> None:  # a thread of its own: another test's sync Playwright page may own this one's loop
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(chromium_or_skip()), headless=True, args=["--disable-gpu"])
            try:
                page = browser.new_page()
                page.goto(hostile_game.joinpath("index.html").as_uri())
                wait_until(lambda: {"/img", "/fetch", "/worker", "/iframe"} <= set(service.hits), 20, "the attacks to land")
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(attack).result()


def test_game_under_qa_reaches_no_local_service_and_no_network(qa_runner: Any, hostile_game: Path,
                                                                service: Service) -> None:
    result = qa_runner.check(hostile_game)
    assert result.loaded and result.hook, "QA's own folder server must still serve the game"
    assert service.hits == [], f"the game reached the local service: {service.hits}"
    blocked = set(result.blocked)
    svc = f"http://127.0.0.1:{service.port}"
    for path in ("/fetch", "/img", "/script.js", "/iframe"):
        assert svc + path in blocked, f"{path} was not recorded as blocked: {sorted(blocked)}"
    assert "http://example.com/internet" in blocked and "http://93.184.215.14/raw-ip" in blocked
    assert any(f.code == "network_blocked" and str(service.port) in f.message for f in result.findings)
    assert not result.exec_ok, "a game that tried to reach a local service must not pass execution"
