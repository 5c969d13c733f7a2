"""A game's `<audio>` and `<video>` elements run on QA's game clock (crumb/qa/media_clock.py).

A media element keeps real time, and QA's fake clock runs game time far faster: before, media_clock, a game
that plays its next clip when the last has ended and keeps its song's time by an `<audio>`'s currentTime,
failed every probe below ("clips expected == 3, got 0"; its song had moved 0.02 s in 2 s of game time).
Every probe runs on a page of its own, on a real Chromium."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from crumb.qa import QARunner
from tests.qa.conftest import GAMES, criteria, probe

pytestmark = pytest.mark.browser

GAME = GAMES / "media_clock"
PRESSED = [{"do": "start"}, {"do": "key", "key": " "}]


# Enter starts the song and the 0.7 s loop; Space (held 2 frames, 34 ms) plays the clips. 0.954 s after Space
# went down: three 0.3 s clips, one after another, have ended, and the 0.5 s sample once
ENDED = probe("ended", [*PRESSED, {"do": "wait", "ms": 920}],
              [{"path": "clips", "op": "==", "value": 3}, {"path": "samples", "op": "==", "value": 1}])
# 0.554 s after: the first clip has ended, the second has not, and the sample has ended
MIDWAY = probe("midway", [*PRESSED, {"do": "wait", "ms": 520}],
               [{"path": "clips", "op": "==", "value": 1}, {"path": "samples", "op": "==", "value": 1}])
# the song is at the game time since Enter went down (2.068 s), the loop wrapped to 2.068 - 2 x 0.7, never ended
SONG = probe("song", [*PRESSED, {"do": "wait", "ms": 2000}],
             [{"path": "song", "op": ">", "value": 2.06}, {"path": "song", "op": "<", "value": 2.08},
              {"path": "beat", "op": ">", "value": 0.66}, {"path": "beat", "op": "<", "value": 0.68},
              {"path": "beatEnds", "op": "==", "value": 0}, {"path": "songEnded", "op": "==", "value": False}])
# the 4 s song, 5 s of game time after Enter: ended once, paused at its end, after a timeupdate every 250 ms of
# game time (15) and one at its end, and one pause (the browser's own, at the real stop, is not passed on)
SONG_END = probe("song_end", [{"do": "start"}, {"do": "wait", "ms": 5000}],
                 [{"path": "song", "op": "==", "value": 4}, {"path": "songEnded", "op": "==", "value": True},
                  {"path": "songPaused", "op": "==", "value": True}, {"path": "songEnds", "op": "==", "value": 1},
                  {"path": "ticks", "op": "==", "value": 16}, {"path": "pauses", "op": "==", "value": 1}])
# P pauses the song 1.068 s after Enter: 2 s later it is still there
PAUSED = probe("paused", [*PRESSED, {"do": "wait", "ms": 1000}, {"do": "key", "key": "p"}, {"do": "wait", "ms": 2000}],
               [{"path": "song", "op": ">", "value": 1.06}, {"path": "song", "op": "<", "value": 1.08},
                {"path": "songPaused", "op": "==", "value": True}, {"path": "pauses", "op": "==", "value": 1},
                {"path": "songEnds", "op": "==", "value": 0}])


def test_a_game_timed_by_its_media_is_judged_on_game_time(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(ENDED, MIDWAY, SONG), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"ended": True, "midway": True, "song": True}, result.probes
    assert not [f for f in result.findings if f.code in ("page_error", "hang")], result.findings


def test_a_song_ends_and_pauses_on_game_time(runner: QARunner) -> None:
    result = runner.check(GAME, criteria=criteria(SONG_END, PAUSED), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"song_end": True, "paused": True}, result.probes


def test_a_clip_the_browser_ended_in_real_time_ends_once_on_game_time(runner: QARunner) -> None:
    """H keeps the page busy for 1 s of real time while game time stands still, so the browser's own ends of
    the clip and the sample come first, at once after it; the game hears only the ends sent on game time: one
    clip ended, not two, the sample once, and its `once` listener, which the browser's end would have used
    up, heard it (once: it is gone after)."""
    heavy = [*PRESSED, {"do": "key", "key": "h"}]
    # the blip's metadata came while the page was busy: its end is at its game time, 0.1 s (0.168 s here), not at
    # the next timeupdate
    blip = probe("blip", [*heavy, {"do": "wait", "ms": 100}],
                 [{"path": "blips", "op": "==", "value": 1}, {"path": "clips", "op": "==", "value": 0}])
    mid = probe("mid", [*heavy, {"do": "wait", "ms": 450}],  # 0.518 s after Space went down
                [{"path": "clips", "op": "==", "value": 1}, {"path": "samples", "op": "==", "value": 1},
                 {"path": "onces", "op": "==", "value": 1}, {"path": "blips", "op": "==", "value": 1}])
    # and again, long after: three clips more, the sample once more, and only the new `once` listener heard it
    again = probe("again", [*heavy, {"do": "wait", "ms": 1000}, {"do": "key", "key": " "}, {"do": "wait", "ms": 1000}],
                  [{"path": "clips", "op": "==", "value": 6}, {"path": "samples", "op": "==", "value": 2},
                   {"path": "onces", "op": "==", "value": 2}])
    result = runner.check(GAME, criteria=criteria(blip, mid, again), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"blip": True, "mid": True, "again": True}, result.probes


AUTOPLAY = """<!doctype html><html><body><canvas id="c" width="100" height="50"></canvas>
<video id="intro" src="intro.wav" autoplay onended="watched++"></video><script>
// An intro of 1 s that the browser plays by itself (autoplay); its end is heard by a handler in the markup. H keeps
// the page busy for 0.6 s of real time while game time stands still (the intro has begun by then).
const realNow = () => (self.__pwClock ? __pwClock.builtins.performance : performance).now();
let phase = 'title', watched = 0;
addEventListener('keydown', (e) => {
  if (phase === 'title') { phase = 'playing'; return; }
  if (e.key === 'h') { const t0 = realNow(); while (realNow() - t0 < 600); }
});
window.__crumb = { state: () => ({ phase, watched }) };
</script></body></html>"""


def test_an_element_the_browser_autoplays_ends_on_game_time(runner: QARunner, tmp_path: Path) -> None:
    """An element the game never played itself is taken when the browser starts it, at a game time between the
    load and the end of H (0.568 s): 1 s of game time after H it has ended, once, and not before it."""
    (tmp_path / "index.html").write_text(AUTOPLAY)
    with wave.open(str(tmp_path / "intro.wav"), "wb") as w:
        w.setparams((1, 1, 8000, 0, "NONE", "not compressed"))  # 8-bit mono at 8 kHz: 1 s of silence
        w.writeframes(bytes([128]) * 8000)
    busy = [{"do": "start"}, {"do": "key", "key": "h"}]
    early = probe("early", busy, [{"path": "watched", "op": "==", "value": 0}])
    ended = probe("ended", [*busy, {"do": "wait", "ms": 1000}], [{"path": "watched", "op": "==", "value": 1}])
    result = runner.check(tmp_path, criteria=criteria(early, ended), controls=[" "])
    assert {p.id: p.ok for p in result.probes} == {"early": True, "ended": True}, result.probes
