"""Shared fixtures for QA tests: one warm runner (real Chromium) and the corpus of small games."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.protocol.game import Criterion
from crumb.qa import BrowserNotFound, QARunner, find_chromium
from crumb.settings import QASettings

GAMES = Path(__file__).parent / "games"
# Short limits so the hanging games fail fast; still far above what a healthy game needs.
FAST = QASettings(load_timeout_s=4.0, probe_timeout_s=6.0, timeout_s=60.0)


def criteria(*items: dict) -> list[Criterion]:
    return [Criterion.model_validate(c) for c in items]


def probe(cid: str, steps: list[dict], expect: list[dict]) -> dict:
    """A criterion named by its id alone, as `criteria` takes it."""
    return {"id": cid, "text": cid, "probe": {"steps": steps, "expect": expect}}


TIMER_10 = {"id": "timer", "text": "The round ends after 10 seconds",
            "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 11000}],
                      "expect": [{"path": "phase", "op": "in", "value": ["over", "won"]},
                                 {"path": "timeLeft", "op": "<=", "value": 0}]}}
SCORE_UP = {"id": "score", "text": "The score goes up while playing",
            "probe": {"steps": [{"do": "start"}, {"do": "play", "ms": 3000}],
                      "expect": [{"path": "score", "op": "increased"}]}}
GOOD_CRITERIA = json.loads((GAMES / "good-criteria.json").read_text())["criteria"]


HOARD = """<script>
setTimeout(() => { const hoard = []; for (let i = 0; i < 64; i++) { const b = new Uint8Array(32 << 20); b.fill(7); hoard.push(b); } window.hoard = hoard; }, 50);
</script></body>"""


@pytest.fixture
def memory_hog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game that hoards 2 GB of ArrayBuffers (outside V8's heap cap) 50 ms into its game time, and QA's
    browser limit at 512 MB for the runners made from now on."""
    from crumb.qa import limits

    chromium_or_skip()
    monkeypatch.setattr(limits, "MEMORY_MB", 512)
    game = tmp_path / "ballast"
    game.mkdir()
    (game / "index.html").write_text((GAMES / "mini" / "index.html").read_text().replace("</body>", HOARD))
    return game


def chromium_or_skip() -> Path:
    try:
        return find_chromium()
    except BrowserNotFound as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def runner() -> Iterator[QARunner]:
    chromium_or_skip()
    qa = QARunner(FAST)
    yield qa
    qa.close()


def browser_pids(root: int | None = None) -> list[int]:
    """Chromium processes below `root` (default: this test process)."""
    from crumb import procfs

    out = []
    for pid in procfs.descendants(root or os.getpid()):
        cmd = procfs.cmdline(pid).split(b"\0")[0].split(b" ")[0]
        if b"chrom" in Path(cmd.decode(errors="replace")).name.encode():  # chromium rewrites helpers' argv
            out.append(pid)
    return out


