"""A game's Web Audio runs on QA's game clock (crumb/qa/audio_clock.py).

An AudioContext keeps real time, and QA's fake clock runs game time far faster: before, web_audio, a game
that plays its next tone when the last has ended and keeps its song's time by the AudioContext, failed
every probe below ("tones expected == 3, got 0"; its song clock had moved 0.02 s in 2 s of game time).
Every probe runs on a page of its own, on a real Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from crumb.qa import QARunner
from tests.qa.conftest import GAMES, criteria, probe

pytestmark = pytest.mark.browser

GAME = GAMES / "web_audio"
PRESSED = [{"do": "start"}, {"do": "key", "key": " "}]


# 0.95 s of game time after Space went down (held 2 frames, then 0.92 s): three 0.3 s tones, one after another,
# have ended, and the 0.5 s sample once
ENDED = probe("ended", [*PRESSED, {"do": "wait", "ms": 920}],
              [{"path": "tones", "op": "==", "value": 3}, {"path": "samples", "op": "==", "value": 1}])
# 0.55 s after: the first tone has ended, the second has not, and the sample has ended
MIDWAY = probe("midway", [*PRESSED, {"do": "wait", "ms": 520}],
               [{"path": "tones", "op": "==", "value": 1}, {"path": "samples", "op": "==", "value": 1}])
# the song clock is game time: 2 s of it (and the 2 frames Space was held) from the start
SONG = probe("song", [*PRESSED, {"do": "wait", "ms": 2000}],
             [{"path": "song", "op": ">", "value": 2.0}, {"path": "song", "op": "<", "value": 2.1}])


def test_a_game_timed_by_its_sound_is_judged_on_game_time(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(ENDED, MIDWAY, SONG), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"ended": True, "midway": True, "song": True}, result.probes
    assert not [f for f in result.findings if f.code in ("page_error", "hang")], result.findings


def test_a_sound_ends_once(runner: QARunner) -> None:
    """The browser's own end of a tone, which comes in real time, is not passed on as a second end: long after
    the game time of three tones, with real time passing between QA's steps, there are still three."""
    later = probe("later", [*PRESSED, {"do": "wait", "ms": 920}, {"do": "wait", "ms": 3000}, {"do": "key", "key": "x"},
                            {"do": "wait", "ms": 1000}],
                  [{"path": "tones", "op": "==", "value": 3}, {"path": "samples", "op": "==", "value": 1}])
    result = runner.check(GAME, criteria=criteria(later), controls=[" "])
    assert [(p.id, p.ok) for p in result.probes] == [("later", True)], result.probes


REMOVED = """<!doctype html><html><body><canvas id="c" width="100" height="50"></canvas><script>
// Space plays a 0.3 s tone. A listener added for its end twice, in the capture phase and not, then removed from
// both, hears nothing (the browser keeps the two apart); another counts the ends.
const audio = new AudioContext();
let phase = 'title', ends = 0, removed = 0;
const gone = () => { removed++; };
addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  if (phase === 'title') { phase = 'playing'; return; }
  const o = audio.createOscillator();
  o.connect(audio.destination);
  o.addEventListener('ended', gone); o.addEventListener('ended', gone, true);
  o.removeEventListener('ended', gone, true); o.removeEventListener('ended', gone, {capture: false});
  o.addEventListener('ended', () => { ends++; });
  o.start();
  o.stop(audio.currentTime + 0.3);
});
window.__crumb = { state: () => ({ phase, ends, removed }) };
</script></body></html>"""


def test_a_listener_removed_from_both_phases_hears_no_end(runner: QARunner, tmp_path: Path) -> None:
    """A source's `ended` listeners are kept apart by their capture flag, as the browser keeps them: one added in
    both phases and removed from both is gone, and does not hear the end sent on game time (before, the first
    removal took the listener's one wrapper out of the map, and the second left it in)."""
    (tmp_path / "index.html").write_text(REMOVED)
    ended = probe("ended", [*PRESSED, {"do": "wait", "ms": 500}],
                  [{"path": "ends", "op": "==", "value": 1}, {"path": "removed", "op": "==", "value": 0}])
    result = runner.check(tmp_path, criteria=criteria(ended), controls=[" "])
    assert [(p.id, p.ok) for p in result.probes] == [("ended", True)], result.probes
