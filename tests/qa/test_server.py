"""The loopback server serves the game folder and nothing outside it (real HTTP)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from crumb.qa.server import GameServer


def get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read(), resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        return exc.code, b"", ""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    (game / "js").mkdir(parents=True)
    (game / "index.html").write_text("<canvas></canvas>")
    (game / "js" / "main.js").write_text("let a = 1;")
    (tmp_path / "secret.txt").write_text("do not serve")
    (game / "leak.txt").symlink_to(tmp_path / "secret.txt")
    return game


def test_serves_files_with_types(folder: Path) -> None:
    with GameServer(folder) as server:
        assert server.base.startswith("http://127.0.0.1:")
        assert get(server.url("index.html"))[:2] == (200, b"<canvas></canvas>")
        status, body, ctype = get(server.base + "js/main.js")
        assert (status, body, ctype) == (200, b"let a = 1;", "text/javascript")
        assert get(server.base)[0] == 200  # the folder's index.html


@pytest.mark.parametrize("path", ["../secret.txt", "%2e%2e/secret.txt", "js/../../secret.txt", "leak.txt", "nope.js", "js/"])
def test_refuses_anything_outside_or_missing(folder: Path, path: str) -> None:
    with GameServer(folder) as server:
        assert get(server.base + path)[0] == 404


def test_each_server_has_its_own_port(folder: Path, tmp_path: Path) -> None:
    with GameServer(folder) as a, GameServer(tmp_path) as b:
        assert a.base != b.base


def test_a_kept_alive_connection_does_not_outlive_its_server(tmp_path: Path) -> None:
    """A browser reuses a kept-alive connection to a port; when the next check's server gets the same port,
    that connection must not be answered from the previous game's folder (found under load in CI)."""
    import http.client

    first, second = tmp_path / "first", tmp_path / "second"
    for folder, text in ((first, "first game"), (second, "second game")):
        folder.mkdir()
        (folder / "writer.js").write_text(text)
    server = GameServer(first).start()
    port = server.port_in_use
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/writer.js")
    assert conn.getresponse().read() == b"first game"
    server.stop()
    with GameServer(second, port=port):
        try:  # the old connection is gone, or still open: either way a browser asks again and must reach the new game
            conn.request("GET", "/writer.js")
            body = conn.getresponse().read()
        except (http.client.RemoteDisconnected, ConnectionError):
            conn.close()
            conn.request("GET", "/writer.js")
            body = conn.getresponse().read()
        conn.close()
    assert body == b"second game"
