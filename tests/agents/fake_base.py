"""What every fake model server shares: a real HTTP server on 127.0.0.1, the script that plays each
CRUMB role, and the switches that inject failures. Each vendor module only speaks its wire format.

The script reads the role from the prompt (`# CRUMB role: <role>`) and the role's input from the
prompt's first ```json block, so the same server can play a whole session. A request without the
marker (a CLI's side request: a title, a summary) gets a short plain answer.

Besides answers, a script can make the model use the CLI's own tools: `tool_turns` turns of harmless
tool calls (`tool_calls` at once) before the answer, or one shell `command` the CLI runs as its child
(a command that never ends stands for an agent stuck in a tool). `callers` records which process sent
each request and its environment (read from /proc through the connection's socket), so a test sees
what CRUMB really gave the CLI.
"""

from __future__ import annotations

import base64
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.agents.answers import GAME_HTML, auto_reply, judge  # noqa: F401  (GAME_HTML: for the vendor modules)

ROLE_RE = re.compile(r"^# CRUMB role: (\w+)", re.M)
FENCE_RE = re.compile(r"```json\s*\n(.*?)\n```", re.S)
#: the fault switches a test can set: HTTP statuses, a stream cut off with a malformed chunk, a request
#: accepted and never answered (until the server closes), or an answer that streams text without end
FAULTS = ("401", "429", "500", "malformed", "hang", "flood")
#: the usage figures each answer reports unless the script says otherwise
USAGE = {"input": 1000, "output": 200, "cached": 0}


def role_of(text: str) -> str | None:
    m = ROLE_RE.search(text)
    return m.group(1) if m else None


def role_input(text: str) -> dict[str, Any]:
    """The projected input quoted in the prompt (the first ```json block), {} if none parses."""
    m = FENCE_RE.search(text)
    if not m:
        return {}
    try:
        value = json.loads(m.group(1))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass
class Recorded:
    """One request as the server saw it; with `Script.callers`, the process that sent it too."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    role: str | None = None
    fault: str | None = None
    pid: int | None = None
    env: dict[str, str] | None = None


@dataclass
class Script:
    """How the fake model plays: verdicts given in turn (the last repeats), faults injected in turn into
    role requests (`always` into every one), the model it says answered, the usage it reports, the
    tools it makes the CLI use before answering, and optional overrides."""

    verdicts: list[str] = field(default_factory=lambda: ["PASS"])
    faults: list[str] = field(default_factory=list)
    always: str | None = None
    retry_after_s: float = 1.0
    model: str | None = None
    reply: dict[str, Any] | None = None
    verifier_calls: int = 0
    #: usage each answer reports: input (not cached), cached (read from a prompt cache), output tokens
    usage: dict[str, int] = field(default_factory=lambda: dict(USAGE))
    #: turns of harmless tool calls (reading the work folder) before the answer, `tool_calls` per turn
    tool_turns: int = 0
    tool_calls: int = 1
    #: a shell command the CLI is asked to run (its own child process) before the answer
    command: str | None = None
    #: record the calling process and its environment with each request
    callers: bool = False
    #: files of its folder (e.g. "filmstrip/frame-01.png") the model reads with the CLI's own read tool
    #: before it answers, all in one turn: what the CLI sends back is in the next request
    look: list[str] = field(default_factory=list)

    def next_fault(self) -> str | None:
        if self.always:
            return self.always
        return self.faults.pop(0) if self.faults else None

    def step(self, role: str | None, commands_done: int, tools_done: int, looks_done: int = 0) -> str | None:
        """The tool the model uses next in a role's conversation, from the tool results it has seen:
        "command" (run `command`), "look" (read the `look` files), "tools" (a turn of harmless calls),
        or None (go on to the answer)."""
        if role is None:
            return None
        if self.command and not commands_done:
            return "command"
        if self.look and not looks_done:
            return "look"
        if tools_done < self.tool_turns * self.tool_calls:
            return "tools"
        return None

    def answer(self, role: str, prompt: str) -> dict[str, Any]:
        """The JSON answer a role ends with."""
        if self.reply is not None:
            return self.reply
        data = role_input(prompt)
        if role == "verifier":
            verdict = self.verdicts[min(self.verifier_calls, len(self.verdicts) - 1)]
            self.verifier_calls += 1
            return judge(verdict, str((data.get("qa") or {}).get("id") or "qa"))
        if role == "builder":
            fix = " (fix round)" if data.get("feedback") else ""
            return {"notes": [f"wrote index.html (Tap Dash){fix}"]}
        return auto_reply(role)

    def answer_text(self, role: str, prompt: str) -> str:
        return "Done.\n\n```json\n" + json.dumps(self.answer(role, prompt)) + "\n```\n"


def _socket_inode(port: int, peer_port: int) -> str | None:
    """The inode of the loopback TCP socket bound to `port` and connected to `peer_port`."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and int(cols[1].rsplit(":", 1)[1], 16) == port and int(cols[2].rsplit(":", 1)[1], 16) == peer_port:
                return cols[9]
    return None


def caller(client_port: int, server_port: int) -> tuple[int | None, dict[str, str] | None]:
    """The process holding the client end of a connection to this server, and its environment as it
    was started (/proc/PID/environ): what CRUMB really handed the CLI."""
    inode = _socket_inode(client_port, server_port)
    if inode is None:
        return None, None
    target = f"socket:[{inode}]"
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.listdir(entry / "fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(entry / "fd" / fd) != target:
                    continue
                raw = (entry / "environ").read_bytes()
            except OSError:
                continue
            env = dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)
            return int(entry.name), env
    return None, None


class FakeServer:
    """A threaded HTTP server on 127.0.0.1; subclasses implement `handle(req, recorded)`."""

    #: the model named in replies when the script names none
    default_model = "fake-model"

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.closing = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                owner.on_get(self)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {}
                rec = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                if owner.script.callers:
                    rec.pid, rec.env = caller(self.client_address[1], owner.port)
                with owner.lock:
                    owner.requests.append(rec)
                    owner.handle(self, rec)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, name=type(self).__name__, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def model(self) -> str:
        return self.script.model or self.default_model

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def role_requests(self, role: str | None = None) -> list[Recorded]:
        return [r for r in self.requests if r.role and (role is None or r.role == role)]

    # -- for subclasses ---------------------------------------------------------------------------
    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        raise NotImplementedError

    def on_get(self, h: BaseHTTPRequestHandler) -> None:
        send_json(h, 404, {"error": {"message": f"no route {h.path}"}})

    def flood(self, piece: Callable[[int], None]) -> None:
        """Fault 'flood': send piece 0, 1, 2, ... until the client hangs up or the server closes (other
        requests are answered meanwhile)."""
        self.lock.release()
        try:
            n = 0
            while not self.closing.is_set():
                piece(n)
                n += 1
        except OSError:
            pass
        finally:
            self.lock.acquire()

    def fault_reply(self, h: BaseHTTPRequestHandler, rec: Recorded, error_body: Any) -> bool:
        """Answer with the next injected HTTP fault, if any; True when one was sent. 'malformed' is left
        to the vendor module (it belongs inside a stream), and so is 'flood' (an answer without end)."""
        fault = self.script.next_fault() if rec.role else None
        rec.fault = fault
        if fault in (None, "malformed", "flood"):
            return False
        if fault == "hang":
            self.lock.release()  # other requests (a CLI's side requests) still get answers
            try:
                self.closing.wait()
            finally:
                self.lock.acquire()
            return True
        status = int(fault)
        headers = {"retry-after": f"{self.script.retry_after_s:g}"} if status == 429 else {}
        send_json(h, status, error_body(status), headers)
        return True


def send_json(h: BaseHTTPRequestHandler, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
    raw = json.dumps(obj).encode()
    h.send_response(status)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(len(raw)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(raw)


class SSE:
    """A text/event-stream response, closed at the end (no keep-alive to reason about)."""

    def __init__(self, h: BaseHTTPRequestHandler) -> None:
        self.h = h
        h.send_response(200)
        h.send_header("content-type", "text/event-stream")
        h.send_header("cache-control", "no-cache")
        h.send_header("connection", "close")
        h.end_headers()
        h.close_connection = True

    def event(self, data: Any, name: str | None = None) -> None:
        head = f"event: {name}\n" if name else ""
        payload = data if isinstance(data, str) else json.dumps(data)
        self.h.wfile.write(f"{head}data: {payload}\n\n".encode())
        self.h.wfile.flush()

    def raw(self, text: str) -> None:
        self.h.wfile.write(text.encode())
        self.h.wfile.flush()


def text_of(value: Any) -> str:
    """Every string inside a JSON value, joined: where a prompt sits differs by API."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(text_of(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(text_of(v) for v in value)
    return ""


def gemini_images(body: dict[str, Any]) -> list[bytes]:
    """The images a Gemini request carries (inlineData parts, at any depth of its contents), in order."""
    out: list[bytes] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            inline = value.get("inlineData")
            if isinstance(inline, dict) and str(inline.get("mimeType", "")).startswith("image/"):
                out.append(base64.b64decode(inline.get("data", "")))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(body.get("contents"))
    return out


def image_blocks(body: dict[str, Any]) -> list[bytes]:
    """The images a request's tool results carry (Anthropic's base64 image blocks), in order; the CLI may
    send the results of one turn's calls as one message or as one message each."""
    out = []
    for message in body.get("messages") or []:
        for block in message.get("content") or [] if isinstance(message, dict) else []:
            inner = block.get("content") if isinstance(block, dict) and block.get("type") == "tool_result" else None
            for part in inner if isinstance(inner, list) else []:
                source = part.get("source") if isinstance(part, dict) and part.get("type") == "image" else None
                if isinstance(source, dict) and source.get("type") == "base64":
                    out.append(base64.b64decode(source.get("data", "")))
    return out
