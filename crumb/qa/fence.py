"""QA's network fence: the browser, its driver and the game servers live in a network namespace of their own.

Request interception (page.py) sees only what the page itself fetches; SharedWorkers, workers' WebSockets,
WebRTC, QUIC and IP literals go below it. So the QA thread is moved into a fresh network namespace
(`unshare(CLONE_NEWNET)` for that one thread, as root): there only a loopback device exists, every
address is routed to it as local (so a connection to 8.8.8.8 or to the host's 127.0.0.1:8080 reaches
nothing and is refused at once), and the only listeners are the game servers QA itself starts there.
Whatever the browser starts inherits the namespace. A packet socket on that loopback sees every TCP
connection attempt and UDP datagram, so QA can name what a game tried even where interception never saw it.

Where the namespace is refused (not root, no user namespaces), `open_fence()` says why and QA falls back
to interception plus launch flags (`FALLBACK_ARGS`), measured in tests/qa/test_fence.py: they stop
WebRTC over UDP only; workers' requests, TURN over TCP and WebTransport still reach the host's loopback.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

CLONE_NEWNET = 0x40000000
ENV_OFF = "CRUMB_QA_NETNS"  # "0": do not make a namespace (to measure the fallback)
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
ETH_P_ALL, PACKET_HOST = 0x0003, 0
IP_ROUTE = ("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip")
MAX_ATTEMPTS = 1000  # a game that floods connections still leaves a bounded record

# Inside the namespace WebRTC sees only loopback, which it ignores unless told: then it tries, and is seen.
FENCED_ARGS = ["--allow-loopback-in-peer-connection"]
# Without a namespace: no UDP for WebRTC, no QUIC (so no WebTransport to the outside).
FALLBACK_ARGS = ["--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--disable-quic"]


@dataclass(frozen=True)
class Attempt:
    """One connection a game tried: a TCP SYN or a UDP datagram seen on the namespace's loopback."""

    at: float  # time.monotonic()
    proto: str  # tcp | udp
    host: str
    port: int

    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.proto}://{host}:{self.port}"


@dataclass(eq=False)
class Fence:
    """A network namespace (kind "netns") or none (kind "none"); `why` says which, in one line."""

    kind: str
    why: str
    fd: int | None = None
    # ports QA's own servers ever had in the namespace: a tab still loading from a check's closed server
    # is QA's doing, not the game's; no other listener can exist in the namespace to be reached
    allowed: set[int] = field(default_factory=set)
    _attempts: list[Attempt] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _sniffer: socket.socket | None = None

    @property
    def active(self) -> bool:
        return self.kind == "netns"

    def enter(self) -> None:
        """Move the calling thread into the namespace (no-op without one)."""
        if self.fd is not None and _libc().setns(self.fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns: {os.strerror(ctypes.get_errno())}")

    def thread(self, target: Callable[[], object], name: str) -> threading.Thread:
        """A daemon thread that runs `target` inside the namespace (and whatever it spawns)."""
        def run() -> None:
            self.enter()
            target()
        return threading.Thread(target=run, name=name, daemon=True)

    def call(self, fn: Callable[[], T]) -> T:
        """`fn()` run inside the namespace, on a short-lived thread; its sockets stay in the namespace."""
        if self.fd is None:
            return fn()
        values: list[T] = []  # what fn returned, or
        errors: list[BaseException] = []  # what it raised

        def run() -> None:
            try:
                values.append(fn())
            except BaseException as exc:
                errors.append(exc)
        t = self.thread(run, "crumb-qa-fence-call")
        t.start()
        t.join()
        if errors:
            raise errors[0]
        return values[0]

    def attempts(self, since: float, allowed: set[int] | frozenset[int] = frozenset()) -> list[Attempt]:
        """Connections tried since `since` to anything but QA's own servers (and `allowed` ports)."""
        with self._lock:
            return [a for a in self._attempts if a.at >= since and a.port not in self.allowed and a.port not in allowed]

    def allow(self, port: int) -> None:
        with self._lock:
            self.allowed.add(port)

    def _sniff(self) -> None:
        sock = self._sniffer
        assert sock is not None
        seen: dict[tuple[str, str, int], float] = {}
        sock.settimeout(0.5)  # so close() is noticed
        while self._sniffer is not None:
            try:
                data, addr = sock.recvfrom(65535)
            except TimeoutError:
                continue
            except OSError:
                return
            if addr[2] != PACKET_HOST:  # loopback shows each packet twice: outgoing and incoming
                continue
            hit = parse_packet(data)
            if hit is None:
                continue
            now = time.monotonic()
            if now - seen.get(hit, -10.0) < 1.0:  # retransmissions and bursts: one record a second
                continue
            seen[hit] = now
            with self._lock:
                if len(self._attempts) < MAX_ATTEMPTS:
                    self._attempts.append(Attempt(now, *hit))
                else:
                    del self._attempts[: MAX_ATTEMPTS // 2]

    def close(self) -> None:
        sniffer, self._sniffer = self._sniffer, None
        if sniffer is not None:
            try:
                sniffer.close()
            except OSError:
                pass
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def parse_packet(frame: bytes) -> tuple[str, str, int] | None:
    """(proto, destination, port) of a TCP SYN or a UDP datagram in a loopback frame; None otherwise."""
    if len(frame) < 14:
        return None
    ethertype = struct.unpack("!H", frame[12:14])[0]
    ip = frame[14:]
    if ethertype == 0x0800 and len(ip) >= 20:
        ihl = (ip[0] & 0x0F) * 4
        proto, dst, l4 = ip[9], socket.inet_ntop(socket.AF_INET, ip[16:20]), ip[ihl:]
    elif ethertype == 0x86DD and len(ip) >= 40:
        proto, dst, l4 = ip[6], socket.inet_ntop(socket.AF_INET6, ip[24:40]), ip[40:]
    else:
        return None
    if proto == 6 and len(l4) >= 14:
        flags = l4[13]
        if flags & 0x02 and not flags & 0x10:  # SYN without ACK: someone opening a connection
            return "tcp", dst, struct.unpack("!H", l4[2:4])[0]
        return None
    if proto == 17 and len(l4) >= 8:
        return "udp", dst, struct.unpack("!H", l4[2:4])[0]
    return None


_LIBC: ctypes.CDLL | None = None


def _libc() -> ctypes.CDLL:
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def _ip_tool() -> str | None:
    return next((p for p in IP_ROUTE if os.access(p, os.X_OK)), None)


def _setup() -> tuple[int, socket.socket]:
    """Runs on a thread of its own: unshare its network, bring loopback up, route everything to it."""
    if _libc().unshare(CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare(CLONE_NEWNET) refused: {os.strerror(err)}")
    fd = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    try:
        with socket.socket() as s:
            flags = struct.unpack("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH", b"lo", 0))[:18])[1]
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | IFF_UP))
        ip = _ip_tool()
        if ip is None:
            raise OSError("no `ip` command (iproute2) to route every address to loopback")
        for args in (["route", "add", "local", "0.0.0.0/0", "dev", "lo"],
                     ["-6", "route", "add", "local", "::/0", "dev", "lo"]):
            done = subprocess.run([ip, *args], capture_output=True, text=True, timeout=10)
            if done.returncode != 0 and args[0] != "-6":  # IPv6 may be off: then nothing of it is reachable
                raise OSError(f"ip {' '.join(args)}: {done.stderr.strip()}")
        sniffer = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        sniffer.bind(("lo", 0))
        return fd, sniffer
    except BaseException:
        os.close(fd)
        raise


def open_fence() -> Fence:
    """A fresh namespace for one QA runner, or Fence("none", why) when this machine refuses one."""
    if os.environ.get(ENV_OFF) == "0":
        return Fence("none", f"no network namespace ({ENV_OFF}=0): the fence is request interception only")
    if not os.path.exists("/proc/thread-self/ns/net"):
        return Fence("none", "no network namespaces on this system: the fence is request interception only")
    values: list[tuple[int, socket.socket]] = []  # what _setup returned, or
    errors: list[OSError | subprocess.SubprocessError] = []  # why it failed

    def run() -> None:
        try:
            values.append(_setup())
        except (OSError, subprocess.SubprocessError) as exc:
            errors.append(exc)
    t = threading.Thread(target=run, name="crumb-qa-fence-setup", daemon=True)
    t.start()
    t.join()
    if errors:
        return Fence("none", f"no network namespace ({errors[0]}): the fence is request interception only")
    fd, sniffer = values[0]
    fence = Fence("netns", "the browser runs in a network namespace of its own: only its game server is reachable",
                  fd=fd, _sniffer=sniffer)
    fence.thread(fence._sniff, "crumb-qa-fence-sniff").start()
    return fence
