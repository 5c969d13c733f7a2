"""A game's CSS animations, transitions and Web Animations run on QA's game clock (crumb/qa/css_clock.py).

QA's fake clock runs game time far faster than real time. Before, the browser's own animations kept to
real time, so a working DOM game whose logic waits for one to end failed its probes: css_animated scores
when its pop (CSS animation), its bar (CSS transition) and its dot (Web Animation) end, and each probe
below failed ("pops expected == 1, got 0"). Every probe runs on a page of its own, on a real Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from crumb.qa import QARunner
from tests.qa.conftest import GAMES, criteria, probe

pytestmark = pytest.mark.browser

GAME = GAMES / "css_animated"


PRESSED = [{"do": "start"}, {"do": "key", "key": " "}]

ENDS = probe("ends", [*PRESSED, {"do": "wait", "ms": 1000}],
             [{"path": "pops", "op": "==", "value": 1}, {"path": "slides", "op": "==", "value": 1},
              {"path": "dots", "op": "==", "value": 1}])
# the play step's autopilot presses Space every 100 ms of game time: a pop ends every 300-400 ms
PLAYED = probe("played", [{"do": "start"}, {"do": "play", "ms": 2000}], [{"path": "pops", "op": ">=", "value": 4},
                                                                       {"path": "pops", "op": "<=", "value": 7}])
# part way through the 300 ms pop (the key is held 2 frames, then 150 ms: 0.39 of the fade left at game time):
# nothing has ended, and the box is partly faded
MIDWAY = probe("midway", [*PRESSED, {"do": "wait", "ms": 150}],
               [{"path": "pops", "op": "==", "value": 0}, {"path": "slides", "op": "==", "value": 0},
                {"path": "dots", "op": "==", "value": 0}, {"path": "opacity", "op": ">", "value": 0.3},
                {"path": "opacity", "op": "<", "value": 0.7}])
# an end is heard at the game time it comes, not later: 433 ms after the key went down, the pop (300 ms) and
# the dot (400 ms) have ended and the bar (500 ms) has not
JUST_AFTER = probe("just_after", [*PRESSED, {"do": "wait", "ms": 400}],
                   [{"path": "pops", "op": "==", "value": 1}, {"path": "dots", "op": "==", "value": 1},
                    {"path": "slides", "op": "==", "value": 0}])
# the 1 s spinner, from the page's load: a probe page settles 0.5 s, Enter is held 2 frames, then 3 s: three
# iterations end in those 3.53 s of game time, not more (and not none, as in real time)
ITERATIONS = probe("iterations", [{"do": "start"}, {"do": "wait", "ms": 3000}],
                   [{"path": "iterations", "op": "==", "value": 3}])
# an animation the game paused itself stays where it was
HELD = probe("held", [{"do": "start"}, {"do": "wait", "ms": 2000}], [{"path": "heldAt", "op": "==", "value": 0}])


def test_a_game_that_waits_for_its_animations_to_end_passes(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(ENDS, PLAYED), controls=[" "])
    assert [(p.id, p.ok) for p in result.probes] == [("ends", True), ("played", True)], result.probes
    assert result.ok, result.model_dump_json(indent=1)


def test_animations_move_with_game_time_not_at_once(runner: QARunner) -> None:
    """Ending every animation at once would pass the test above; here each is where game time puts it."""
    result = runner.check(GAME, criteria=criteria(MIDWAY, JUST_AFTER, ITERATIONS), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"midway": True, "just_after": True, "iterations": True}, result.probes


def test_an_animation_the_game_paused_stays_paused(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(HELD), controls=[" "])
    assert [(p.id, p.ok) for p in result.probes] == [("held", True)], result.probes


INLINE = """<!doctype html><html><body>
<div id="bar" style="height: 16px; width: 0; background: #36c" ontransitionend="slides++"></div><script>
// No style sheet: the transition is the element's own, set from the script once the round starts; a key
// fills the bar 100 ms later, in the middle of QA's wait (so only a watch of the DOM can see it begin). Its end
// is heard by a handler written in the markup.
let phase = 'title', slides = 0;
const bar = document.getElementById('bar');
addEventListener('keydown', (e) => {
  if (phase === 'title') { phase = 'playing'; bar.style.transition = 'width 500ms linear'; return; }
  setTimeout(() => { bar.style.width = (40 + 40 * slides) + 'px'; }, 100);
});
window.__crumb = { state: () => ({ phase, slides, width: parseFloat(getComputedStyle(bar).width) }) };
</script></body></html>"""


def test_a_transition_of_an_elements_own_style_set_from_the_script_ends_at_its_game_time(runner: QARunner,
                                                                                         tmp_path: Path) -> None:
    """A page whose style sheets declare no animation has its attributes left unwatched (a DOM game moving its
    sprites by their style on every frame would pay for it), until its script gives an element a transition;
    and an end is waited for only where the page listens for one, here in its markup."""
    (tmp_path / "index.html").write_text(INLINE)
    halfway = probe("halfway", [*PRESSED, {"do": "wait", "ms": 300}],
                    [{"path": "slides", "op": "==", "value": 0}, {"path": "width", "op": ">", "value": 10},
                     {"path": "width", "op": "<", "value": 25}])
    ended = probe("ended", [*PRESSED, {"do": "wait", "ms": 700}], [{"path": "slides", "op": "==", "value": 1}])
    result = runner.check(tmp_path, criteria=criteria(halfway, ended), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"halfway": True, "ended": True}, result.probes
