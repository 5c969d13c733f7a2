"""Pages that judge state() alone do not paint: the probe pages, and the main check's twin (the run without
input) once state() tells the runs apart.

What a user relies on: every fact is measured, whichever pages painted. A game that reads its own canvas
pixels, or whose state() does not show what input does, is checked again with both runs painting, and
the result says so; a game whose state() shows input is checked once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crumb.protocol.game import Criterion
from crumb.qa import QARunner
from crumb.qa import runner as runner_module
from tests.qa.conftest import FAST, GAMES, GOOD_CRITERIA, chromium_or_skip

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>html, body {{ margin: 0; background: #000; }} canvas {{ display: block; }}</style></head>
<body><canvas id="game" width="320" height="240"></canvas><script>
(() => {{
  const canvas = document.getElementById("game"), g = canvas.getContext("2d");
  let phase = "title", frames = 0, x = 160, red = false;
  addEventListener("keydown", (e) => {{ if (phase === "title") phase = "playing"; {on_key} }});
  addEventListener("pointerdown", () => {{ if (phase === "title") phase = "playing"; }});
  function frame() {{
    frames++;
    g.fillStyle = `rgb(${{frames % 256}}, 40, 90)`; g.fillRect(0, 0, 320, 240);
    g.fillStyle = "#fff"; g.fillRect(x - 10, 200, 20, 20);
    if (phase === "playing") {{ g.fillStyle = "#f00"; g.fillRect(0, 0, 4, 4); red = g.getImageData(1, 1, 1, 1).data[0] > 200; }}
    requestAnimationFrame(frame);
  }}
  requestAnimationFrame(frame);
  window.__crumb = {{ version: 1, genre: "test", seed: 1, state() {{ return {state}; }} }};
}})();
</script></body></html>
"""

GOOD = [Criterion.model_validate(c) for c in GOOD_CRITERIA]

# Ignores input, but state() reports a pixel of its own canvas: the twin's, after it stopped painting, stays
# the colour it had then, while the played tab's goes on changing. Without the guard, that difference
# would read as "responds to input".
READS_PIXELS = PAGE.format(title="reads pixels", on_key="",
                           state='{ phase, pixel: [...g.getImageData(5, 5, 1, 1).data] }')
# Started, it paints a red corner and reads it back: its state() says so only on a page that paints.
READS_ITS_DRAWING = PAGE.format(title="reads its drawing", on_key="", state="{ phase, red }")
SEES_RED = Criterion.model_validate({"id": "red", "text": "Once started, the corner is red",
                                     "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 200}],
                                               "expect": [{"path": "red", "op": "==", "value": True}]}})
# Ignores input, and takes its state() away in its first frame: there at load, gone once settled.
HOOK_GONE = PAGE.format(title="hook gone", on_key="", state="{ phase }").replace(
    "requestAnimationFrame(frame);\n  window.__crumb", "requestAnimationFrame(() => { delete window.__crumb; });\n  window.__crumb", 1)
# Moves with the arrow keys, but state() does not say so: only the pictures of the two runs show it.
STATE_HIDES_INPUT = PAGE.format(title="state hides input",
                                on_key='if (e.key === "ArrowLeft") x -= 20; if (e.key === "ArrowRight") x += 20;',
                                state="{ phase }")


def game(tmp_path: Path, name: str, html: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "index.html").write_text(html)
    return folder


@pytest.fixture(scope="module")
def qa() -> QARunner:
    chromium_or_skip()
    runner = QARunner(FAST)
    yield runner
    runner.close()


def codes(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.code for f in result.findings]


def test_a_game_whose_state_shows_input_is_checked_once(qa: QARunner) -> None:
    """On a browser's first check, then on a warm one: the twin of a game whose state() is there once loaded
    stops painting before the game's clock first runs, and state() alone tells the runs apart."""
    for _ in range(2):
        result = qa.check(GAMES / "good", criteria=GOOD)
        assert result.ok and result.input_responds is True, result.model_dump_json(indent=1)
        assert result.rechecked is None and [p.ok for p in result.probes] == [True] * len(GOOD), result.probes


def test_a_game_reading_its_own_pixels_is_checked_again_with_both_runs_painting(qa: QARunner, tmp_path: Path) -> None:
    result = qa.check(game(tmp_path, "reads_pixels", READS_PIXELS), controls=["ArrowLeft"])
    assert result.input_responds is False and "no_input_response" in codes(result), result.model_dump_json(indent=1)
    assert result.rechecked is not None and "read its canvas's pixels" in result.rechecked \
        and "both runs of the main check painting" in result.rechecked, result.rechecked


def test_a_twin_started_without_painting_for_a_hook_that_then_goes_is_not_compared_by_pictures(
        qa: QARunner, tmp_path: Path) -> None:
    result = qa.check(game(tmp_path, "hook_gone", HOOK_GONE), controls=["ArrowLeft"])
    assert result.hook is False and result.input_responds is False and "no_input_response" in codes(result), \
        result.model_dump_json(indent=1)
    assert result.rechecked is not None and result.rechecked.startswith("state() was there"), result.rechecked


def test_input_that_only_the_pictures_show_still_counts(qa: QARunner, tmp_path: Path) -> None:
    result = qa.check(game(tmp_path, "hides", STATE_HIDES_INPUT), controls=["ArrowLeft"])
    assert result.input_responds is True and "no_input_response" not in codes(result), result.model_dump_json(indent=1)
    assert result.rechecked is not None and result.rechecked.startswith("state() did not tell"), result.rechecked


def test_a_probe_on_a_game_computing_from_its_pixels_is_judged_on_a_painting_page(qa: QARunner,
                                                                                  tmp_path: Path) -> None:
    result = qa.check(game(tmp_path, "reads_its_drawing", READS_ITS_DRAWING), criteria=[SEES_RED])
    assert [(p.id, p.ok) for p in result.probes] == [("red", True)], result.model_dump_json(indent=1)
    assert result.rechecked is not None and "on a probe page" in result.rechecked \
        and "its probe pages painting" in result.rechecked, result.rechecked


def test_without_time_for_a_second_run_input_is_not_taken_to_work(qa: QARunner, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "_room_left", lambda settings, used_s: False)
    result = qa.check(game(tmp_path, "reads_pixels", READS_PIXELS), controls=["ArrowLeft"])
    assert result.input_responds is None and not result.ok, result.model_dump_json(indent=1)
    unchecked = [f.message for f in result.findings if f.code == "input_unchecked"]
    assert unchecked and "read its canvas's pixels" in unchecked[0] \
        and "to check again with both runs of the main check painting" in unchecked[0], result.findings
    assert result.rechecked is None


def test_without_time_for_a_second_run_a_probe_is_not_taken_to_pass(qa: QARunner, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Here the unpainted probe page happens to fail the probe; what matters is that the result names why
    no probe result stands, instead of one measured on pixels that were never painted."""
    monkeypatch.setattr(runner_module, "_room_left", lambda settings, used_s: False)
    result = qa.check(game(tmp_path, "reads_its_drawing", READS_ITS_DRAWING), criteria=[SEES_RED])
    assert not result.ok and [p.ok for p in result.probes] == [False], result.model_dump_json(indent=1)
    assert "probes_unchecked" in codes(result) and result.rechecked is None
