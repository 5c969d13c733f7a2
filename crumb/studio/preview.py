"""The game preview, served from a second port so a game is another origin than the Studio.

A built game is untrusted code. It runs in an iframe sandboxed with scripts only (an opaque
origin), under a CSP that forbids any network (`connect-src 'none'`), and this server shows
nothing but the files of the game folder. So a game can neither read nor call the Studio.
"""

from __future__ import annotations

import mimetypes
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
    "base-uri 'none'; form-action 'none'; sandbox allow-scripts; frame-ancestors {ancestors}"
)


def game_headers(ancestors: str) -> dict[str, str]:
    return {
        "content-security-policy": GAME_CSP.format(ancestors=ancestors),
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "cross-origin-opener-policy": "same-origin",
    }


def create_preview_app(root: Path, guard: Guard, studio_origins: Iterable[str]) -> Starlette:
    """The preview server: GET /s/<session>/<path> from that session's game folder, nothing else."""
    headers = game_headers(" ".join(studio_origins) or "'none'")

    def refuse(status: int, text: str) -> Response:
        return PlainTextResponse(text + "\n", status_code=status, headers=headers)

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
        return FileResponse(target, media_type=media, headers=headers)

    return Starlette(
        routes=[Route("/s/{session}/{path:path}", serve, methods=["GET", "HEAD", "POST", "PUT", "DELETE"])],
        middleware=[Middleware(GuardMiddleware, guard=guard)],
    )
