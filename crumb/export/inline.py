"""One self-contained HTML file from a game folder: scripts and styles inlined, every other file a data: URI.

Pure: the folder comes in as {path: bytes}, the page goes out as text. A game made of several files
(the embedded studio writes five) must still play, and still pass `crumb qa`, from this one file:

- `<script src>` and `<link rel=stylesheet>` become inline elements (a `defer` or `async` script a data: URI
  in its `src`, so it still runs when it did); `</script` and `<!--` inside a
  script (and `</style` inside a style) are escaped so the HTML parser cannot end the element early.
- `src`, `href`, `poster` and CSS `url()` naming a file of the folder become data: URIs, and so does a
  quoted string in a script that is exactly a file's path (`"sprites/hero.png"`, `fetch('level.json')`).
- ES modules: a relative `import ... from "./x.js"` becomes an import of a data: URI holding x.js with
  its own imports rewritten the same way; a cycle of imports cannot be written so and is refused.
"""

from __future__ import annotations

import base64
import mimetypes
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit


class InlineError(ValueError):
    """The folder cannot become one file; the message says why and what to do instead."""


@dataclass
class Inlined:
    html: str
    inlined: list[str] = field(default_factory=list)  # files now inside the page
    missing: list[str] = field(default_factory=list)  # local references to files the folder does not have


_TAG = re.compile(r"<(script|link|img|audio|video|source|track|input|image|embed|object|iframe)\b([^>]*)>", re.I)
_SCRIPT_BLOCK = re.compile(r"(<script\b[^>]*>)(.*?)(</script\s*>)", re.I | re.S)
_STYLE_BLOCK = re.compile(r"(<style\b[^>]*>)(.*?)(</style\s*>)", re.I | re.S)
_ATTR = re.compile(r"""(\s)([a-zA-Z:-]+)(?:(\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)""", re.I)
_CSS_IMPORT = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)["']?\s*\)?\s*;""", re.I)
_MODULE_SPEC = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"'\n]+)\2""")
_URL_ATTRS = ("src", "href", "poster", "data", "xlink:href")
_TEXT = (".js", ".mjs", ".cjs", ".css", ".html", ".htm")


def mime(path: str) -> str:
    guessed = mimetypes.guess_type(path)[0]
    if path.endswith((".js", ".mjs", ".cjs")):
        return "text/javascript"
    return guessed or "application/octet-stream"


def data_uri(path: str, content: bytes) -> str:
    return f"data:{mime(path)};base64,{base64.b64encode(content).decode('ascii')}"


def _local(base: str, url: str) -> str | None:
    """The folder path a URL names from a file in `base` ('' is the folder), or None when it is not local."""
    url = url.strip()
    if not url or url.startswith(("#", "//")) or urlsplit(url).scheme:
        return None
    path = unquote(urlsplit(url).path)
    if not path:
        return None
    joined = posixpath.normpath(path.lstrip("/") if path.startswith("/") else posixpath.join(base, path))
    return None if joined.startswith("..") else joined


def escape_script(js: str) -> str:
    """Text that cannot close or comment out the <script> element around it; the same program."""
    return re.sub(r"<!--", r"<\\!--", re.sub(r"</(script)", r"<\\/\1", js, flags=re.I))


def escape_style(css: str) -> str:
    return re.sub(r"</(style)", r"<\\/\1", css, flags=re.I)


class _Page:
    """One inlining pass over a folder."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self.files = dict(files)
        self.result = Inlined("")
        assets = sorted((p for p in self.files if not p.endswith((".html", ".htm"))), key=len, reverse=True)
        self.quoted = re.compile(r"""(["'`])(?:\./)?(""" + "|".join(map(re.escape, assets)) + r""")\1""") if assets else None

    def text(self, path: str) -> str:
        if path not in self.result.inlined:
            self.result.inlined.append(path)
        return self.files[path].decode("utf-8", errors="replace")

    def uri(self, base: str, url: str) -> str:
        """A data: URI for a local reference; the URL unchanged for a remote one or a missing file."""
        path = _local(base, url)
        if path is None:
            return url
        if path not in self.files:
            if path not in self.result.missing:
                self.result.missing.append(path)
            return url
        if path.endswith((".css",)):
            return data_uri(path, self.css(path, self.text(path)).encode())
        if path not in self.result.inlined:
            self.result.inlined.append(path)
        return data_uri(path, self.files[path])

    def css(self, path: str, text: str) -> str:
        base = posixpath.dirname(path) if path.endswith(".css") else ""

        def imported(m: re.Match[str]) -> str:
            target = _local(base, m.group(1))
            if target is None or target not in self.files:
                return m.group(0)
            return self.css(target, self.text(target))

        def url(m: re.Match[str]) -> str:
            ref = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            return f'url("{self.uri(base, ref)}")' if _local(base, ref) else m.group(0)
        return _CSS_URL.sub(url, _CSS_IMPORT.sub(imported, text))

    def script(self, text: str) -> str:
        """A classic script's text with quoted file paths (relative to the page) as data: URIs."""
        if self.quoted is None:
            return text
        return self.quoted.sub(lambda m: m.group(1) + self.uri("", m.group(2)) + m.group(1), text)

    def module(self, path: str, text: str, stack: tuple[str, ...]) -> str:
        """A module's text with each relative import a data: URI of the imported module (recursively)."""
        base = posixpath.dirname(path)

        def spec(m: re.Match[str]) -> str:
            target = _local(base, m.group(3))
            if target is None or target not in self.files:
                return m.group(0)
            if target in stack:
                raise InlineError(f"{' → '.join((*stack, target))} import each other: a cycle of modules cannot "
                                  "be put in one file; export --zip or --itch instead")
            inner = self.module(target, self.text(target), (*stack, target))
            return f"{m.group(1)}{m.group(2)}{data_uri(target, inner.encode())}{m.group(2)}"
        return self.script(_MODULE_SPEC.sub(spec, text))


def _attrs(raw: str) -> dict[str, str]:
    return {m.group(2).lower(): next((g for g in (m.group(5), m.group(6), m.group(7)) if g is not None), "")
            for m in _ATTR.finditer(raw)}


def _set(raw: str, name: str, value: str | None) -> str:
    """The attributes text with `name` set to `value` (removed when None)."""
    def sub(m: re.Match[str]) -> str:
        if m.group(2).lower() != name:
            return m.group(0)
        return "" if value is None else f'{m.group(1)}{m.group(2)}="{value}"'
    return _ATTR.sub(sub, raw)


def inline_game(files: Mapping[str, bytes], entry: str = "index.html") -> Inlined:
    """The page `entry` of the folder `files` as one file. Raises InlineError when it cannot be."""
    if entry not in files:
        raise InlineError(f"the game has no {entry}: nothing to export")
    page = _Page(files)
    html = page.text(entry)
    out: list[str] = []
    pos = 0
    # blocks first: inline <script> and <style> keep their text, rewritten but never re-parsed as tags
    blocks = sorted([*_SCRIPT_BLOCK.finditer(html), *_STYLE_BLOCK.finditer(html)], key=lambda m: m.start())
    for m in blocks:
        if m.start() < pos:
            continue
        out.append(_tags(page, html[pos:m.start()]))
        out.append(_block(page, m))
        pos = m.end()
    out.append(_tags(page, html[pos:]))
    page.result.html = "".join(out)
    return page.result


def _block(page: _Page, m: re.Match[str]) -> str:
    open_tag, body, close = m.group(1), m.group(2), m.group(3)
    if open_tag.lower().startswith("<style"):
        return open_tag + escape_style(page.css("", body)) + close
    attrs = _attrs(open_tag[len("<script"):-1])
    src = attrs.get("src")
    is_module = attrs.get("type", "").strip().lower() == "module"
    if src is not None:
        path = _local("", src)
        if path is None or path not in page.files:
            if path is not None and path not in page.result.missing:
                page.result.missing.append(path)
            return m.group(0)
        text = page.text(path)
        inner = page.module(path, text, (path,)) if is_module else page.script(text)
        rest = open_tag[len("<script"):-1]
        if not is_module and ("defer" in attrs or "async" in attrs):  # inline, it would run at once: keep its timing
            return "<script" + _set(rest, "src", data_uri(path, inner.encode())) + ">" + close
        return "<script" + _set(rest, "src", None) + ">" + escape_script(inner) + close
    if attrs.get("type", "text/javascript").strip().lower() not in ("text/javascript", "module", "application/javascript", ""):
        return m.group(0)  # data blocks (JSON, templates) are left as they are
    inner = page.module("index.html", body, ()) if is_module else page.script(body)
    return open_tag + escape_script(inner) + close


def _tags(page: _Page, html: str) -> str:
    def tag(m: re.Match[str]) -> str:
        name, raw = m.group(1).lower(), m.group(2)
        attrs = _attrs(raw)
        if name == "link":
            rel = attrs.get("rel", "").lower().split()
            href = attrs.get("href", "")
            path = _local("", href)
            if "stylesheet" in rel and path is not None and path in page.files:
                return f"<style>{escape_style(page.css(path, page.text(path)))}</style>"
        for attr in _URL_ATTRS:
            if attr in attrs and _local("", attrs[attr]) is not None:
                raw = _set(raw, attr, page.uri("", attrs[attr]))
        if "srcset" in attrs:
            parts = [p.strip().split(None, 1) for p in attrs["srcset"].split(",") if p.strip()]
            raw = _set(raw, "srcset", ", ".join(" ".join([page.uri("", p[0]), *p[1:]]) for p in parts))
        return f"<{m.group(1)}{raw}>"
    return _TAG.sub(tag, html)
