"""Drive the Studio over real loopback HTTP with requests a hostile page or a clumsy script could send.

http.client sends the path exactly as written (httpx would normalise `..` away before it leaves)."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import Any

import orjson

from crumb.studio.server import Studio
from tests.badinput.commands import snapshot
from tests.badinput.corpus import Case, assert_names, one_line

SESSION = "01JA0000000000000000000003"


def request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.putheader("content-length", str(len(body or b"")))
        conn.endheaders(body)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def run_studio(studio: Studio, root: Path, case: Case) -> None:
    inp: dict[str, Any] = case.input
    port = studio.preview_port if inp.get("server") == "preview" else studio.port
    headers = {"host": f"127.0.0.1:{port}", "origin": studio.url.rstrip("/"), "x-crumb-token": studio.guard.token,
               "content-type": "application/json"}
    for drop in inp.get("drop_headers", []):
        headers.pop(drop)
    headers.update({k: v.replace("{PORT}", str(port)) for k, v in inp.get("headers", {}).items()})
    if "body_hex" in inp:
        body = bytes.fromhex(inp["body_hex"])
    elif "body" in inp:
        body = inp["body"].encode() * int(inp.get("repeat", 1))
    else:
        body = None
    before = snapshot(root)
    status, raw = request(port, inp.get("method", "GET"), inp["path"].replace("{SESSION}", SESSION), body, headers)
    assert status == int(case.outcome), (status, raw[:300])
    try:
        message = orjson.loads(raw)["error"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        message = raw.decode("utf-8", "replace")
    assert_names(one_line(message), case.expect)
    assert b"root:x:0:0" not in raw and b"not for the web" not in raw, "the response leaked a file"
    assert snapshot(root) == before, "a refused request changed or lost files"
