"""Finding (or installing) the Chromium QA drives, and the flags it is launched with.

Order: an explicit path or CRUMB_CHROMIUM → Playwright's own downloaded browser → a system
chromium/google-chrome; within each, Chromium's headless shell first: QA never shows a window, and the
shell (what Playwright itself runs headless) starts with about 40 % less CPU than the full browser.
`python -m crumb.qa.browser --ensure` is what `make setup` runs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from crumb.qa.fence import FALLBACK_ARGS, FENCED_ARGS

ENV_VAR = "CRUMB_CHROMIUM"
SYSTEM_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
FIX = ("install one: `python -m playwright install chromium` with the Python CRUMB is installed in, "
       "or `apt install chromium` (`make browser` in a checkout does either), or set CRUMB_CHROMIUM=/path/to/chromium")

# Game pages get no DNS at all: a remote host name never resolves, only loopback does.
LAUNCH_ARGS = [
    "--disable-gpu",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
    "--js-flags=--max-old-space-size=256",  # a runaway allocation fails fast instead of eating the host
    "--disable-extensions",
    "--mute-audio",
    # only our own loopback pages ever load, so per-site processes isolate nothing; without this
    # Chromium spawns a fresh spare renderer (a quarter second of CPU) after every navigation
    "--disable-site-isolation-trials",
    "--autoplay-policy=no-user-gesture-required",
]


def launch_args(fenced: bool) -> list[str]:
    """The flags QA launches Chromium with; without a network namespace (fence.py), also WebRTC's UDP and
    QUIC off, since nothing below request interception would stop them; with one, WebRTC may use loopback
    (where nothing answers), so what a game tries with it is seen and named."""
    return LAUNCH_ARGS + (FENCED_ARGS if fenced else FALLBACK_ARGS)


class BrowserNotFound(RuntimeError):
    """No usable Chromium; the message is one line that names the fix."""


def _playwright_dirs() -> list[Path]:
    env = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if env and env != "0":
        return [Path(env)]
    home = Path.home()
    return [home / ".cache" / "ms-playwright", home / "Library" / "Caches" / "ms-playwright",
            home / "AppData" / "Local" / "ms-playwright"]


_PW_EXES = (
    "chrome-linux*/chrome",
    "chrome-linux*/headless_shell",
    "chrome-headless-shell-linux*/chrome-headless-shell",
    "chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
    "chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "chrome-win*/chrome.exe",
)


def _revision(path: Path) -> int:
    match = re.search(r"-(\d+)$", path.name)
    return int(match.group(1)) if match else 0


def playwright_browser() -> Path | None:
    """The newest Chromium that `playwright install chromium` downloaded, if any."""
    for base in _playwright_dirs():
        if not base.is_dir():
            continue
        builds = sorted(
            (d for d in base.iterdir() if d.name.startswith(("chromium-", "chromium_headless_shell-"))),
            key=lambda d: (d.name.startswith("chromium_headless_shell-"), _revision(d)),
            reverse=True,
        )
        for build in builds:
            for pattern in _PW_EXES:
                for exe in build.glob(pattern):
                    if exe.is_file() and os.access(exe, os.X_OK):
                        return exe
    return None


def find_chromium(explicit: str | None = None) -> Path:
    """Where Chromium is; raises BrowserNotFound (one line with the fix) when there is none."""
    named = explicit or os.environ.get(ENV_VAR)
    if named:
        path = Path(named).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return path
        found = shutil.which(named)
        if found:
            return Path(found)
        origin = "the explicit setting" if explicit else ENV_VAR
        raise BrowserNotFound(f"Chromium not found at {named} ({origin}): point it at an executable or unset it")
    pw = playwright_browser()
    if pw:
        return pw
    for name in SYSTEM_NAMES:
        found = shutil.which(name)
        if found:
            return _unwrapped(Path(found))
    raise BrowserNotFound(f"no Chromium found for QA: {FIX}")


def _unwrapped(path: Path) -> Path:
    """The binary behind a distribution's wrapper script, when the script names it and does not exec it
    (Debian's chromium-headless-shell): the browser's process must be the one Playwright started."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8192)
    except OSError:
        return path
    if not head.startswith(b"#!"):
        return path
    for token in re.findall(rb"/[\w./+-]+", head):
        real = Path(token.decode())
        if real.name == path.name and real != path and real.is_file() and os.access(real, os.X_OK):
            with real.open("rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    return real
    return path


def _try(cmd: list[str], timeout: float) -> bool:
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def ensure(download_timeout: float = 120.0) -> tuple[bool, str]:
    """Find a browser, else install one: Playwright's download, then the system package (as root)."""
    try:
        return True, f"chromium: found {find_chromium()}"
    except BrowserNotFound:
        pass
    if _try([sys.executable, "-m", "playwright", "install", "chromium"], download_timeout):
        try:
            return True, f"chromium: installed by Playwright at {find_chromium()}"
        except BrowserNotFound:
            pass
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}

        def install() -> bool:  # the headless shell where the distribution has it (Debian 12 does)
            return any(subprocess.run([apt, "install", "-y", package], env=env, capture_output=True).returncode == 0
                       for package in ("chromium-headless-shell", "chromium"))
        ok = install()
        if not ok:
            subprocess.run([apt, "update"], env=env, capture_output=True)
            ok = install()
        if ok:
            try:
                return True, f"chromium: installed with apt-get at {find_chromium()}"
            except BrowserNotFound:
                pass
    return False, ("chromium: could not install one (Playwright's download failed and no apt-get as root): "
                   "install chromium with your package manager, or set CRUMB_CHROMIUM=/path/to/chromium")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m crumb.qa.browser", description=__doc__.splitlines()[0])
    parser.add_argument("--ensure", action="store_true", help="install a browser when none is found")
    args = parser.parse_args(argv)
    if args.ensure:
        ok, line = ensure()
        print(line)
        return 0 if ok else 1
    try:
        print(find_chromium())
        return 0
    except BrowserNotFound as exc:
        print(exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
