"""The Studio's routes: two HTML shells, a JSON API, one SSE stream per session page.

Pages are static shells; scripts fetch JSON and render with textContent only, and the page CSP
allows no inline script, so text from pitches, agents and games can never become markup.
"""

from __future__ import annotations

import asyncio
import html
import mimetypes
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec
from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from crumb.batch.plan import PlanError
from crumb.daemon import rejected
from crumb.daemon.files import InboxWriteError
from crumb.export.gamefiles import GameFilesError
from crumb.protocol.errors import one_line
from crumb.store.paths import session_dir, transcript_path
from crumb.studio import actions, batches, data, history
from crumb.studio import compare as studio_compare
from crumb.studio.panels import PanelFeed, PanelUpdate
from crumb.studio.security import Guard, GuardMiddleware
from crumb.studio.tail import WAKE, Line, TailHub, event_frame

HERE = Path(__file__).parent
PAGE_LIMIT = 200
MAX_PAGE = 1000
MAX_BACKLOG = 2000
KEEPALIVE_S = 15.0

def other_site(host: str) -> str:
    """The preview's host name: another site than the Studio's where one exists (127.0.0.1 ↔ localhost),
    so the browser runs the game in a renderer process of its own and a spinning game cannot stall the
    Studio's tab. A LAN name has no such twin and stays as it is."""
    if host == "localhost" or host == "[::1]":
        return "127.0.0.1"
    if host.startswith("127."):
        return "localhost"
    return host


PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' {stream}; "
    "frame-src {preview}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# The batch report: crumb/report's page as is (inline styles, SVG plots), no script at all
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'")
BATCH_POLL_S = 0.25  # how often an open batch page's stream looks at runs.jsonl (one stat)
FILE_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; img-src 'self'; sandbox",
    "cache-control": "no-store",
}


class StudioConfig:
    """What the routes need to know about this launch."""

    def __init__(self, root: Path, guard: Guard, preview_port: int, stream_port: int | None = None) -> None:
        self.root = root
        self.guard = guard
        self.preview_port = preview_port
        self.stream_port = stream_port  # None: the pages stream from the Studio's own port
        self.hub = TailHub()


def _json(obj: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(obj), status_code=status, media_type="application/json",
                    headers={"cache-control": "no-store"})


def _error(message: str, status: int = 400) -> Response:
    return _json({"error": message}, status)


def _validation_message(err: ValidationError) -> str:
    return one_line(err, plain=True)


def _event_page(lines: list[Line], first: int, last: int) -> bytes:
    """A page of events as JSON without re-encoding the stored lines."""
    head = msgspec.json.encode({"first": first, "last": last})[:-1]
    return head + b',"events":[' + b",".join(raw for _, raw in lines) + b"]}"


def create_app(cfg: StudioConfig) -> Starlette:
    root = cfg.root
    templates = {p.name: p.read_text() for p in (HERE / "templates").glob("*.html")}

    def shell(name: str, request: Request, **values: str) -> Response:
        host = request.url.hostname or "127.0.0.1"
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        preview = f"{request.url.scheme}://{other_site(host)}:{cfg.preview_port}"
        values = {k: v.replace("{{preview}}", preview) for k, v in values.items()}
        stream = f"{request.url.scheme}://{host}:{cfg.stream_port}" if cfg.stream_port else ""
        text = templates[name]
        for key, value in {"token": cfg.guard.token, "preview": preview, "stream": stream, **values}.items():
            text = text.replace("{{" + key + "}}", html.escape(value, quote=True))
        return HTMLResponse(text, headers={"content-security-policy": PAGE_CSP.format(preview=preview, stream=stream),
                                           "x-content-type-options": "nosniff", "referrer-policy": "same-origin",
                                           "cache-control": "no-store"})

    def session_or_404(request: Request) -> str | Response:
        sid = request.path_params["session"]
        if not data.valid_session(sid):
            return _error(f"{sid!r} is not a session id (26 characters, a ULID)", 404)
        return sid

    def started_or_404(request: Request) -> str | Response:
        """A session whose transcript exists (the daemon has taken its pitch), for what reads its rounds."""
        sid = session_or_404(request)
        if isinstance(sid, Response) or transcript_path(root, sid).is_file():
            return sid
        return _error(actions.not_started(sid), 404)

    async def index(request: Request) -> Response:
        return shell("index.html", request)

    reports: dict[Path, tuple[tuple[tuple[int, int], ...], str]] = {}  # batch folder → (runs.jsonl stamp, report page)

    def batch_or_404(request: Request) -> Path | Response:
        name = request.path_params["batch"]
        folder = batches.folder_of(root, name)
        if folder is None:
            return _error(f"no batch {name[:100]!r} under batches/; the Studio lists them at /", 404)
        return folder

    async def batch_page(request: Request) -> Response:
        folder = batch_or_404(request)
        if isinstance(folder, Response):
            return PlainTextResponse("no such batch; go back to / for the list\n", status_code=404)
        return shell("batch.html", request, batch=folder.name)

    async def batch_report(request: Request) -> Response:
        """The batch's HTML report (plots, tables, gallery), its links into the Studio's pages."""
        folder = batch_or_404(request)
        if isinstance(folder, Response):
            return folder
        at = batches.stamp(folder)
        hit = reports.get(folder)
        if hit is None or hit[0] != at:
            try:
                hit = reports[folder] = (at, await asyncio.to_thread(batches.report_html, folder))
            except PlanError as err:
                return _error(str(err), 500)
        return HTMLResponse(hit[1], headers={"content-security-policy": REPORT_CSP, "x-content-type-options": "nosniff",
                                             "referrer-policy": "same-origin", "cache-control": "no-store"})

    async def batch_compare(request: Request) -> Response:
        """Two set-ups of the batch side by side (`?a=SETUP&b=SETUP`: names, or numbers as batch.toml lists them)."""
        folder = batch_or_404(request)
        if isinstance(folder, Response):
            return folder
        try:
            text = await asyncio.to_thread(studio_compare.setups_html, folder, request.query_params.get("a", ""),
                                           request.query_params.get("b", ""))
        except LookupError as err:
            return PlainTextResponse(f"{err}\n", status_code=404)
        except PlanError as err:
            return _error(str(err), 500)
        return HTMLResponse(text, headers={"content-security-policy": REPORT_CSP, "x-content-type-options": "nosniff",
                                           "referrer-policy": "same-origin", "cache-control": "no-store"})

    def api_batches(request: Request) -> Response:
        return _json({"batches": batches.batch_list(root)})

    def api_batch(request: Request) -> Response:
        folder = batch_or_404(request)
        if isinstance(folder, Response):
            return folder
        try:
            return _json(batches.matrix(folder))
        except PlanError as err:
            return _error(str(err), 500)

    async def session_page(request: Request) -> Response:
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return PlainTextResponse("no such session; go back to / for the list\n", status_code=404)
        return shell("session.html", request, session=sid)

    async def compare_page(request: Request) -> Response:
        """Two sessions side by side (`/compare?a=ID&b=ID`, ids or a unique prefix or suffix of one)."""
        from crumb.store.paths import resolve_session
        from crumb.store.reader import TranscriptError

        try:
            a, b = (resolve_session(root, request.query_params.get(k, "")) for k in ("a", "b"))
        except LookupError as err:
            return PlainTextResponse(f"{err}: compare takes two sessions, /compare?a=ID&b=ID\n",
                                     status_code=404)
        try:
            text = await asyncio.to_thread(studio_compare.compare_html, root, a, b)
        except (OSError, TranscriptError) as err:
            return PlainTextResponse(f"cannot read a session: {err}\n", status_code=500)
        return HTMLResponse(text, headers={"content-security-policy": REPORT_CSP, "x-content-type-options": "nosniff",
                                           "referrer-policy": "same-origin", "cache-control": "no-store"})

    async def play_page(request: Request) -> Response:
        """The "Open" link: the game full-page, still in the sandboxed iframe under this page's frame-src,
        so opened on its own a game can navigate nowhere (top-level it could go anywhere)."""
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return PlainTextResponse("no such session; go back to / for the list\n", status_code=404)
        _, entry = data.game_dir(root, sid)
        path = "/".join(quote(part) for part in entry.split("/"))
        return shell("play.html", request, src="{{preview}}" + f"/s/{sid}/{path}")

    async def api_sessions(request: Request) -> Response:
        """A page of the session list, newest first; `next` is the `before` of the following page."""
        before = request.query_params.get("before") or None
        try:
            limit = int(request.query_params.get("limit", data.SESSION_PAGE))
            if not 1 <= limit <= data.MAX_SESSION_PAGE:
                raise ValueError
        except ValueError:
            return _error(f"limit must be a whole number from 1 to {data.MAX_SESSION_PAGE}", 400)
        if before is not None and not data.valid_session(before):
            return _error(f"before={before[:40]!r} is not a session id: pass the `next` of the previous page", 400)
        filters = {k: request.query_params.get(k, "")[:200] for k in data.FILTERS}
        page = await asyncio.to_thread(data.session_page, root, limit=limit, before=before, filters=filters)
        return _json({**page, "daemon": actions.daemon_state(root)})

    def api_session(request: Request) -> Response:
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        if not transcript_path(root, sid).is_file():
            refused = rejected.find(root, sid)
            return _json({"session": sid, "pending": True, "daemon": actions.daemon_state(root),
                          "rejected": refused.model_dump() if refused else None})
        try:
            body = data.session_detail_json(root, sid)
        except Exception as err:  # a damaged transcript: say which line, keep serving the rest
            return _error(data.damaged(root, sid, err), 500)
        return Response(body, media_type="application/json", headers={"cache-control": "no-store"})

    async def api_events(request: Request) -> Response:
        """A page of the timeline: the newest `limit` events before `before`, or those after `after`."""
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        try:
            limit = min(int(request.query_params.get("limit", PAGE_LIMIT)), MAX_PAGE)
            if limit < 1:
                raise ValueError
            before = request.query_params.get("before")
            after = request.query_params.get("after")
            tail = cfg.hub.tail(transcript_path(root, sid))  # on the loop: the tail is not thread-safe
            tail.catch_up()
            if after is not None:
                first, last = int(after) + 1, int(after) + limit
            else:
                end = int(before) - 1 if before is not None else tail.last_seq
                first, last = end - limit + 1, end
        except ValueError:
            return _error(f"before, after and limit must be whole numbers (limit 1 to {MAX_PAGE})", 400)
        lines = tail.lines(first, last)
        body = _event_page(lines, lines[0][0] if lines else 0, tail.last_seq)
        return Response(body, media_type="application/json", headers={"cache-control": "no-store"})

    def api_file(request: Request) -> Response:
        """A file of the session (screenshot, log, spec): images inline, everything else as plain text."""
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        rel = request.path_params["path"]
        target = data.inside(session_dir(root, sid), rel)
        if target is None:
            return _error(f"{rel!r} is not a file inside session {sid}", 404)
        media = data.IMAGE_TYPES.get(target.suffix.lower())
        if media:
            return FileResponse(target, media_type=media, headers=FILE_HEADERS)
        text, cut = data.read_text(target)
        if cut:
            text = f"[… showing the last {data.MAX_TEXT // 1024} KiB]\n" + text
        return PlainTextResponse(text, headers=FILE_HEADERS)

    async def api_rounds(request: Request) -> Response:
        sid = started_or_404(request)
        if isinstance(sid, Response):
            return sid
        try:
            return _json({"session": sid, "rounds": await asyncio.to_thread(history.rounds, root, sid)})
        except GameFilesError as err:
            return _error(str(err), 500)

    async def api_diff(request: Request) -> Response:
        """The game's files from round N-1 to round N (?round=N), one unified diff per changed file."""
        sid = started_or_404(request)
        if isinstance(sid, Response):
            return sid
        try:
            number = int(request.query_params.get("round", ""))
        except ValueError:
            return _error("round must be a whole number: ?round=2 compares round 1 with round 2")
        try:
            return _json({"session": sid, **await asyncio.to_thread(history.diff, root, sid, number)})
        except ValueError as err:
            return _error(str(err), 404)
        except GameFilesError as err:
            return _error(str(err), 500)

    async def api_download(request: Request) -> Response:
        """The game as a zip, as `crumb export --zip` writes it (game/, spec.md, verdict.json, README.md)."""
        sid = started_or_404(request)
        if isinstance(sid, Response):
            return sid
        try:
            name, body = await asyncio.to_thread(history.download, root, sid)
        except GameFilesError as err:
            return _error(str(err), 404)
        return Response(body, media_type="application/zip", headers={
            "content-disposition": f'attachment; filename="{name}"', "cache-control": "no-store",
            "x-content-type-options": "nosniff"})

    async def api_spec(request: Request) -> Response:
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        return await inbox_write(request, actions.SpecEdit, lambda req: actions.edit_spec(root, sid, req))

    def api_presets(request: Request) -> Response:
        return _json({"presets": actions.presets(root), "default": actions.configured_preset(root),
                      "roles": list(actions.ROLES), "harnesses": actions.harnesses()})

    def api_daemon(request: Request) -> Response:
        return _json(actions.daemon_state(root))

    async def body_json(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > 2 * actions.MAX_TEXT:
            raise actions.BadRequest("request body too large; keep messages under 64 KiB")
        try:
            obj = msgspec.json.decode(raw or b"{}")
        except msgspec.DecodeError:
            raise actions.BadRequest("request body is not JSON; send {\"text\": ...}") from None
        if not isinstance(obj, dict):
            raise actions.BadRequest("request body must be a JSON object")
        return obj

    async def inbox_write(request: Request, form: type[BaseModel], act: Callable[[Any], Any], *,
                          refused: int = 409) -> Response:
        """The body checked as `form`, then `act` (which drops an inbox file) run off the event loop: 201 with
        what it says; 400 for a body that does not validate, `refused` for what it refuses, 500 when the
        inbox cannot be written."""
        try:
            req = form.model_validate(await body_json(request))
            return _json(await asyncio.to_thread(act, req), 201)
        except ValidationError as err:
            return _error(_validation_message(err))
        except actions.BadRequest as err:
            return _error(str(err), refused)
        except InboxWriteError as err:
            return _error(str(err), 500)

    async def api_pitch(request: Request) -> Response:
        return await inbox_write(request, actions.PitchForm, lambda req: actions.pitch(root, req), refused=400)

    async def api_fork(request: Request) -> Response:
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        return await inbox_write(request, actions.ForkForm, lambda req: actions.fork(root, sid, req))

    async def api_steer(request: Request) -> Response:
        sid = session_or_404(request)
        if isinstance(sid, Response):
            return sid
        return await inbox_write(request, actions.SteerRequest, lambda req: actions.steer(root, sid, req))

    async def api_daemon_start(request: Request) -> Response:
        try:
            return _json(await asyncio.to_thread(actions.start_daemon, root))
        except actions.DaemonFailed as err:
            log = actions.daemon_log(root).relative_to(root)
            return _error(f"the daemon exited at once: {err} (its log: {log})", 500)
        except OSError as err:
            return _error(f"could not start the daemon: {err}; run `crumb --root {root} watch` by hand", 500)

    routes = [
        Route("/", index),
        Route("/s/{session}", session_page),
        Route("/s/{session}/play", play_page),
        Route("/compare", compare_page),
        Route("/api/sessions", api_sessions),
        Route("/api/sessions/{session}", api_session),
        Route("/api/sessions/{session}/events", api_events),
        Route("/api/sessions/{session}/stream", EventStream(cfg)),
        Route("/api/sessions/{session}/file/{path:path}", api_file),
        Route("/api/sessions/{session}/steer", api_steer, methods=["POST"]),
        Route("/api/sessions/{session}/fork", api_fork, methods=["POST"]),
        Route("/api/sessions/{session}/spec", api_spec, methods=["POST"]),
        Route("/api/sessions/{session}/rounds", api_rounds),
        Route("/api/sessions/{session}/diff", api_diff),
        Route("/api/sessions/{session}/download", api_download),
        Route("/api/pitch", api_pitch, methods=["POST"]),
        Route("/b/{batch}", batch_page),
        Route("/b/{batch}/report", batch_report),
        Route("/b/{batch}/compare", batch_compare),
        Route("/api/batches", api_batches),
        Route("/api/batches/{batch}", api_batch),
        Route("/api/batches/{batch}/stream", BatchStream(cfg)),
        Route("/api/presets", api_presets),
        Route("/api/daemon", api_daemon),
        Route("/api/daemon/start", api_daemon_start, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(GuardMiddleware, guard=cfg.guard)],
                     exception_handlers={404: _not_found, 405: _wrong_method})


def create_stream_app(cfg: StudioConfig, guard: Guard, studio_origins: Iterable[str]) -> Starlette:
    """The pages' event streams, on a port of their own. A browser opens at most six connections to one
    host and port, and each open stream holds one for good: on the Studio's port, six open pages would
    leave none for the pages' own requests (steering would hang) and a seventh page would not load."""
    origins = frozenset(studio_origins)
    return Starlette(routes=[Route("/api/sessions/{session}/stream", EventStream(cfg, origins)),
                             Route("/api/batches/{batch}/stream", BatchStream(cfg, origins))],
                     middleware=[Middleware(GuardMiddleware, guard=guard)],
                     exception_handlers={404: _not_found, 405: _wrong_method})


async def _not_found(request: Request, exc: Exception) -> Response:
    """An unknown address: one line saying where the Studio's pages are."""
    return _error(f"nothing at {request.url.path}; the Studio's pages are / (sessions) and /s/<session id>", 404)


async def _wrong_method(request: Request, exc: Exception) -> Response:
    allowed = getattr(exc, "headers", None) or {}
    methods = allowed.get("Allow", "another method")
    return _error(f"{request.method} is not allowed on {request.url.path}; use {methods}", 405)


class BatchStream:
    """SSE of one batch's matrix: a `matrix` event at once, then one each time runs.jsonl or a running
    cell's transcript changes (a stat of each every BATCH_POLL_S while the page is open)."""

    def __init__(self, cfg: StudioConfig, cors: frozenset[str] = frozenset()) -> None:
        self.cfg = cfg
        self.cors = cors

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        folder = batches.folder_of(self.cfg.root, scope["path_params"]["batch"])
        if folder is None:
            await _error("no such batch", 404)(scope, receive, send)
            return
        gone = asyncio.Event()

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        loop = asyncio.get_running_loop()
        watcher = loop.create_task(watch_disconnect())
        origin = request.headers.get("origin")
        cors = [(b"access-control-allow-origin", origin.encode())] if origin in self.cors else []
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"), *cors]})
            await send({"type": "http.response.body", "body": b"retry: 1000\n\n", "more_body": True})
            seen: tuple[tuple[int, int], ...] | None = None
            moving: list[str] = []  # the running cells' sessions, whose transcripts move their phase
            sent_at = loop.time()
            while not gone.is_set() and not self.cfg.hub.closed:
                at = batches.stamp(folder, moving)
                if at != seen:
                    try:
                        m = await asyncio.to_thread(batches.matrix, folder)
                        now_moving = batches.running(m)
                        # the stamp was taken before the read, so a change during it shows next time; a new
                        # set of running sessions has no stamp yet: read once more next time
                        seen = at if now_moving == moving else None
                        moving = now_moving
                        body = b"event: matrix\ndata: %s\n\n" % msgspec.json.encode(m)
                    except PlanError as err:
                        seen = at
                        body = b"event: failure\ndata: %s\n\n" % msgspec.json.encode({"error": str(err)})
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                    sent_at = loop.time()
                elif loop.time() - sent_at > KEEPALIVE_S:
                    await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                    sent_at = loop.time()
                try:
                    await asyncio.wait_for(gone.wait(), BATCH_POLL_S)  # a poll interval, ended early by a disconnect
                except TimeoutError:
                    pass
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass
        finally:
            watcher.cancel()


class EventStream:
    """SSE of one transcript: `id:` is seq; a reconnect with Last-Event-ID resumes exactly after it.

    After the backlog comes a `panels` event with every panel of the page, then one whenever panels
    change (only those that did): tabs never refetch the session detail per event.

    Subscribes before reading the backlog and skips anything at or below the last seq sent, so a
    line appended during the hand-over is delivered once: no loss, no duplicates.
    """

    def __init__(self, cfg: StudioConfig, cors: frozenset[str] = frozenset()) -> None:
        self.cfg = cfg
        self.cors = cors  # origins of the Studio's pages, when served on the stream port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        sid = scope["path_params"]["session"]
        if not data.valid_session(sid):
            await _error(f"{sid!r} is not a session id", 404)(scope, receive, send)
            return
        try:
            last = int(request.headers.get("last-event-id") or request.query_params.get("after") or 0)
        except ValueError:
            await _error("Last-Event-ID must be a seq number", 400)(scope, receive, send)
            return
        hub = self.cfg.hub
        tail, sub = hub.subscribe(transcript_path(self.cfg.root, sid))
        if tail.feed is None:
            root = self.cfg.root
            tail.feed = PanelFeed(lambda: data.session_panels(root, sid), tail.broadcast, lambda: tail.last_seq)
        gone = asyncio.Event()
        quiet = [True]  # nothing sent since the last keepalive tick

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            sub.wake()

        async def keepalive() -> None:
            while True:
                await asyncio.sleep(KEEPALIVE_S)
                if quiet[0]:
                    sub.wake()
                quiet[0] = True

        loop = asyncio.get_running_loop()
        # one wait per item on the queue alone: a task and asyncio.wait per item per tab cost more than
        # the item itself, fifty tabs over (tests/studio/test_stream.py; bench/studio.py)
        watcher, ticker = loop.create_task(watch_disconnect()), loop.create_task(keepalive())
        try:
            origin = request.headers.get("origin")
            cors = [(b"access-control-allow-origin", origin.encode())] if origin in self.cors else []
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"), *cors]})
            tail.catch_up()
            last = await self._backlog(send, tail, last)
            shown = await self._panels(send, tail.feed)
            while not gone.is_set():
                batch = await sub.queue.get()
                if batch is None or gone.is_set():  # server shutting down, or the page went away
                    break
                if batch == WAKE:
                    if quiet[0]:
                        await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                    continue
                quiet[0] = False
                if sub.overflowed:  # this client fell far behind: resend from the index
                    sub.overflowed = False
                    while not sub.queue.empty():
                        sub.queue.get_nowait()
                    last = await self._backlog(send, tail, last)
                    shown = await self._panels(send, tail.feed)
                    continue
                if isinstance(batch, PanelUpdate):  # the same bytes for every tab; older than the snapshot: skip
                    if batch.version > shown:
                        shown = batch.version
                        await send({"type": "http.response.body", "body": batch.frame, "more_body": True})
                    continue
                if batch.last <= last:  # already sent with the backlog
                    continue
                # the bytes framed once for every tab; only a batch straddling the backlog is framed again, in part
                if batch.first > last:
                    chunk = batch.frame
                else:
                    chunk = b"".join(event_frame(q, raw) for q, raw in batch.lines if q > last)
                last = batch.last
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client went away mid-write
        finally:
            watcher.cancel()
            ticker.cancel()
            hub.unsubscribe(tail, sub)

    async def _panels(self, send: Send, feed: PanelFeed) -> int:
        """Send every panel as it is now; return its version (queued updates up to it are already in)."""
        snap = await feed.snapshot()
        if snap is None:
            return 0
        await send({"type": "http.response.body", "body": snap.frame, "more_body": True})
        return snap.version

    async def _backlog(self, send: Send, tail: Any, last: int) -> int:
        """Send what the client has not seen; if that is a lot, send a `gap` and only the newest part."""
        start = last + 1
        if tail.last_seq - last > MAX_BACKLOG:
            start = tail.last_seq - MAX_BACKLOG + 1
            gap = msgspec.json.encode({"from": last + 1, "to": start - 1})
            await send({"type": "http.response.body", "body": b"event: gap\ndata: %s\n\n" % gap, "more_body": True})
        hello = msgspec.json.encode({"last_seq": tail.last_seq})
        out = [b"retry: 1000\nevent: hello\ndata: %s\n\n" % hello]
        for first in range(start, tail.last_seq + 1, 500):
            lines = tail.lines(first, min(first + 499, tail.last_seq))
            out.extend(event_frame(seq, raw) for seq, raw in lines)
            if lines:
                last = lines[-1][0]
        await send({"type": "http.response.body", "body": b"".join(out), "more_body": True})
        return last


mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
