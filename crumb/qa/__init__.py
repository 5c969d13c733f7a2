"""Deterministic QA: run a built game in real headless Chromium and report what a player would notice.

    from crumb.qa import QARunner, run_qa
    with QARunner() as qa:
        result = qa.check(Path("sessions/X/artifacts/game"), criteria=spec.criteria,
                          out_dir=Path("sessions/X/artifacts/qa"))

Screenshots land in out_dir as start.png, input.png, end.png; QAResult.screenshots lists them relative
to out_dir's grandparent, i.e. "artifacts/qa/start.png" for a session's artifacts/qa folder. The
filmstrip (film.py) goes into out_dir/<film> ("round-K" in a session); QAResult.files lists every file
written, with sha256.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crumb.lazy import exports

if TYPE_CHECKING:  # what each name is; at run time each is imported when first read (__getattr__)
    from crumb.qa.browser import BrowserNotFound, find_chromium
    from crumb.qa.runner import QARunner, run_qa

#: exported name → its module. Finding the browser (browser.py) or starting QA's driver early (boot.py)
#: must not load the runner: with the protocol's models, Pillow and the page code it takes ~0.2 s.
__getattr__ = exports(__name__, {"BrowserNotFound": "browser", "find_chromium": "browser", "QARunner": "runner",
                                 "run_qa": "runner"})

__all__ = ["BrowserNotFound", "QARunner", "find_chromium", "run_qa"]
