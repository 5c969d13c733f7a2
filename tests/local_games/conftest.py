"""Fixtures for the grid/turn-based genres: games built by the real builder, run in real Chromium
under Playwright's fake clock, driven through the same inputs a player (or QA's "play" step) uses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from crumb.actors.embedded.builder import build_game
from crumb.protocol.game import Numbers, Spec
from tests.fake_clock import paused_context

GRID_GENRES = ("match3", "memory", "slide2048", "blocks", "whack", "clicker", "simon", "stacker", "bubbleshooter")
STEP_MS = 100
T0 = 1_767_225_600_000   # 2026-01-01T00:00:00Z in ms: the fake clock's start
KEYS = {" ": "Space"}   # KeyboardEvent.key -> Playwright key name where they differ

#: a guard against a game that never loads, not a measure of speed: beside the other worker's browser tests
#: this machine was seen to stand still as a whole for up to 8 s, and a loaded run timed out a load at 10 s
PAGE_TIMEOUT_MS = 30_000


class Game:
    """One loaded game page with a fake clock: read the hook, press keys, click fractions, advance time."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))

    def open(self, index: Path) -> Game:
        """Load the game in a page of a context from tests.fake_clock.paused_context."""
        self.page.goto(index.as_uri())
        self.advance(50)
        return self

    def state(self) -> dict[str, Any]:
        return self.page.evaluate("window.__crumb.state()")

    def advance(self, ms: int) -> None:
        self.page.clock.run_for(ms)

    def key(self, key: str) -> None:
        self.page.keyboard.press(KEYS.get(key, key))

    def click(self, x: float, y: float) -> None:
        box = self.page.locator("#game").bounding_box()
        self.page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"])

    def tap(self, x: float, y: float) -> None:
        box = self.page.locator("#game").bounding_box()
        self.page.touchscreen.tap(box["x"] + x * box["width"], box["y"] + y * box["height"])

    def start(self) -> dict[str, Any]:
        self.key("Enter")
        self.advance(STEP_MS)
        return self.state()

    def perform(self, hint: list[dict[str, Any]]) -> None:
        for h in hint:
            if h["type"] == "key":
                self.key(h["key"])
            elif h["type"] in ("click", "tap"):
                self.click(h["x"], h["y"])

    def play(self, ms: int, until: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """QA's "play" step: every 100 ms of game time, perform what state().hint suggests."""
        st = self.state()
        for _ in range(ms // STEP_MS):
            if st["phase"] != "playing" or (until and until(st)):
                break
            self.perform(st["hint"])
            self.advance(STEP_MS)
            st = self.state()
        return st

    def distinct_colours(self) -> int:
        """How many different colours a sample of the canvas holds (a blank canvas has one)."""
        return self.page.evaluate(
            """() => {
                const c = document.getElementById('game');
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                const seen = new Set();
                for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]);
                return seen.size;
            }"""
        )

    def pixels_of(self, rgb: str, tolerance: int = 12) -> int:
        """How many pixels of the canvas are within `tolerance` of the colour "#rrggbb" in every channel: a thing
        drawn in its own colour (the hopper's frog, the clicker's cookie chips) is counted, so it is seen."""
        want = [int(rgb[i:i + 2], 16) for i in (1, 3, 5)]
        return self.page.evaluate(
            """([want, tol]) => {
                const c = document.getElementById('game');
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                let n = 0;
                for (let i = 0; i < d.length; i += 4)
                    if (Math.abs(d[i] - want[0]) < tol && Math.abs(d[i + 1] - want[1]) < tol && Math.abs(d[i + 2] - want[2]) < tol) n++;
                return n;
            }""", [want, tolerance])


@pytest.fixture
def build(tmp_path: Path) -> Callable[..., Path]:
    """build(genre, extras=[...], seed=N, **numbers) -> index.html of a freshly built game."""
    count = iter(range(1000))

    def _build(genre: str, extras: list[str] | None = None, seed: int = 7, **numbers: Any) -> Path:
        out = tmp_path / f"{genre}-{next(count)}"
        spec = Spec(title=f"Test {genre}", genre=genre, numbers=Numbers(**numbers), extras=extras or [], seed=seed)
        build_game(spec, out)
        return out / "index.html"

    return _build


@pytest.fixture
def game(browser: Any) -> Iterator[Callable[..., Game]]:
    """game(index, touch=False) -> a Game on a fresh page; contexts are closed after the test."""
    contexts: list[Any] = []

    def _open(index: Path, touch: bool = False) -> Game:
        ctx = paused_context(browser, T0, T0 + 1_000, viewport={"width": 960, "height": 720}, has_touch=touch)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        return Game(page).open(index)

    def _twins(index: Path) -> tuple[Game, Game]:
        """Two tabs of one context: they share its clock, so they run in lockstep (like QA's main + twin)."""
        ctx = paused_context(browser, T0, T0 + 1_000, viewport={"width": 960, "height": 720})
        contexts.append(ctx)
        a, b = Game(ctx.new_page()), Game(ctx.new_page())
        a.page.goto(index.as_uri())
        b.page.goto(index.as_uri())
        return a, b

    _open.twins = _twins  # type: ignore[attr-defined]
    yield _open
    for ctx in contexts:
        ctx.close()
