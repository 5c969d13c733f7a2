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
