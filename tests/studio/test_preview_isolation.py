"""The game preview is the game's only window, wherever it is opened: the "Open" page keeps it in the
sandboxed iframe (a game opened top-level could navigate anywhere), the fallback game folder is
contained in the session like the manifest's, and the game runs on another site than the Studio
(127.0.0.1 ↔ localhost), so where the browser isolates sites a game that spins for ever cannot stall the
Studio's tab. Measured: with site isolation the sandboxed game was out of the Studio's process on the
same site too; without it (the headless shell's default) both stall: that is the browser's process model."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from crumb.studio.server import Studio
from tests.studio.conftest import open_session
from tests.studio.scripted import Scripted
from tests.wait import wait_until

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def plain_browser() -> Iterator[Any]:
    """Chromium as a person runs it: desktop Chrome isolates sites by default; the headless shell needs
    --site-per-process for that (and QA's own launch flags turn it off)."""
    from playwright.sync_api import sync_playwright

    from crumb.qa import BrowserNotFound, find_chromium

    try:
        exe = find_chromium()
    except BrowserNotFound as exc:
        pytest.skip(str(exc))
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(exe), headless=True, args=["--disable-gpu", "--site-per-process"])
        yield b
        b.close()


class Listener:
    """A local service the game must not reach: counts the connections it gets."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.hits: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                self.hits.append(conn.recv(200))
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            except OSError:
                self.hits.append(b"?")
            conn.close()


def test_the_open_page_keeps_the_game_sandboxed_and_it_navigates_nowhere(plain_browser: Any, studio: Studio,
                                                                          scripted: Scripted) -> None:
    listener = Listener()
    scripted.start()
    scripted.plan()
    ctx = plain_browser.new_context()
    try:
        page = ctx.new_page()
        page.route("**/*.js", lambda route: route.abort())  # the page as served, before its scripts run
        page.goto(f"{studio.url}s/{scripted.session}")
        assert page.is_hidden("#preview-open"), "an Open button with nothing to open"
        page.unroute("**/*.js")
        page.goto(f"{studio.url}s/{scripted.session}")
        page.wait_for_selector("#preview-box .empty")  # "No build yet.": nothing to open either
        assert page.is_hidden("#preview-open")
        scripted.build(html=f"<canvas></canvas><script>setTimeout(() => {{ try {{ top.location = "
                            f"'http://127.0.0.1:{listener.port}/top'; }} catch (e) {{}} "
                            f"location = 'http://127.0.0.1:{listener.port}/self'; }}, 50);</script>")
        page.wait_for_selector("#preview-open:not([hidden])")
        href = page.get_attribute("#preview-open", "href")
        assert href == f"/s/{scripted.session}/play", href
        with ctx.expect_page() as opened:
            page.click("#preview-open")
        play = opened.value
        play.wait_for_load_state()
        frame = play.wait_for_selector("iframe#preview")
        assert frame.get_attribute("sandbox") == "allow-scripts"
        # the game tried both navigations at 50 ms; the play page is still the play page
        play.wait_for_function("() => performance.now() > 1500")
        assert play.url.endswith(f"/s/{scripted.session}/play")
        assert listener.hits == [], listener.hits
    finally:
        ctx.close()
        listener.sock.close()


def test_a_spinning_game_does_not_stall_the_studio_tab(plain_browser: Any, studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    scripted.plan()
    # the message leaves only when its task ends, so the endless loop starts one task later
    scripted.build(html="<canvas></canvas><script>setTimeout(() => { parent.postMessage('spinning', '*'); "
                        "setTimeout(() => { for (;;) {} }, 20); }, 100);</script>")
    ctx = plain_browser.new_context()
    ctx.add_init_script("addEventListener('message', e => { if (e.data === 'spinning') window.__spun = true; })")
    try:
        page = ctx.new_page()
        open_session(page, studio, scripted.session)
        frame = page.wait_for_selector("iframe#preview", state="attached")
        assert frame.get_attribute("src").startswith(f"http://localhost:{studio.preview_port}/"), frame.get_attribute("src")
        wait_until(lambda: page.evaluate("() => window.__spun === true"), 30, "the game to enter its endless loop")
        game = frame.content_frame()
        assert game is not None
        with pytest.raises(PlaywrightTimeout):  # the game's page answers nothing: it spins, and never stops
            game.wait_for_function("() => true", timeout=1000)
        # while it spins, the Studio's own timers keep firing (a shared renderer would never run them)
        page.evaluate("() => { window.__ticks = 0; setInterval(() => window.__ticks++, 20); }")
        page.wait_for_function("() => window.__ticks >= 10", timeout=60_000)
    finally:
        ctx.close()


def test_the_fallback_game_folder_is_contained_in_the_session(studio: Studio, http_client: httpx.Client, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "index.html").write_text("top secret")
    s = Scripted(root).start()
    (s.dir / "artifacts").mkdir(parents=True, exist_ok=True)
    (s.dir / "artifacts" / "game").symlink_to(outside, target_is_directory=True)  # no build: the fallback folder
    r = http_client.get(f"http://127.0.0.1:{studio.preview_port}/s/{s.session}/index.html")
    assert r.status_code == 404 and "top secret" not in r.text


class StunListener:
    """A UDP port a game's WebRTC must not reach: counts the STUN datagrams it gets."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.packets = 0
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                self.sock.recvfrom(2048)
                self.packets += 1
            except TimeoutError:
                continue
            except OSError:
                return

    def close(self) -> None:
        self._stop = True
        self.sock.close()


def _stun(port: int) -> str:
    """Script that makes a peer connection gather candidates against a STUN server on `port`."""
    return (f"const pc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:{port}'}}]}}); "
            "pc.createDataChannel('x'); pc.createOffer().then(o => pc.setLocalDescription(o));")


def _reaches(browser: Any, port: int) -> StunListener:
    """The control: the same STUN script in a page outside the preview does reach a listener."""
    listener = StunListener()
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_content("<p>control</p>")
        page.evaluate(_stun(listener.port))
        wait_until(lambda: listener.packets > 0, 30, "the control page's STUN to reach its listener")
    finally:
        ctx.close()
    return listener


def test_a_game_in_the_preview_reaches_nothing_through_webrtc(plain_browser: Any, studio: Studio,
                                                              scripted: Scripted) -> None:
    """Every way a page can run RTCPeerConnection — in its own realm, in a srcdoc frame (property,
    attribute, markup), through document.write or a javascript: URL — is refused, and the game still runs.
    The javascript: URL is assigned without an error; the frame it would start never runs it."""
    game = StunListener()
    child = _stun(game.port).replace("'", "\\'")
    routes = {
        "realm": _stun(game.port),
        "srcdoc": f"const f = document.createElement('iframe'); f.srcdoc = '<script>{child}</' + 'script>'; "
                  "document.body.append(f);",
        "setAttribute": f"const f = document.createElement('iframe'); f.setAttribute('SrcDoc', '<script>{child}</' + "
                        "'script>'); document.body.append(f);",
        "innerHTML": f"document.body.insertAdjacentHTML('beforeend', '<iframe src' + 'doc=\"<script>{child}</' + "
                     "'script>\"></iframe>');",
        "write": "const f = document.createElement('iframe'); document.body.append(f); "
                 f"document.write('<iframe src'); document.write('doc=\"<script>{child}</script>\"></iframe>');",
        "javascript:": f"const f = document.createElement('iframe'); f.src = \"javascript:'<script>{child}</' + "
                       "'script>'\"; document.body.append(f);",
    }
    attempts = "\n".join(f"try {{ {js} tried.push({name!r} + ': ran'); }} catch (e) {{ tried.push({name!r} + ': ' + e.name); }}"
                         for name, js in routes.items())
    scripted.start()
    scripted.plan()
    # the attempts live in a script file: a page whose own HTML mentions srcdoc is not served at all (below)
    scripted.build(html="<!doctype html><body><canvas></canvas><script src=game.js></script>")
    (scripted.dir / "artifacts" / "game" / "game.js").write_text(
        "const tried = [];\n" + attempts + "\n"
        "document.body.innerHTML += '<b id=alive>alive</b>';\n"  # a game's own markup still works
        "parent.postMessage({tried, alive: !!document.getElementById('alive'), rtc: typeof RTCPeerConnection}, '*');")
    ctx = plain_browser.new_context()
    ctx.add_init_script("addEventListener('message', e => { if (e.data && e.data.tried) window.__game = e.data; })")
    try:
        play = ctx.new_page()
        play.goto(f"{studio.url}s/{scripted.session}/play")
        report = wait_until(lambda: play.evaluate("() => window.__game"), 30, "the game to report its attempts")
        control = _reaches(plain_browser, game.port)  # started after every attempt: had one got out, it came first
        control.close()
        assert report["tried"] == ["realm: ReferenceError", "srcdoc: TypeError", "setAttribute: TypeError",
                                   "innerHTML: TypeError", "write: TypeError", "javascript:: ran"], report
        assert report["alive"] is True and report["rtc"] == "undefined", report
        assert game.packets == 0, (game.packets, report["tried"])
    finally:
        ctx.close()
        game.close()


def test_documents_the_guard_cannot_hold_are_not_run(plain_browser: Any, studio: Studio, http_client: httpx.Client, scripted: Scripted) -> None:
    """A game page whose own markup declares a srcdoc frame is refused with a reason; a script-bearing SVG
    the game navigates to runs no script; a same-named page on the QA side is not this module's concern."""
    game = StunListener()
    scripted.start()
    scripted.plan()
    scripted.build(html="<!doctype html><script>setTimeout(() => { location = 'evil.svg'; }, 50);</script>")
    folder = scripted.dir / "artifacts" / "game"
    (folder / "evil.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg"><script>{_stun(game.port)}</script></svg>')
    (folder / "frames.html").write_text(f'<!doctype html><iframe srcdoc="&lt;script&gt;{_stun(game.port)}&lt;/script&gt;">'
                                        "</iframe>")
    r = http_client.get(f"http://127.0.0.1:{studio.preview_port}/s/{scripted.session}/frames.html")
    assert r.status_code == 403 and "srcdoc" in r.text, (r.status_code, r.text)
    ctx = plain_browser.new_context()
    try:
        play = ctx.new_page()
        play.goto(f"{studio.url}s/{scripted.session}/play")
        # evaluate() lets Playwright take in the frame events that play.frames reads
        wait_until(lambda: play.evaluate("1") and any(f.url.endswith("/evil.svg") for f in play.frames), 30,
                   "the game to open its SVG")
        svg = next(f for f in play.frames if f.url.endswith("/evil.svg"))
        svg.wait_for_load_state()
        control = _reaches(plain_browser, game.port)
        control.close()
        assert game.packets == 0, game.packets
    finally:
        ctx.close()
        game.close()
