"""The static stage: what can be told about a game folder without running it.

Entry exists and parses, every local reference resolves inside the folder, nothing points at the
network, the folder fits the budgets, and the files are the ones the build's manifest measured.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from crumb.protocol.game import Finding, Manifest, Severity
from crumb.settings import QASettings

TEXT_SUFFIXES = {".html", ".htm", ".css", ".js", ".mjs", ".cjs", ".json", ".svg"}
# XML namespace names look like URLs but are never fetched.
_NAMESPACE = re.compile(r"^https?://www\.w3\.org/")
_REMOTE_SCHEMES = ("http:", "https:", "ws:", "wss:", "ftp:")
# A remote URL as a string literal in JS (comments are not strings, so a license link is not flagged).
_JS_URL = re.compile(r"""(?<![\w\\])(["'`])\s*((?:https?|wss?|ftp):)?//[A-Za-z0-9\[][^\s"'`]*""")
_CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')\s]+)\1\s*\)|@import\s+(["'])([^"']+)\3""", re.I)
_URL_ATTRS = {"src", "href", "poster", "data", "action", "formaction", "manifest", "background"}
_IGNORE_SCHEMES = ("data:", "blob:", "javascript:", "mailto:", "about:", "#")


@dataclass
class StaticReport:
    ok: bool = True
    entry_ok: bool = False
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0

    def add(self, code: str, message: str, severity: Severity = "Important") -> None:
        self.findings.append(Finding(code=code, severity=severity, message=message))
        self.errors.append(message)
        if severity != "Minor":
            self.ok = False


class _Refs(HTMLParser):
    """Collects URL-bearing attributes and inline script/style text; notes unclosed raw-text tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str]] = []  # (tag, url)
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.stylesheets: list[str] = []
        self.tags: set[str] = set()
        self._raw: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        values = {k.lower(): (v or "") for k, v in attrs}
        for name, value in values.items():
            if name in _URL_ATTRS and value.strip():
                self.urls.append((tag, value.strip()))
            elif name == "srcset":
                for part in value.split(","):
                    if part.strip():
                        self.urls.append((tag, part.strip().split()[0]))
            elif name == "style":
                self.styles.append(value)
        if tag == "link" and "stylesheet" in values.get("rel", "").lower() and values.get("href"):
            self.stylesheets.append(values["href"].strip())
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            match = re.search(r"url\s*=\s*['\"]?([^'\"]+)", values.get("content", ""), re.I)
            if match:
                self.urls.append(("meta", match.group(1).strip()))
        if tag in ("script", "style"):
            self._raw = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == self._raw:
            self._raw = None

    def handle_data(self, data: str) -> None:
        if self._raw == "script":
            self.scripts.append(data)
        elif self._raw == "style":
            self.styles.append(data)

    @property
    def unclosed(self) -> str | None:
        return self._raw


def is_remote(url: str) -> bool:
    low = url.strip().lower()
    return low.startswith("//") or low.startswith(_REMOTE_SCHEMES)


def remote_urls_in_js(text: str) -> list[str]:
    out = []
    for match in _JS_URL.finditer(text):
        url = match.group(0)[1:].strip()
        if url.startswith("//") and match.group(2) is None and not re.match(r"//[\w.-]+\.[a-z]{2,}", url, re.I):
            continue  # "//" inside an ordinary string, not a host
        if not _NAMESPACE.match(url):
            out.append(url)
    return out


def css_urls(text: str) -> list[str]:
    return [m.group(2) or m.group(4) for m in _CSS_URL.finditer(text)]


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root)
        return True
    except (ValueError, OSError, RuntimeError):
        return False


def resolve_ref(root: Path, base_dir: Path, url: str) -> Path | None:
    """The file a local URL names (query and fragment dropped; "/x" is the folder root), or None."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    path = unquote(parts.path)
    if not path:
        return None
    return (root / path.lstrip("/")) if path.startswith("/") else (base_dir / path)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def _walk(root: Path, report: StaticReport) -> list[Path]:
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        for name in list(dirnames):
            if (here / name).is_symlink():
                dirnames.remove(name)
                if not _inside(root, here / name):
                    report.add("outside_folder", f"{(here / name).relative_to(root)} is a symlink out of the game folder")
        for name in filenames:
            path = here / name
            if path.is_symlink() and not _inside(root, path):
                report.add("outside_folder", f"{path.relative_to(root)} is a symlink out of the game folder")
                continue
            try:
                regular = stat.S_ISREG(path.stat().st_mode)
            except OSError:  # a link to nothing, or a file that went away
                regular = False
            if not regular:  # a FIFO would block every read of it; a device or socket is no game file
                report.add("not_a_file", f"{path.relative_to(root)} is not a regular file (a pipe, socket, device or "
                                         "broken link): skipped; a game folder holds only files")
                continue
            files.append(path)
    return files


def _check_ref(root: Path, base_dir: Path, url: str, where: str, report: StaticReport) -> None:
    if url.lower().startswith(_IGNORE_SCHEMES):
        return
    if is_remote(url):
        report.add("remote_url", f"{where} loads a remote URL {url}: bundle the file into the game folder")
        return
    if urlsplit(url).scheme:
        report.add("outside_folder", f"{where} references {url}: only files inside the game folder may be used")
        return
    target = resolve_ref(root, base_dir, url)
    if target is None:
        return
    if not _inside(root, target):
        report.add("outside_folder", f"{where} references {url}, which is outside the game folder")
    elif not target.is_file():
        report.add("missing_asset", f"{where} references {url}, which does not exist in the game folder")


def check_static(game_dir: Path, entry: str = "index.html", manifest: Manifest | None = None,
                 settings: QASettings | None = None) -> StaticReport:
    """Never raises for a bad game: every problem becomes a finding."""
    settings = settings or QASettings()
    report = StaticReport()
    if not game_dir.is_dir():
        report.add("missing_entry", f"game folder {game_dir} does not exist", "Critical")
        return report
    root = game_dir.resolve()
    entry_path = root / entry
    if not _inside(root, entry_path):
        report.add("outside_folder", f"entry {entry} is outside the game folder", "Critical")
        return report
    if not entry_path.is_file():
        report.add("missing_entry", f"entry {entry} not found in {game_dir}: the game needs an {entry}", "Critical")
        return report

    files = _walk(root, report)
    report.files = len(files)
    report.bytes = sum(p.stat().st_size for p in files if p.exists())
    if report.files > settings.max_files:
        report.add("too_many_files", f"{report.files} files in the game folder, the budget is {settings.max_files}")
    if report.bytes > settings.max_bytes:
        report.add("too_large", f"the game folder holds {report.bytes} bytes, the budget is {settings.max_bytes}")

    try:
        html = entry_path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        report.add("bad_html", f"{entry} is not UTF-8 text", "Critical")
        return report
    parser = _Refs()
    parser.feed(html)
    parser.close()
    report.entry_ok = True
    if parser.unclosed:
        report.add("bad_html", f"{entry}: a <{parser.unclosed}> element is never closed", "Critical")
    for tag, url in parser.urls:
        if tag == "a" and not is_remote(url):
            continue  # a link is navigation, not a load; local ones need not exist
        _check_ref(root, root, url, f"{entry} <{tag}>", report)
    for css in parser.styles:
        for url in css_urls(css):
            _check_ref(root, root, url, f"{entry} inline style", report)
    for js in parser.scripts:
        for url in remote_urls_in_js(js):
            report.add("remote_url", f"{entry} inline script names a remote URL {url}: games must not use the network")

    for path in files:
        rel = path.relative_to(root).as_posix()
        if path.suffix.lower() not in TEXT_SUFFIXES or rel == entry or path.stat().st_size > 2_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix.lower() == ".css":
            for url in css_urls(text):
                _check_ref(root, path.parent, url, rel, report)
        elif path.suffix.lower() in {".js", ".mjs", ".cjs"}:
            for url in remote_urls_in_js(text):
                report.add("remote_url", f"{rel} names a remote URL {url}: games must not use the network")
        elif path.suffix.lower() in {".html", ".htm"}:
            sub = _Refs()
            sub.feed(text)
            for tag, url in sub.urls:
                if is_remote(url):
                    _check_ref(root, path.parent, url, f"{rel} <{tag}>", report)

    if manifest is not None:
        _check_manifest(root, files, manifest, report)
    return report


def _check_manifest(root: Path, files: list[Path], manifest: Manifest, report: StaticReport) -> None:
    on_disk = {p.relative_to(root).as_posix(): p for p in files}
    listed = {PurePosixPath(f.path).as_posix().removeprefix("./"): f for f in manifest.files}
    for rel, entry in sorted(listed.items()):
        path = on_disk.get(rel)
        if path is None:
            report.add("manifest_mismatch", f"{rel} is in the build manifest but missing on disk")
        elif sha256_file(path) != entry.sha256:
            report.add("manifest_mismatch", f"{rel} changed after the build (sha256 differs from the manifest)")
    for rel in sorted(set(on_disk) - set(listed)):
        report.add("manifest_mismatch", f"{rel} is on disk but not in the build manifest")
