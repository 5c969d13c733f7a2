"""Real loopback endpoints for the pre-flight tests, and a PATH without chosen executables.

- refusing_port(): a TCP port bound but never listening, held for the test: connecting is refused,
  and no other process can take the port meanwhile.
- spare_port(): a free port the kernel never hands out by itself, for a server that must come back on
  the same port (the same origin) or a program that is told which port to listen on.
- AnsweringServer: a real HTTP server that answers every request 401 (any answer means "a server is there").
- SilentServer: a socket that listens (the kernel completes the handshake) and never answers.
"""

from __future__ import annotations

import os
import random
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

AMBIENT = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_THREAD_ID", "CODEX_CI", "CODEX_SANDBOX_NETWORK_DISABLED", "GEMINI_CLI")


def path_without(*names: str) -> str:
    """This PATH minus every folder holding one of `names` (so the test holds wherever they are installed)."""
    folders = os.environ.get("PATH", os.defpath).split(os.pathsep)
    return os.pathsep.join(d for d in folders if d and not any((Path(d) / n).exists() for n in names))


def env_without(*names: str) -> dict[str, str]:
    """os.environ with PATH lacking `names` and no host-CLI markers (so no ambient binding applies)."""
    env = {k: v for k, v in os.environ.items() if k not in AMBIENT}
    env["PATH"] = path_without(*names)
    return env


@contextmanager
def refusing_port() -> Iterator[int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


def spare_port() -> int:
    """A port below the kernel's ephemeral range, free now. A port from bind(0) is in that range: once
    closed, any process's next outgoing connection may take it as its own end (a fixed-port test failed
    with EADDRINUSE on a busy CI machine that way). Below the range only a process that names the port
    can take it; the random start keeps two test workers apart. (From 20000: Ray gives its workers
    10002-19999.)"""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = list(range(20000, low))
    random.shuffle(ports)
    for port in ports:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between 20000 and {low}")


class _Deny(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        body = b'{"error": {"message": "no key"}}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class AnsweringServer:
    """`with AnsweringServer() as s:` s.base_url answers 401 to everything; s.paths lists what was asked."""

    def __enter__(self) -> AnsweringServer:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Deny)
        self.httpd.paths = []  # type: ignore[attr-defined]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        return self

    @property
    def paths(self) -> list[str]:
        return self.httpd.paths  # type: ignore[attr-defined,no-any-return]

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def silent_server() -> Iterator[str]:
    """A base URL whose socket accepts connections (in the kernel's backlog) and never answers."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    finally:
        sock.close()
