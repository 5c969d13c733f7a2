"""The Studio's front door: which Host names, Origins and tokens may reach it.

A page on any website can make a browser send requests to 127.0.0.1. Three checks stop that:
the Host header must be a name this server was bound for (defeats DNS rebinding), and every
state-changing request needs a same-origin `Origin` plus the per-launch token that only the
Studio's own pages carry (defeats CSRF). Refusals are one JSON line naming the problem and the fix.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Iterable

import msgspec
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_HEADER = "x-crumb-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def is_loopback(host: str) -> bool:
    """True for names and addresses that never leave this machine."""
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(32)


def host_names(bind_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """Host names (without port) a browser may use to reach a server bound on `bind_host`."""
    names = set(LOOPBACK_NAMES)
    if not is_loopback(bind_host):
        if bind_host in ("0.0.0.0", "::", ""):
            names.add(socket.gethostname().lower())
        else:
            names.add(f"[{bind_host}]" if ":" in bind_host else bind_host.lower())
    names.update(h.lower() for h in extra)
    return frozenset(names)


class Guard(BaseModel):
    """What one server accepts. `port` is the bound port; Host headers must name it."""

    model_config = ConfigDict(frozen=True)

    hosts: frozenset[str]
    port: int
    token: str = Field(default_factory=new_token, repr=False)
    check_csrf: bool = True

    def host_ok(self, host_header: str | None) -> bool:
        if not host_header:
            return False
        host = host_header.strip().lower()
        if host.endswith(f":{self.port}"):
            host = host[: -len(f":{self.port}")]
        elif self.port != 80:
            return False
        return host in self.hosts

    def origin_ok(self, origin: str | None) -> bool:
        if not origin or origin == "null":
            return False
        for scheme in ("http://", "https://"):
            if origin.startswith(scheme):
                return self.host_ok(origin[len(scheme) :])
        return False

    def token_ok(self, token: str | None) -> bool:
        if not token:
            return False
        return hmac.compare_digest(token.encode(), self.token.encode())

    def refusal(self, method: str, headers: dict[str, str]) -> str | None:
        """Why a request must be refused, or None when it may pass."""
        host = headers.get("host")
        if not self.host_ok(host):
            return (f"Host {host!r} is not a name this Studio was started for; "
                    f"open http://127.0.0.1:{self.port}/ (or start with --allow-host NAME)")
        if not self.check_csrf or method in SAFE_METHODS:
            return None
        if not self.origin_ok(headers.get("origin")):
            return (f"cross-origin request refused (Origin {headers.get('origin')!r}); "
                    "send it from a Studio page on this host and port")
        if not self.token_ok(headers.get(TOKEN_HEADER)):
            return (f"missing or wrong {TOKEN_HEADER} header; reload the Studio page "
                    "(the token changes every time `crumb studio` starts)")
        return None


class GuardMiddleware:
    """Pure ASGI middleware applying a Guard to every HTTP request before any route runs."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self.guard.refusal(scope["method"], headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        body = msgspec.json.encode({"error": problem}) + b"\n"
        await send({
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                        (b"cache-control", b"no-store")],
        })
        await send({"type": "http.response.body", "body": body})
