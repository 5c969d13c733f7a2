"""The Studio refuses what a hostile web page or game could send it, over real loopback HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from crumb.studio.security import Guard, host_names, is_loopback
from crumb.studio.server import Studio
from tests.studio.conftest import post_headers
from tests.studio.scripted import Scripted


def inbox_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "inbox").iterdir() if not p.name.startswith("."))


def test_wrong_host_header_is_refused_dns_rebinding(studio: Studio, client: httpx.Client) -> None:
    r = client.get("/api/sessions", headers={"host": f"evil.example:{studio.port}"})
    assert r.status_code == 403
    assert "evil.example" in r.json()["error"] and "127.0.0.1" in r.json()["error"]
    # the page itself (which carries the token) is refused too
    assert client.get("/", headers={"host": f"attacker.test:{studio.port}"}).status_code == 403
    assert client.get("/", headers={"host": "127.0.0.1"}).status_code == 403  # wrong port
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"host": f"localhost:{studio.port}"}).status_code == 200


def test_preview_server_checks_host_too(studio: Studio, http_client: httpx.Client, scripted: Scripted) -> None:
    scripted.start()
    scripted.plan()
    scripted.build()
    url = f"http://127.0.0.1:{studio.preview_port}/s/{scripted.session}/index.html"
    assert http_client.get(url).status_code == 200
    assert http_client.get(url, headers={"host": f"evil.example:{studio.preview_port}"}).status_code == 403


def test_cross_origin_post_is_refused_and_writes_nothing(studio: Studio, client: httpx.Client, root: Path) -> None:
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{studio.preview_port}"):
        r = client.post("/api/pitch", json={"pitch": "a snake game"},
                        headers={"origin": origin, "x-crumb-token": studio.guard.token})
        assert r.status_code == 403, origin
        assert "cross-origin" in r.json()["error"]
    r = client.post("/api/pitch", json={"pitch": "a snake game"}, headers={"x-crumb-token": studio.guard.token})
    assert r.status_code == 403  # no Origin at all
    assert inbox_files(root) == []


def test_missing_or_wrong_token_is_refused(studio: Studio, client: httpx.Client, root: Path, scripted: Scripted) -> None:
    scripted.start()
    origin = studio.url.rstrip("/")
    for headers in ({"origin": origin}, {"origin": origin, "x-crumb-token": "guess"}):
        r = client.post("/api/pitch", json={"pitch": "a snake game"}, headers=headers)
        assert r.status_code == 403 and "x-crumb-token" in r.json()["error"]
        r = client.post(f"/api/sessions/{scripted.session}/steer", json={"text": "/approve"}, headers=headers)
        assert r.status_code == 403
        assert client.post("/api/daemon/start", headers=headers).status_code == 403
    assert inbox_files(root) == []
    assert not (scripted.dir / "inbox").exists() or list((scripted.dir / "inbox").iterdir()) == []


def test_token_is_per_launch(root: Path) -> None:
    a = Studio(root, port=0)
    b = Studio(root, port=0)
    try:
        assert a.guard.token != b.guard.token and len(a.guard.token) >= 32
    finally:
        for s in (a, b):
            s.studio_sock.close()
            s.preview_sock.close()


def test_same_origin_post_with_token_writes_one_inbox_file(studio: Studio, client: httpx.Client, root: Path,
                                                            agent_clis: Path) -> None:
    r = client.post("/api/pitch", json={"pitch": "a breakout clone", "preset": "local",
                                        "bindings": {"builder": "claude:sonnet"}}, headers=post_headers(studio))
    assert r.status_code == 201, r.text
    files = inbox_files(root)
    assert len(files) == 1 and files[0].name.startswith("studio-pitch-")
    text = files[0].read_text()
    assert text.startswith("---\n") and f"session: {r.json()['session']}\n" in text
    assert "preset: local\n" in text and "builder: claude:sonnet\n" in text and text.endswith("a breakout clone\n")


def test_bad_input_gets_one_line_reason(studio: Studio, client: httpx.Client, root: Path, scripted: Scripted) -> None:
    h = post_headers(studio)
    cases = [
        ("/api/pitch", {"pitch": "   "}, "pitch is empty"),
        ("/api/pitch", {"pitch": "x", "preset": "../etc"}, "not a preset name"),
        ("/api/pitch", {"pitch": "x", "bindings": {"builder": "claude\nsession: X"}}, "harness:model"),
        ("/api/pitch", {"pitch": "x", "bindings": {"judge": "local"}}, "unknown role"),
    ]
    for path, body, needle in cases:
        r = client.post(path, json=body, headers=h)
        assert r.status_code == 400, body
        assert needle in r.json()["error"] and "\n" not in r.json()["error"]
    # names the daemon would not find are refused before anything is written, with the choices
    r = client.post("/api/pitch", json={"pitch": "x", "preset": "nosuch"}, headers=h)
    assert r.status_code == 400 and "no preset 'nosuch'" in r.json()["error"] and "claude" in r.json()["error"]
    r = client.post("/api/pitch", json={"pitch": "x", "bindings": {"builder": "nosuch:big"}}, headers=h)
    assert r.status_code == 400 and "unknown harness 'nosuch'" in r.json()["error"] and "codex" in r.json()["error"]
    for binding, needle in (("claude:son net", "a model name has no spaces"), ("openai", "openai needs a model"),
                            ("command", "names no command")):
        r = client.post("/api/pitch", json={"pitch": "x", "bindings": {"builder": binding}}, headers=h)
        assert r.status_code == 400 and needle in r.json()["error"], (binding, r.text)
    r = client.post("/api/pitch", content=b"not json", headers=h)
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post(f"/api/sessions/{scripted.session}/steer", json={"text": "hi"}, headers=h)
    assert r.status_code == 409 and "not started" in r.json()["error"]
    assert inbox_files(root) == []


def test_unknown_addresses_and_methods_say_what_to_do(studio: Studio, client: httpx.Client, scripted: Scripted) -> None:
    scripted.start()
    for path in ("/nope", "/api/nope", "/static/nope.js"):
        r = client.get(path)
        assert r.status_code == 404 and "the Studio's pages are /" in r.json()["error"], path
    r = client.get("/api/pitch")
    assert r.status_code == 405 and r.json()["error"] == "GET is not allowed on /api/pitch; use POST"
    for limit in ("0", "-5"):
        r = client.get(f"/api/sessions/{scripted.session}/events", params={"limit": limit})
        assert r.status_code == 400 and "limit 1 to 1000" in r.json()["error"]


def test_artifact_paths_cannot_escape_the_session(studio: Studio, http_client: httpx.Client, client: httpx.Client, root: Path,
                                                  scripted: Scripted) -> None:
    scripted.start()
    scripted.plan()
    scripted.build()
    (root / "secret.txt").write_text("top secret")
    other = Scripted(root).start()
    game = scripted.dir / "artifacts" / "game"
    (game / "link.txt").symlink_to(root / "secret.txt")
    sid = scripted.session
    for rel in ("../../secret.txt", "..%2F..%2Fsecret.txt", "%2e%2e/%2e%2e/secret.txt", f"../{other.session}/transcript.jsonl",
                "artifacts/game/link.txt", "/etc/passwd"):
        r = client.get(f"/api/sessions/{sid}/file/{rel}")
        assert r.status_code == 404, rel
        assert "top secret" not in r.text
    preview = f"http://127.0.0.1:{studio.preview_port}/s/{sid}"
    for rel in ("../../transcript.jsonl", "%2e%2e/%2e%2e/transcript.jsonl", "link.txt", "..%2f..%2fspec.md"):
        r = http_client.get(f"{preview}/{rel}")
        assert r.status_code == 404, rel
        assert "top secret" not in r.text and '"kind"' not in r.text
    assert client.get("/api/sessions/..%2F..%2Fetc/file/x").status_code == 404
    assert client.get(f"/api/sessions/{sid}/file/artifacts/spec.md").status_code == 200


def test_session_html_is_never_served_as_html_by_the_studio(studio: Studio, client: httpx.Client,
                                                            scripted: Scripted) -> None:
    scripted.start()
    scripted.plan()
    scripted.build()
    r = client.get(f"/api/sessions/{scripted.session}/file/artifacts/game/index.html")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in r.headers["content-security-policy"]


def test_headers_pages_and_preview(studio: Studio, http_client: httpx.Client, client: httpx.Client, scripted: Scripted) -> None:
    scripted.start()
    scripted.plan()
    scripted.build()
    page = client.get(f"/s/{scripted.session}")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp.split("style-src")[0]
    assert f"frame-src http://localhost:{studio.preview_port}" in csp and "frame-ancestors 'none'" in csp  # another site
    game = http_client.get(f"http://127.0.0.1:{studio.preview_port}/s/{scripted.session}/index.html")
    gcsp = game.headers["content-security-policy"]
    assert "connect-src 'none'" in gcsp and "sandbox allow-scripts" in gcsp
    assert f"frame-ancestors http://127.0.0.1:{studio.port}" in gcsp
    assert http_client.post(f"http://127.0.0.1:{studio.preview_port}/s/{scripted.session}/index.html").status_code == 405


def test_loopback_rules() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.1.2.3")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.com")
    g = Guard(hosts=host_names("127.0.0.1"), port=7321)
    assert g.host_ok("127.0.0.1:7321") and g.host_ok("LOCALHOST:7321") and g.host_ok("[::1]:7321")
    assert not g.host_ok("127.0.0.1.evil.com:7321") and not g.host_ok("evil:7321") and not g.host_ok(None)
    assert not g.origin_ok("http://127.0.0.1:7322") and g.origin_ok("http://localhost:7321")


def test_non_loopback_bind_needs_expose(root: Path) -> None:
    refused = subprocess.run(
        [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')", "--root", str(root),
         "studio", "--host", "0.0.0.0", "--port", "0", "--no-open"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--expose" in refused.stderr and "not loopback" in refused.stderr
    assert "CRUMB Studio" not in refused.stdout


def test_non_loopback_bind_with_expose_says_what_it_exposes(root: Path) -> None:
    (root / "crumb.toml").write_text('[security]\nallow_commands = ["./my-agent --fast"]\n')
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from crumb.cli import main; main(prog_name='crumb')", "--root", str(root),
         "studio", "--host", "0.0.0.0", "--port", "0", "--expose", "--no-open"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        err = proc.stderr.readline()  # type: ignore[union-attr]
        out = proc.stdout.readline()  # type: ignore[union-attr]
        assert "WARNING" in err and "not loopback" in err
        for exposed in ("read every session", "steer", "start new pitches", "./my-agent --fast"):
            assert exposed in err, (exposed, err)
        assert "CRUMB Studio" in out
    finally:
        proc.terminate()
        proc.wait(10)
