"""Make docs/studio.png: the session view of a real session run by the real daemon (local preset).

Usage: .venv/bin/python -m tests.studio.screenshot [--root DIR]   (pitches and waits when DIR has no session)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ulid import ULID

from crumb.qa import find_chromium
from crumb.qa.browser import LAUNCH_ARGS
from crumb.store.paths import list_sessions
from crumb.studio.server import Studio
from tests.studio.conftest import preview_frame

DOCS = Path(__file__).resolve().parents[2] / "docs"
PITCH = "a neon snake game where eating fruit speeds you up, 60 second rounds"


def ensure_session(root: Path) -> str:
    if list_sessions(root):
        return list_sessions(root)[0]
    sid = str(ULID())
    (root / "inbox").mkdir(parents=True, exist_ok=True)
    (root / "inbox" / "pitch.txt").write_text(f"---\nsession: {sid}\npreset: local\n---\n{PITCH}\n")
    daemon = subprocess.Popen([sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')",
                               "--root", str(root), "watch"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        done = root / "sessions" / sid / "transcript.jsonl"
        while time.monotonic() < deadline and not (done.exists() and b'"kind":"done"' in done.read_bytes()):
            time.sleep(0.5)
    finally:
        daemon.terminate()
        daemon.wait(20)
    return sid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=DOCS / "studio.png")
    args = ap.parse_args()
    root = args.root or Path(tempfile.mkdtemp(prefix="crumb-shot-"))
    sid = ensure_session(root)
    from playwright.sync_api import sync_playwright

    studio = Studio(root, port=0).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(find_chromium()), args=LAUNCH_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 1180}, device_scale_factor=1)
            page.goto(f"{studio.url}s/{sid}")
            page.wait_for_selector("#events li")
            page.wait_for_selector("#shots img")
            page.wait_for_selector("iframe#preview")
            game = page.frame_locator("iframe#preview").locator("canvas")
            frame = preview_frame(page)
            frame.wait_for_function("() => window.__crumb")
            game.click()
            for _ in range(25):  # play by the game's own hints for a moment (a screenshot, not a test)
                hint = frame.evaluate("() => window.__crumb.state().hint") or []
                key = next((h["key"] for h in hint if h.get("type") == "key"), None)
                if key and key != "Enter":
                    game.press(key)
                page.wait_for_timeout(60)
            if frame.evaluate("() => window.__crumb.state().phase") != "playing":
                page.click("#preview-reload")  # show the title screen rather than a game over
                page.wait_for_timeout(800)
            page.fill("#steer-text", "@builder make the fruit glow a little more")
            page.evaluate("window.scrollTo(0, 0)")
            page.mouse.move(700, 5)
            page.screenshot(path=str(args.out))
            browser.close()
    finally:
        studio.stop()
    print(args.out)


if __name__ == "__main__":
    main()
