"""End to end: a session's own [settings.qa] (crumb.toml, recorded in session.start) is what its QA uses,
although the daemon's one warm runner was built with the defaults."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from crumb.store import paths
from tests.daemon.conftest import RunningDaemon, drop, events, sessions
from tests.qa.test_settings import png_size
from tests.wait import wait_until

pytestmark = pytest.mark.browser

CRUMB_TOML = """\
[settings.qa]
max_bytes = 1000
viewport = [400, 300]

[settings.budgets]
fixes = 0
redesigns = 0
"""


def test_the_qa_of_a_session_uses_the_sessions_own_qa_settings(root: Path, qa_runner: Any) -> None:
    (root / "crumb.toml").write_text(CRUMB_TOML)
    with RunningDaemon(root, qa_runner):
        drop(root / "inbox", "pitch.txt", "60-second snake\n")
        sid = wait_until(lambda: sessions(root) and sessions(root)[0], 30, "a session")
        qa = wait_until(lambda: events(root, sid, "qa.result"), 180, "the session's qa.result")[0]["data"]
    recorded = events(root, sid, "session.start")[0]["data"]["settings"]["qa"]
    assert recorded["max_bytes"] == 1000 and recorded["viewport"] == [400, 300]
    # max_bytes: the game (several kB) is over the session's budget, which the finding names
    large = [f for f in qa["findings"] if f["code"] == "too_large"]
    assert large and large[0]["message"].endswith("the budget is 1000"), qa["findings"]
    assert not qa["ok"] and not qa["static_ok"]
    # viewport: the game's canvas is larger than the session's window; the screenshots show the window
    sdir = paths.session_dir(root, sid)
    html = (sdir / "artifacts" / "game" / "index.html").read_text()
    canvas = tuple(int(v) for v in re.search(r'<canvas[^>]*width="(\d+)"[^>]*height="(\d+)"', html).groups())  # type: ignore[union-attr]
    assert canvas[0] > 400 or canvas[1] > 300, canvas
    width, height = png_size(sdir / "artifacts" / "qa" / "start.png")
    assert width <= 400 and height <= 300 and (width, height) != canvas, (width, height, canvas)
