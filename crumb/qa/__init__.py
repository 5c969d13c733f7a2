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

from crumb.qa.browser import BrowserNotFound, find_chromium
from crumb.qa.runner import QARunner, run_qa

__all__ = ["BrowserNotFound", "QARunner", "find_chromium", "run_qa"]
