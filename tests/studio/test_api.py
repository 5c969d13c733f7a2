"""The Studio's JSON API over real loopback HTTP: the paged session list and starting a daemon."""

from __future__ import annotations

import http.client
import os
import signal
import socket
from pathlib import Path

import httpx
from ulid import ULID

from crumb.daemon.lock import daemon_status
from crumb.studio.server import Studio
from tests.studio.conftest import post_headers
from tests.studio.scripted import Scripted
from tests.wait import wait_until


def test_session_pages_reach_every_session_newest_first(client: httpx.Client, root: Path) -> None:
    made = [str(ULID.from_timestamp(1_700_000_000 + i)) for i in range(25)]
    for sid in made:
        Scripted(root, sid).start()
    seen: list[str] = []
    cursor = None
    while True:
        page = client.get("/api/sessions", params={"limit": 10, **({"before": cursor} if cursor else {})}).json()
        assert page["total"] == 25 and len(page["sessions"]) <= 10
        seen += [row["session"] for row in page["sessions"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == made[::-1]
    assert len(client.get("/api/sessions").json()["sessions"]) == 25  # the default page holds 100


def test_bad_session_page_parameters_say_what_to_pass(client: httpx.Client) -> None:
    for params, needle in (({"limit": "0"}, "limit must be a whole number from 1 to 1000"),
                           ({"limit": "lots"}, "limit must be a whole number"),
                           ({"before": "../x"}, "is not a session id: pass the `next` of the previous page")):
        r = client.get("/api/sessions", params=params)
        assert r.status_code == 400 and needle in r.json()["error"], (params, r.text)


def test_start_daemon_answers_once_the_daemon_holds_the_root(studio: Studio, client: httpx.Client,
                                                              root: Path) -> None:
    r = client.post("/api/daemon/start", headers=post_headers(studio), timeout=60)
    assert r.status_code == 200, r.text
    body = r.json()
    try:
        assert body["running"] is True and body["started"] is True
        assert daemon_status(root) == {"running": True, "pid": body["pid"]}  # already holding the lock
        again = client.post("/api/daemon/start", headers=post_headers(studio), timeout=60).json()
        assert again["running"] is True and again["started"] is False and again["pid"] == body["pid"]
    finally:
        os.killpg(body["pid"], signal.SIGTERM)
        wait_until(lambda: not daemon_status(root)["running"], timeout=30, what="the daemon to stop")


def test_start_daemon_failure_is_the_daemon_own_error_line(studio: Studio, client: httpx.Client, root: Path) -> None:
    (root / "crumb.toml").write_text('[settings.inbox]\nmax_bytes = "lots"\n')
    r = client.post("/api/daemon/start", headers=post_headers(studio), timeout=60)
    assert r.status_code == 500
    error = r.json()["error"]
    assert error.startswith("the daemon exited at once: ")
    assert "crumb.toml: bad [settings]: inbox.max_bytes" in error and "\n" not in error
    assert daemon_status(root)["running"] is False
    assert "Error: " in (root / ".crumb" / "daemon.log").read_text()  # the whole story stays in the log


def test_a_pitch_into_an_inbox_that_cannot_be_written_is_one_line_naming_it(client: httpx.Client, studio: Studio,
                                                                          root: Path) -> None:
    inbox = root / "inbox"
    if inbox.is_dir():
        inbox.rmdir()
    inbox.write_text("a file where the inbox folder should be")
    r = client.post("/api/pitch", json={"pitch": "a snake game"}, headers=post_headers(studio))
    assert r.status_code == 500
    error = r.json()["error"]
    assert error.startswith(f"cannot write to {root / 'inbox'}") and "\n" not in error
    assert (root / "inbox").read_text() == "a file where the inbox folder should be"


def test_every_port_answers_kept_alive_requests_with_nagle_off(studio: Studio) -> None:
    """A response leaves as two writes, head then body. With Nagle's algorithm on, the body waits for the
    client's delayed ACK of the head: ~40 ms on every request after the first on a kept-alive connection,
    which is every fetch a Studio page makes. The connections each port accepts have it off."""
    ports = (studio.port, studio.preview_port, studio.stream_port)
    clients = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for port in ports]
    try:
        for conn, port in zip(clients, ports, strict=True):
            for _ in range(2):  # the same connection twice: it is kept alive
                conn.request("GET", "/no-such-page", headers={"Host": f"127.0.0.1:{port}"})
                assert conn.getresponse().read()
        for server in studio.servers:
            accepted = [p.transport.get_extra_info("socket") for p in server.server_state.connections]
            assert len(accepted) == 1, accepted
            assert accepted[0].getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), accepted[0]
    finally:
        for conn in clients:
            conn.close()
