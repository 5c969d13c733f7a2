"""Launch: bind the three ports first (so each app knows the others' origins), then run three uvicorn
servers on one loop: the Studio, the game preview, and the pages' event streams.

`Studio` is also what tests and the benchmark use: start() in a background thread, wait until it
answers, stop() — real sockets on loopback, no stand-ins.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

from crumb.studio.app import StudioConfig, create_app, create_stream_app
from crumb.studio.preview import create_preview_app
from crumb.studio.security import Guard, host_names, is_loopback


class _Server(uvicorn.Server):
    """A uvicorn server that leaves signals alone: Studio.serve() stops all three servers on one signal."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def bind(host: str, port: int, flag: str = "--port") -> socket.socket:
    """A listening socket; port 0 picks a free one. Raises OSError naming the address when taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto named, not 0: asyncio turns Nagle off only on TCP sockets that say so, and with it on a
    # response's body waits for the client's delayed ACK of its headers (~40 ms on every kept-alive request)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as err:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port} ({err.strerror}); pick another with {flag}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def bind_beside(host: str, studio_port: int, asked: int | None, offset: int, flag: str) -> socket.socket:
    """A companion port: as asked (with `flag`), else the Studio's port + offset, else any free port."""
    if asked is not None:
        return bind(host, asked, flag)
    if studio_port:
        try:
            return bind(host, studio_port + offset)
        except OSError:
            pass
    return bind(host, 0)


class Studio:
    """The servers of one launch, sharing one event loop in one thread."""

    def __init__(self, root: Path, *, host: str = "127.0.0.1", port: int = 7321, preview_port: int | None = None,
                 stream_port: int | None = None, allow_hosts: Iterable[str] = (), log_level: str = "warning") -> None:
        self.root = Path(root).resolve()
        if ":" in host:
            raise ValueError(f"--host {host}: a browser cannot name an IPv6 address in the game preview's CSP, so "
                             "the game would never load; use --host 127.0.0.1 (or 0.0.0.0 or a host name)")
        self.host = host
        self.studio_sock = bind(host, port)
        self.port = self.studio_sock.getsockname()[1]
        self.preview_sock = bind_beside(host, self.port, preview_port, 1, "--preview-port")
        self.stream_sock = bind_beside(host, self.port, stream_port, 2, "--stream-port")
        self.preview_port = self.preview_sock.getsockname()[1]
        self.stream_port = self.stream_sock.getsockname()[1]
        names = host_names(host, allow_hosts)
        self.guard = Guard(hosts=names, port=self.port)
        preview_guard = Guard(hosts=names, port=self.preview_port, check_csrf=False)
        stream_guard = Guard(hosts=names, port=self.stream_port, check_csrf=False)  # it has nothing to change
        self.config = StudioConfig(self.root, self.guard, self.preview_port, self.stream_port)
        origins = sorted(f"http://{n}:{self.port}" for n in names if "[" not in n)  # CSP has no IPv6 literals

        def server(app: ASGIApp) -> _Server:
            return _Server(uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="off",
                                          timeout_graceful_shutdown=2, server_header=False))
        self.servers = [
            server(create_app(self.config)),
            server(create_preview_app(self.root, preview_guard, origins)),
            server(create_stream_app(self.config, stream_guard, origins)),
        ]
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    @property
    def loopback_only(self) -> bool:
        return is_loopback(self.host)

    async def serve(self) -> None:
        """Serve until request_stop() or, in the main thread, Ctrl-C / SIGTERM (which stop both servers)."""
        self._loop = asyncio.get_running_loop()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._loop.add_signal_handler(sig, self.request_stop)
        await asyncio.gather(*(s.serve(sockets=[sock]) for s, sock in
                               zip(self.servers, (self.studio_sock, self.preview_sock, self.stream_sock), strict=True)))

    def request_stop(self) -> None:
        """Ask every server to finish (thread-safe): streams end, then the loop returns."""
        def _stop() -> None:
            self.config.hub.close()
            for s in self.servers:
                s.force_exit = s.should_exit  # asked twice: stop waiting for open connections
                s.should_exit = True
        if self._loop is not None:
            self._loop.call_soon_threadsafe(_stop)
        else:
            for s in self.servers:
                s.should_exit = True

    # ---- background use (tests, benchmark)

    def start(self, timeout: float = 10.0) -> Studio:
        """Run in a daemon thread and return once both servers accept connections."""
        self._thread = threading.Thread(target=lambda: asyncio.run(self.serve()), name="crumb-studio", daemon=True)
        self._thread.start()
        ready = threading.Event()

        def wait() -> None:
            import time
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not all(s.started for s in self.servers):
                if not self._thread or not self._thread.is_alive():
                    return
                ready.wait(0.005)
            if all(s.started for s in self.servers):
                ready.set()

        wait()
        if not ready.is_set():
            raise RuntimeError("the Studio did not start listening in time")
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self.request_stop()
        if self._thread is not None:
            self._thread.join(timeout)
