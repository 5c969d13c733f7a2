"""QA's network fence against a hostile game: every channel below request interception, aimed at
listeners on the host's loopback, must reach none of them, and the result must name each attempt."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from crumb.qa import QARunner
from crumb.qa.fence import open_fence, parse_packet
from tests.qa.conftest import FAST, GAMES, chromium_or_skip

pytestmark = pytest.mark.browser

# WebRTC and WebTransport aim at IP literals, which the host-resolver rule never sees.
TCP_CHANNELS = ("sw_fetch", "sw_eventsource", "sw_websocket", "worker_websocket", "rtc_turn_tcp")
UDP_CHANNELS = ("rtc_stun", "webtransport")


@dataclass
class Listener:
    """A host service on loopback that a game must never reach: records whatever arrives."""

    host: str
    udp: bool
    sock: socket.socket = field(init=False)
    got: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if self.udp else socket.SOCK_STREAM)
        self.sock.bind((self.host, 0))
        if not self.udp:
            self.sock.listen(16)
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    def _serve(self) -> None:
        while True:
            try:
                if self.udp:
                    data, peer = self.sock.recvfrom(65535)
                    self.got.append(f"udp from {peer}: {data[:40]!r}")
                else:
                    conn, peer = self.sock.accept()
                    conn.settimeout(2)
                    try:
                        self.got.append(f"tcp from {peer}: {conn.recv(200)[:80]!r}")
                    except OSError:
                        self.got.append(f"tcp from {peer}")
                    conn.close()
            except OSError:
                return


@pytest.fixture
def listeners() -> Iterator[dict[str, Listener]]:
    made = {name: Listener("127.0.0.1", False) for name in TCP_CHANNELS}
    made |= {name: Listener("127.0.0.1", True) for name in UDP_CHANNELS}
    yield made
    for listener in made.values():
        listener.sock.close()


def hostile_game(folder: Path, ports: dict[str, int]) -> Path:
    """The corpus's passing game plus every exfiltration channel the adversarial probe found open."""
    p = ports
    page = (GAMES / "mini" / "index.html").read_text()
    attack = f"""<script>
fetch("http://127.0.0.1:{p['page_fetch']}/page-fetch").catch(() => {{}});
new SharedWorker("shared.js");
new Worker("worker.js");
try {{
  const pc = new RTCPeerConnection({{ iceServers: [{{ urls: "stun:127.0.0.1:{p['rtc_stun']}" }},
    {{ urls: "turn:127.0.0.1:{p['rtc_turn_tcp']}?transport=tcp", username: "u", credential: "c" }}] }});
  pc.createDataChannel("x"); pc.createOffer().then(o => pc.setLocalDescription(o));
}} catch (e) {{}}
try {{ new WebTransport("https://127.0.0.1:{p['webtransport']}/wt").ready.catch(() => {{}}); }} catch (e) {{}}
</script>
</body>"""
    folder.mkdir()
    (folder / "index.html").write_text(page.replace("</body>", attack))
    (folder / "shared.js").write_text(f"""onconnect = () => {{}};
fetch("http://127.0.0.1:{p['sw_fetch']}/from-shared-worker").catch(() => {{}});
new EventSource("http://127.0.0.1:{p['sw_eventsource']}/events");
new WebSocket("ws://127.0.0.1:{p['sw_websocket']}/ws");
""")
    (folder / "worker.js").write_text(f'new WebSocket("ws://127.0.0.1:{p["worker_websocket"]}/ws");\n')
    return folder


def test_hostile_game_reaches_no_host_service_and_qa_names_every_attempt(listeners: dict[str, Listener],
                                                                        tmp_path: Path) -> None:
    chromium_or_skip()
    page_fetch = Listener("127.0.0.1", False)
    ports = {name: listener.port for name, listener in listeners.items()} | {"page_fetch": page_fetch.port}
    game = hostile_game(tmp_path / "hostile", ports)
    with QARunner(FAST) as qa:
        if not qa.fence.active:
            pytest.skip(f"this machine gives QA no network namespace: {qa.fence.why}")
        result = qa.check(game)
    reached = {name: listener.got for name, listener in listeners.items() if listener.got}
    if page_fetch.got:
        reached["page_fetch"] = page_fetch.got
    assert not reached, f"host services were reached from QA's browser: {reached}"
    blocked = set(result.blocked)
    missing = {name for name in TCP_CHANNELS
               if f"tcp://{listeners[name].host}:{listeners[name].port}" not in blocked}
    missing |= {name for name in UDP_CHANNELS if f"udp://127.0.0.1:{listeners[name].port}" not in blocked}
    if f"http://127.0.0.1:{page_fetch.port}/page-fetch" not in blocked:
        missing.add("page_fetch")
    assert not missing, f"qa.result.blocked does not name {sorted(missing)}: {result.blocked}"
    assert any(f.code == "network_blocked" for f in result.findings) and not result.ok
    page_fetch.sock.close()


def test_the_fallback_without_a_namespace_is_measured_and_says_so(listeners: dict[str, Listener], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """No namespace (an unprivileged machine): the launch flags stop WebRTC's UDP, interception stops the
    page's own requests, every result carries `no_network_fence`; what still gets through is printed."""
    chromium_or_skip()
    monkeypatch.setenv("CRUMB_QA_NETNS", "0")
    page_fetch = Listener("127.0.0.1", False)
    ports = {name: listener.port for name, listener in listeners.items()} | {"page_fetch": page_fetch.port}
    with QARunner(FAST) as qa:
        assert not qa.fence.active
        result = qa.check(hostile_game(tmp_path / "hostile", ports))
    leaked = sorted(name for name, listener in listeners.items() if listener.got)
    print(f"fallback: reached the host's loopback: {leaked or 'nothing'}")
    assert not listeners["rtc_stun"].got and not page_fetch.got
    assert any(f.code == "no_network_fence" and f.severity == "Minor" for f in result.findings)
    page_fetch.sock.close()


def test_good_game_inside_the_fence_passes_and_blocks_nothing() -> None:
    chromium_or_skip()
    with QARunner(FAST) as qa:
        result = qa.check(GAMES / "mini")
    assert result.ok and result.blocked == [], result.model_dump_json(indent=1)


def test_fence_refused_says_why_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRUMB_QA_NETNS", "0")
    fence = open_fence()
    assert not fence.active and "interception only" in fence.why and "\n" not in fence.why


def test_packet_parser_names_syn_and_udp_only() -> None:
    eth = bytes(12) + b"\x08\x00"
    ip = bytes([0x45, 0, 0, 40, 0, 0, 0, 0, 64, 6, 0, 0]) + socket.inet_aton("127.0.0.1") + socket.inet_aton("8.8.8.8")
    syn = bytes([0x30, 0x39, 0x01, 0xBB]) + bytes(9) + b"\x02" + bytes(6)
    synack = syn[:13] + b"\x12" + syn[14:]
    assert parse_packet(eth + ip + syn) == ("tcp", "8.8.8.8", 443)
    assert parse_packet(eth + ip + synack) is None
    udp_ip = ip[:9] + b"\x11" + ip[10:]
    assert parse_packet(eth + udp_ip + bytes([0x30, 0x39, 0x0D, 0x96]) + bytes(4)) == ("udp", "8.8.8.8", 3478)


def test_array_buffers_past_the_browser_memory_limit_are_a_finding(memory_hog: Path) -> None:
    """2 GB of ArrayBuffers (outside V8's heap cap) under a 512 MB limit: the kernel kills the page."""
    with QARunner(FAST) as qa:
        if not qa._engine.limits.active:
            pytest.skip(f"no cgroup here: {qa._engine.limits.why}")
        result = qa.check(memory_hog)
        after = qa.check(GAMES / "mini")
    assert not result.ok and any(f.code == "memory_limit" and "512 MB" in f.message for f in result.findings), \
        result.model_dump_json(indent=1)
    assert after.ok, "QA did not recover after the memory limit struck"
