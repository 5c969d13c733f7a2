"""A fake OpenAI-compatible chat-completions server on loopback (`POST /v1/chat/completions`, streaming
SSE or whole; `GET /v1/models`), the model server of the `openai` harness, as Ollama, vLLM or
llama.cpp would be. Unlike the vendor fakes (fake_base.py) it is driven by a plain dict:

`server.control` (a dict, changeable between requests) decides the answer:
  mode   "ok" | "error" (HTTP `status` with an OpenAI error body) | "hang" (accept, never answer)
         | "stall" (stream one chunk, then nothing) | "garbage" (200 with HTML) | "badchunk"
  reply  the model's text (default: a valid answer for the role found in the prompt)
  files  for builders with no `reply`: {"path": "content"} turned into <<<FILE blocks ("auto": Tap Dash)
  usage  {"prompt_tokens": n, "completion_tokens": n}; set None to omit usage
  times  with mode "error": fail only the first `times` requests, then answer
  retry_after  with mode "error": a Retry-After header (seconds)
  refuse_temperature  answer 400 to any request that names a temperature (as GPT-5-family models do)
  refuse_images  answer 400 to any request with image_url parts (as a text-only model does)
Requests are kept in `server.requests` (decoded JSON bodies).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.agents.answers import GAME_HTML, auto_reply, reply_text, role_of


def _text(content: Any) -> str:
    """A message's text: the content string, or its text parts (image parts carry none)."""
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def builder_text(files: dict[str, str], notes: list[str]) -> str:
    blocks = "".join(f"<<<FILE {p}\n{c}{'' if c.endswith(chr(10)) else chr(10)}FILE>>>\n" for p, c in files.items())
    return f"Here is the game.\n\n{blocks}\n```json\n{json.dumps({'notes': notes})}\n```\n"


class Handler(BaseHTTPRequestHandler):
    server: FakeChat
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        ctl = dict(self.server.control)
        if not self.path.endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        mode = ctl.get("mode", "ok")
        if ctl.get("refuse_temperature") and "temperature" in body:
            self._json(400, {"error": {"message": f"Unsupported value: 'temperature' does not support {body['temperature']} "
                                       "with this model. Only the default (1) value is supported.",
                                       "type": "invalid_request_error", "param": "temperature"}})
            return
        if ctl.get("refuse_images") and any(isinstance(m.get("content"), list) and any(
                p.get("type") == "image_url" for p in m["content"]) for m in body.get("messages", [])):
            self._json(400, {"error": {"message": "Invalid content type. image_url is only supported by certain models.",
                                       "type": "invalid_request_error", "param": "messages"}})
            return
        failed = sum(1 for r in self.server.requests if r.get("failed"))
        if mode == "error" and failed < int(ctl.get("times", 1 << 30)):
            self.server.requests[-1]["failed"] = True
            status = int(ctl.get("status", 500))
            extra = {"Retry-After": str(ctl["retry_after"])} if "retry_after" in ctl else {}
            self._json(status, {"error": {"message": ctl.get("message", "model 'x' not found"), "type": "invalid_request_error"}},
                       extra)
            return
        if mode == "hang":
            self.server.stop.wait()
            return
        if mode == "garbage":
            raw = b"<html><body>502 Bad Gateway</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
            return
        prompt = "\n".join(_text(m.get("content", "")) for m in body.get("messages", []))
        role = role_of(prompt)
        if "reply" in ctl:
            text = ctl["reply"]
        elif role == "builder":
            files = ctl.get("files", "auto")
            files = {"index.html": GAME_HTML} if files == "auto" else files
            text = builder_text(files, ["wrote the game"])
        else:
            text = reply_text(auto_reply(role))
        usage = ctl.get("usage", {"prompt_tokens": 1500, "completion_tokens": 600})
        model = body.get("model", "fake-model")
        if body.get("stream"):
            self._stream(text, usage, model, mode)
        else:
            out = {"id": "chatcmpl-1", "object": "chat.completion", "model": model,
                   "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}
            if usage is not None:
                out["usage"] = usage
            self._json(200, out)

    def _stream(self, text: str, usage: Any, model: str, mode: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        step = max(1, len(text) // 8)
        for i in range(0, len(text), step):
            chunk = {"id": "c", "object": "chat.completion.chunk", "model": model,
                     "choices": [{"index": 0, "delta": {"content": text[i:i + step]}, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
            if mode == "stall":
                self.server.stop.wait()
                return
            if mode == "badchunk":
                self.wfile.write(b"data: {oops\n\n")
                self.wfile.flush()
                return
        # the last content chunk's successor: an empty delta with the finish reason, as the API sends it
        last = {"id": "c", "object": "chat.completion.chunk", "model": model,
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        self.wfile.write(f"data: {json.dumps(last)}\n\n".encode())
        if usage is not None:
            tail = {"id": "c", "object": "chat.completion.chunk", "model": model, "choices": [], "usage": usage}
            self.wfile.write(f"data: {json.dumps(tail)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        raw = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)


class FakeChat(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.control: dict[str, Any] = {}
        self.requests: list[dict[str, Any]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-chat", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> FakeChat:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.shutdown()
        self.server_close()


if __name__ == "__main__":
    with FakeChat() as srv:
        print(srv.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
