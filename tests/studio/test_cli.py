"""`crumb studio` as a user runs it: a real process on loopback, stopped with Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.studio.conftest import SSEReader
from tests.studio.scripted import Scripted
from tests.wait import wait_until

CLI = [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')"]


def test_studio_serves_then_stops_on_ctrl_c_even_with_a_stream_open(root: Path) -> None:
    s = Scripted(root).to_partial()
    proc = subprocess.Popen([*CLI, "--root", str(root), "studio", "--port", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    reader = None
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        m = re.search(r"(http://127\.0\.0\.1:(\d+)/)\s+\(game preview on port (\d+)", line)
        assert m, line
        url, preview = m.group(1), int(m.group(3))
        # httpx's own 5 s read limit is shorter than any browser's; tests do not time things (a CI
        # run on two shared cores once waited longer than that for this very first listing)
        with httpx.Client(timeout=60) as client:
            assert client.get(url).status_code == 200
            rows = client.get(f"{url}api/sessions").json()["sessions"]
            assert [r["session"] for r in rows] == [s.session] and rows[0]["verdict"] == "PARTIAL"
            assert client.get(f"http://127.0.0.1:{preview}/s/{s.session}/index.html").status_code == 200
        reader = SSEReader(f"{url}api/sessions/{s.session}/stream")
        wait_until(lambda: len(reader.seqs()) == 8, what="the stream")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    finally:
        if reader:
            reader.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("flag", ["--port", "--preview-port", "--stream-port"])
def test_a_taken_port_is_a_one_line_error_naming_its_option(root: Path, flag: str) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        ports = ["--port", "0"] if flag != "--port" else []
        out = subprocess.run([*CLI, "--root", str(root), "studio", *ports, flag, str(port), "--no-open"],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in out.stderr and f"pick another with {flag}" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_an_ipv6_host_is_a_one_line_error(root: Path) -> None:
    """A CSP cannot name an IPv6 address: the game preview would stay blank, so say so at the start."""
    out = subprocess.run([*CLI, "--root", str(root), "studio", "--host", "::1", "--port", "0", "--no-open"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "--host ::1" in out.stderr and "--host 127.0.0.1" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
