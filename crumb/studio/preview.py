"""The game preview, served from a second port so a game is another origin than the Studio.

A built game is untrusted code. It runs in an iframe sandboxed with scripts only (an opaque
origin), under a CSP that forbids any network (`connect-src 'none'`), and this server shows
nothing but the files of the game folder. So a game can neither read nor call the Studio.

WebRTC is the one channel no header closes: Chromium ignores CSP's `webrtc 'block'` and no permissions
policy covers `RTCPeerConnection`. So every game page starts with static/preview-guard.js, which removes
the WebRTC constructors from the page's realm; that holds only while the page can start no other realm,
so (measured in Chromium): in a sandbox without allow-same-origin each child frame has an opaque origin
of its own, cross-origin to the page; a srcdoc frame, document.write() and javascript: URLs — the ways to
give a child frame or the page a script of its own — are refused by the guard's Trusted Types default
policy (`require-trusted-types-for 'script'; trusted-types default`); a page whose own HTML declares a
srcdoc frame is not served; workers are refused (and have no WebRTC); popups need allow-popups; the Studio
page's `frame-src` keeps the frame's navigations on this server, where any document but a game page (SVG,
XHTML, …) is sent without scripts. Browsers without Trusted Types keep the srcdoc route open.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from crumb.studio import data
from crumb.studio.security import Guard, GuardMiddleware

GAME_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; "
    "connect-src 'none'; worker-src 'none'; frame-src 'none'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; sandbox allow-scripts; frame-ancestors {ancestors}; "
    "require-trusted-types-for 'script'; trusted-types default"
)


#: The first thing a game page runs: no WebRTC constructor is left in its realm, no other realm can start.
GUARD = b"<script>" + (Path(__file__).parent / "static" / "preview-guard.js").read_bytes() + b"</script>"

# A BOM, comments and the doctype stay first: a script before the doctype would put the page in quirks mode.
_HEAD = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*(?:<!doctype[^>]*>)?", re.IGNORECASE | re.DOTALL)


_SRCDOC = re.compile(rb"srcdoc", re.IGNORECASE)


def game_page(html: bytes) -> bytes | None:
    """The game's HTML with GUARD before any script of its own; None for a page the guard cannot hold:
    one whose markup may declare a srcdoc frame (any mention of srcdoc: telling markup from script text
    exactly as the browser does is a parser's job, and a mismatch would be a way out), or UTF-16 (a BOM
    the charset header cannot override). A game's scripts may mention srcdoc: the guard refuses it there."""
    if html.startswith((b"\xff\xfe", b"\xfe\xff")) or _SRCDOC.search(html):
        return None
    m = _HEAD.match(html)
    cut = m.end() if m else 0
    return html[:cut] + GUARD + html[cut:]


def game_headers(ancestors: str, *, scripts: bool = True) -> dict[str, str]:
    """Headers for a game file; `scripts=False` for any document but a game page (it runs no script)."""
    csp = GAME_CSP.format(ancestors=ancestors)
    return {
        "content-security-policy": csp if scripts else csp.replace("sandbox allow-scripts", "sandbox"),
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
    }


def create_preview_app(root: Path, guard: Guard, studio_origins: Iterable[str]) -> Starlette:
    """The preview server: GET /s/<session>/<path> from that session's game folder, nothing else."""
    ancestors = " ".join(studio_origins) or "'none'"
    headers, inert = game_headers(ancestors), game_headers(ancestors, scripts=False)

    def refuse(status: int, text: str) -> Response:
        return PlainTextResponse(text + "\n", status_code=status, headers=inert)

    def serve(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return refuse(405, "the preview only serves game files (GET)")
        session = request.path_params["session"]
        rel = request.path_params.get("path") or "index.html"
        if not data.valid_session(session):
            return refuse(404, f"no session {session!r}")
        gdir, _ = data.game_dir(root, session)
        target = data.inside(gdir, rel)
        if target is None:
            return refuse(404, f"{rel!r} is not a file of this game")
        media = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if media == "text/html":
            page = game_page(target.read_bytes())
            if page is None:
                return refuse(403, f"{rel!r} mentions srcdoc in its HTML (or is UTF-16), which the preview does not run: "
                                   "a srcdoc frame would escape the preview's WebRTC guard; move that code into a .js file")
            return Response(page, media_type="text/html; charset=utf-8", headers=headers)
        return FileResponse(target, media_type=media, headers=inert)

    return Starlette(
        routes=[Route("/s/{session}/{path:path}", serve, methods=["GET", "HEAD", "POST", "PUT", "DELETE"])],
        middleware=[Middleware(GuardMiddleware, guard=guard)],
    )
