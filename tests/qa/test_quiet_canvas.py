"""A 2D canvas that does not paint (probe pages, and the main check's twin once it stops painting) must
answer a game exactly as a painting one does: what the game can read back (styles, the transform, text
metrics, the errors its calls throw) is the same, or the page says it was read (then QA checks the game
again, those pages painting). Otherwise a probe would judge a game that computes something else.

Each test runs the same script of canvas calls in real Chromium on pages QA's way (page.py's
_PAINT_SWITCH_JS), and on a page with no script of QA's at all, and compares what the game saw.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crumb.qa.page import NO_PAINT_JS, TWIN_PAINT_JS
from crumb.qa.server import GameServer

pytestmark = pytest.mark.browser

PAGE = '<!doctype html><html><body><canvas id="c" width="200" height="100"></canvas></body></html>'

# Steps of canvas calls; each returns what the game saw. `look` reads everything a game can read back
# without pixels. Run in order; `window.__off(k)` switches painting off before step k (twin-like pages).
STEPS = """(() => {
  const canvas = document.getElementById('c'), g = canvas.getContext('2d');
  const o = new OffscreenCanvas(60, 40).getContext('2d');
  const grad = g.createLinearGradient(0, 0, 10, 10);
  const seen = (v) => v instanceof DOMMatrix ? [v.a, v.b, v.c, v.d, v.e, v.f].map((x) => +x.toFixed(12))
    : v instanceof TextMetrics ? [v.width, v.actualBoundingBoxLeft, v.actualBoundingBoxAscent].map((x) => +x.toFixed(6))
    : v === grad ? 'the gradient' : v;
  const look = (c) => ['fillStyle', 'strokeStyle', 'globalAlpha', 'lineWidth', 'lineCap', 'lineJoin', 'miterLimit',
    'shadowBlur', 'shadowColor', 'shadowOffsetX', 'globalCompositeOperation', 'imageSmoothingEnabled', 'font',
    'textAlign', 'textBaseline', 'direction', 'letterSpacing'].map((k) => [k, seen(c[k])])
    .concat([['transform', seen(c.getTransform())], ['text', seen(c.measureText('Hungry QA 42'))]]);
  const tries = (f) => { try { f(); return 'ok'; } catch (e) { return e.name; } };
  return [
    () => { g.font = '20px sans-serif'; g.fillStyle = '#123456'; g.save(); g.translate(1, 2); g.save(); return look(g); },
    () => { g.translate(10, 5); g.rotate(0.3); g.font = 'bold 30px serif'; g.textAlign = 'center';
            g.fillStyle = 'rgba(255,0,0,0.5)'; g.globalAlpha = 0.4; g.lineWidth = 7; g.shadowColor = 'Red';
            g.beginPath(); g.arc(5, 5, 3, 0, 6); g.fill(); g.stroke(); return look(g); },
    () => { g.save(); g.scale(2, 3); g.font = '12px monospace'; g.strokeStyle = grad; g.lineCap = 'round';
            g.globalCompositeOperation = 'lighter'; g.letterSpacing = '3px'; g.fillStyle = 'HSL(120, 50%, 50%)';
            g.save(); g.fillStyle = '#abc'; g.lineWidth = 2.5; return look(g); },
    () => { g.restore(); const a = look(g); g.restore(); return a.concat(look(g)); },
    () => { g.restore(); const a = look(g); g.restore(); return a.concat(look(g)); },  // levels saved before any switch
    () => { g.restore(); g.restore(); return look(g); },  // more restores than saves: nothing to take back
    () => [tries(() => g.arc(0, 0, -1, 0, 1)), tries(() => g.arc(0, 0)), tries(() => g.ellipse(0, 0, 1, -1, 0, 0, 1)),
           tries(() => g.arcTo(0, 0, 1, 1, -2)), tries(() => g.setLineDash(5)), tries(() => g.setLineDash([1, 2])),
           tries(() => g.roundRect(0, 0, 1, 1, -1)), tries(() => grad.addColorStop(2, 'red')),
           tries(() => grad.addColorStop(0.5, 'nope')), tries(() => g.setTransform({a: 2, d: 2, m33: 0})),
           tries(() => g.moveTo(NaN, Infinity)), tries(() => g.arc(1, 1, NaN, 0, 1)), tries(() => g.clip('wrong'))],
    () => { g.save(); g.save(); g.font = '40px serif'; g.fillStyle = '#00ff00'; g.translate(3, 3); canvas.width = 180;
            const a = look(g); g.restore(); return a.concat(look(g)); },  // a new width resets the context
    () => { g.fillStyle = '#654321'; g.restore(); return look(g); },  // ... and its saved levels
    () => { g.save(); g.setTransform(2, 0, 0, 2, 7, 8); g.save(); g.setTransform(new DOMMatrix([1, 0, 0, 1, 4, 4]));
            g.resetTransform(); g.transform(1, 0.5, 0, 1, 0, 0); const a = look(g); g.restore(); const b = look(g);
            g.restore(); return a.concat(b, look(g)); },
    () => { g.save(); g.fillStyle = "#7f7f7f80"; g.globalAlpha = '0.5'; g.lineWidth = {valueOf: () => 4}; g.font = 'nonsense';
            const a = look(g); g.restore(); return a.concat(look(g)); },  // converted or ignored as the context does
    () => { if (!g.reset) return 'no reset'; g.save(); g.font = '9px serif'; g.fillStyle = '#fff'; g.reset(); g.restore();
            return look(g); },
    () => { o.save(); o.font = '14px serif'; o.fillStyle = '#0f0'; o.translate(2, 2); o.save(); o.rotate(1);
            o.globalAlpha = 0.3; const a = look(o); o.restore(); const b = look(o); o.restore(); return a.concat(b, look(o)); },
    () => { g.fillStyle = '#111'; g.lineWidth = 3; g.save(); g.save(); g.lineWidth = 4; g.restore(); g.fillStyle = '#222';
            g.save(); g.restore(); g.globalAlpha = 0.5; const a = look(g); g.restore(); return a.concat(look(g)); },
  ];
})()"""

RUN = "(off) => { const steps = " + STEPS + """; const out = [];
  steps.forEach((step, k) => { if (k === off) self.__crumbQaPaint(false); out.push(step()); });
  return {out, read: self.__crumbQaPaint ? self.__crumbQaPaint() : null}; }"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameServer]:
    root: Path = tmp_path_factory.mktemp("quiet-canvas")
    (root / "index.html").write_text(PAGE)
    with GameServer(root) as server:
        yield server


def run(browser: Any, site: GameServer, script: str | None, off: int = -1, steps: str = RUN) -> dict[str, Any]:
    ctx = browser.new_context()
    try:
        if script:
            ctx.add_init_script(script)
        page = ctx.new_page()
        page.goto(site.url("index.html"))
        got: dict[str, Any] = page.evaluate(steps, off)
        return got
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def painted(browser: Any, site: GameServer) -> list[Any]:
    """What the game sees on a page without any script of QA's."""
    out: list[Any] = run(browser, site, None, steps=RUN.replace("self.__crumbQaPaint(false)", "0"))["out"]
    return out


def test_a_page_that_never_paints_answers_every_call_as_a_painting_page(browser: Any, site: GameServer,
                                                                        painted: list[Any]) -> None:
    quiet = run(browser, site, NO_PAINT_JS)
    assert quiet["read"] is False
    for k, (want, got) in enumerate(zip(painted, quiet["out"], strict=True)):
        assert got == want, f"step {k}"


def test_the_painting_switch_changes_nothing_while_painting(browser: Any, site: GameServer, painted: list[Any]) -> None:
    assert run(browser, site, TWIN_PAINT_JS) == {"out": painted, "read": False}


@pytest.mark.parametrize("off", [1, 2, 3, 4, 7, 8])
def test_a_page_that_stops_painting_midway_answers_as_a_painting_page(browser: Any, site: GameServer,
                                                                      painted: list[Any], off: int) -> None:
    """The twin stops painting inside levels it saved while painting: their restores are the context's own."""
    got = run(browser, site, TWIN_PAINT_JS, off)
    assert got["read"] is False
    for k, (want, seen) in enumerate(zip(painted, got["out"], strict=True)):
        assert seen == want, f"step {k}, painting off from step {off}"


READS = """(read) => { const g = document.getElementById('c').getContext('2d');
  g.save(); g.fillStyle = '#123'; g.globalAlpha = 0.5;
  const quiet = [g.fillStyle, g.globalAlpha, g.font, g.getTransform().a, g.measureText('x').width > 0];
  const shape = new Path2D(); shape.rect(0, 0, 10, 10); g.translate(20, 0);  // the game's own path, as it stands
  quiet.push(g.isPointInPath(shape, 25, 5), g.isPointInPath(shape, 5, 5));
  const before = self.__crumbQaPaint();
  ({path: () => g.isPointInPath(1, 1), stroke: () => g.isPointInStroke(1, 1), dash: () => g.getLineDash(),
    filter: () => { g.filter = 'blur(2px)'; return g.filter; }, colour: () => { g.fillStyle = 'not a colour'; return g.fillStyle; },
    alpha: () => { g.globalAlpha = 7; return g.globalAlpha; }, current: () => { g.shadowColor = 'currentColor'; return g.shadowColor; },
    pixels: () => g.getImageData(0, 0, 1, 1)})[read]();
  return {quiet, before, after: self.__crumbQaPaint()}; }"""


@pytest.mark.parametrize("read", ["path", "stroke", "dash", "filter", "colour", "alpha", "current", "pixels"])
def test_a_read_a_page_without_painting_cannot_answer_is_noted(browser: Any, site: GameServer, read: str) -> None:
    """Paths are not built and some values are not worked out while painting is off: reading them marks the
    page, and the runner checks the game again with those pages painting."""
    got = run(browser, site, NO_PAINT_JS, read, steps=READS)
    assert got["quiet"] == ["#112233", 0.5, "10px sans-serif", 1, True, True, False] and got["before"] is False, got
    assert got["after"] is True, got


def test_a_path_the_context_builds_is_emptied_as_the_game_empties_it(browser: Any, site: GameServer) -> None:
    """A path the context builds while painting is off (roundRect) must go when the game begins a new one:
    Chromium moves the current path along with every transform change, so a path that only grew made 60 s
    of the match-3 game cost 3 s of CPU on a probe page instead of 0.5 s."""
    steps = """() => { const g = document.getElementById('c').getContext('2d');
      g.beginPath(); g.roundRect(0, 0, 10, 10, 2); const kept = g.isPointInPath(5, 5);
      g.beginPath(); return {out: [kept, g.isPointInPath(5, 5)]}; }"""
    assert run(browser, site, None, steps=steps)["out"] == [True, False]
    assert run(browser, site, NO_PAINT_JS, steps=steps)["out"] == [True, False]
