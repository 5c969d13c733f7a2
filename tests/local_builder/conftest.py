"""Real Chromium for the embedded builder's games: one browser per test module, a fresh context per game.

Pages run on Playwright's fake clock (installed before load, then paused), so "10 s of play" is
10 s of game time advanced by QA-style steps, never real waiting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from crumb.actors.embedded.builder import build_game
from crumb.protocol.game import Numbers, Spec
from tests.fake_clock import paused_context

CHUNK_MS = 100  # QA's play step decides once per 100 ms of game time and holds keys that long

MY_GENRES = ["snake", "breakout", "flappy", "runner", "shooter", "platformer", "pong", "dodge", "typing", "slingshot",
             "rhythm", "fruitslice", "hopper", "maze", "towerdefense", "jumper", "colorgate", "hole"]
SURVIVE = {"flappy", "runner", "dodge", "typing", "rhythm", "fruitslice", "towerdefense", "hole"}


def make_spec(genre: str, **numbers: Any) -> Spec:
    return Spec(title=f"Test {genre}", genre=genre, numbers=Numbers(**numbers), seed=7)


class Game:
    """One loaded game page with its console errors and QA-like helpers."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.context, self.page = context, page
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("request", lambda r: self.requests.append(r.url))

    def state(self) -> dict[str, Any]:
        return self.page.evaluate("window.__crumb.state()")

    def run(self, ms: int) -> None:
        self.page.clock.run_for(ms)

    def key(self, key: str, hold_ms: int = 32) -> None:
        self.page.keyboard.down(key)
        self.run(hold_ms)
        self.page.keyboard.up(key)

    def box(self) -> dict[str, float]:
        box = self.page.locator("#game").bounding_box()
        assert box is not None, "no #game canvas on the page"
        return box

    def click(self, x: float, y: float, hold_ms: int = 16) -> None:
        b = self.box()
        self.page.mouse.click(b["x"] + x * b["width"], b["y"] + y * b["height"])
        self.run(hold_ms)

    def start(self) -> None:
        self.key("Enter")

    def play(self, ms: int) -> None:
        """Follow state().hint the way QA's play step does: one decision per 100 ms, keys held."""
        left = ms
        while left > 0:
            now = min(CHUNK_MS, left)
            hints = self.state()["hint"][:3]
            if not hints:
                self.run(now)
            for h in hints:
                share = max(1, now // len(hints))
                if h["type"] == "key":
                    self.key(h["key"], share)
                else:
                    self.click(h["x"], h["y"], share)
            left -= now

    def canvas_colours(self) -> int:
        """Distinct colours among sampled canvas pixels (1 = one flat colour or nothing drawn)."""
        return self.page.evaluate(
            """() => { const c = document.getElementById('game'); const g = c.getContext('2d');
                 const d = g.getImageData(0, 0, c.width, c.height).data; const seen = new Set();
                 for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] + ',' + d[i+1] + ',' + d[i+2] + ',' + d[i+3]);
                 return seen.size; }""")

    def close(self) -> None:
        self.context.close()


def open_game(browser: Browser, folder: Path, *, query: str = "", touch: bool = False,
              viewport: tuple[int, int] = (480, 320)) -> Game:
    context = paused_context(browser, 1_700_000_000, 1_700_000_001,  # seconds
                             viewport={"width": viewport[0], "height": viewport[1]}, has_touch=touch)
    page = context.new_page()
    game = Game(context, page)
    page.goto((folder / "index.html").as_uri() + query)
    game.run(200)
    return game


@pytest.fixture
def load(browser: Browser, tmp_path: Path):
    """load(spec, fault=None, **open_kw) -> Game, built into a fresh folder; closed after the test."""
    opened: list[Game] = []

    def _load(spec: Spec, *, fault: str | None = None, seed: int | None = None, name: str = "game", **kw: Any) -> Game:
        out = tmp_path / name
        build_game(spec, out, fault=fault, seed=seed)
        game = open_game(browser, out, **kw)
        opened.append(game)
        return game

    yield _load
    for g in opened:
        g.close()
