"""A loopback HTTP server for one game folder, and nothing outside it.

Each check gets its own server on its own port, so "/x.js" means the game's own root and no game
can reach another game's files. Paths that escape the folder (.., symlinks out) get a 404.
"""

from __future__ import annotations

import mimetypes
import selectors
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
          ".json": "application/json", ".svg": "image/svg+xml", ".css": "text/css",
          ".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8"}


def safe_path(root: Path, url_path: str) -> Path | None:
    """The file under `root` a request path names, or None if it is missing or escapes the folder."""
    rel = unquote(urlsplit(url_path).path).lstrip("/")
    if "\x00" in rel:
        return None
    target = root / rel
    if target.is_dir():
        target = target / "index.html"
    try:
        real = target.resolve(strict=True)
        real.relative_to(root)
    except (OSError, ValueError, RuntimeError):
        return None
    return real if real.is_file() else None


_Request = socket.socket | tuple[bytes, socket.socket]  # what socketserver hands a TCP or UDP server


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as two writes: without this, each waits ~40 ms for an ACK

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, head_only: bool) -> None:
        path = safe_path(self.server.root, self.path)
        if path is None:
            self.server.misses.append(unquote(urlsplit(self.path).path))
            body = b"not found"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head_only:
                self.wfile.write(body)
            return
        data = path.read_bytes()
        ctype = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head_only:
            self.wfile.write(data)

    def do_GET(self) -> None:
        self._send(False)

    def do_HEAD(self) -> None:
        self._send(True)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, root: Path, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.root = root
        self.misses: list[str] = []
        self._open: set[_Request] = set()
        self._open_lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()

    def serve(self) -> None:
        """Answer until stop_serving(). socketserver's serve_forever looks for a stop once every poll
        interval, so stopping waited up to that long (at the end of every check, on QA's event loop) and
        an idle server woke that often; this one waits on its port and a wake-up socket."""
        with selectors.DefaultSelector() as sel:
            sel.register(self, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = [key.fileobj for key, _ in sel.select()]
                if self._wake_r in ready:
                    return
                self.handle_request()  # the port is ready: this accepts at once

    def stop_serving(self) -> None:
        self._wake_w.send(b"\0")

    def server_close(self) -> None:
        super().server_close()
        self._wake_r.close()
        self._wake_w.close()

    def process_request(self, request: _Request, client_address: object) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: _Request) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """End every kept-alive connection: its thread would go on answering from this folder, and a browser
        that reuses it after the port is handed to the next game would get this game's files."""
        with self._open_lock:
            conns = list(self._open)
        for conn in conns:
            try:
                if isinstance(conn, socket.socket):
                    conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request: _Request, client_address: object) -> None:
        """A page closed mid-transfer (QA closes contexts at will): not worth a traceback on stderr."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class GameServer:
    """`with GameServer(folder) as s: s.url("index.html")`: serves until the block ends."""

    def __init__(self, root: Path, port: int = 0) -> None:
        self.root = root.resolve()
        self.port = port  # 0: any free one
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    @property
    def misses(self) -> list[str]:
        return list(self._server.misses) if self._server else []

    @property
    def port_in_use(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    def url(self, entry: str) -> str:
        return self.base + entry.lstrip("/")

    def start(self) -> GameServer:
        self._server = _Server(self.root, self.port)
        self._thread = threading.Thread(target=self._server.serve, name="crumb-qa-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop_serving()
            if self._thread is not None:
                self._thread.join()
            self._server.server_close()
            self._server.close_connections()
            self._server = None

    def __enter__(self) -> GameServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
