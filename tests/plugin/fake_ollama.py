"""A fake Ollama server (`POST /api/chat` NDJSON streaming, `GET /api/tags`) for the example plugin
examples/harness-plugin/: the vendor's model server is the one fake; the plugin, CRUMB and QA are real."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.agents.fake_base import GAME_HTML, FakeServer, Recorded, role_of, send_json, text_of


class FakeOllama(FakeServer):
    default_model = "qwen2.5-coder:7b"

    def on_get(self, h: BaseHTTPRequestHandler) -> None:
        if h.path.rstrip("/").endswith("/api/tags"):
            send_json(h, 200, {"models": [{"name": self.model}]})
        else:
            send_json(h, 404, {"error": f"no route {h.path}"})

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        if not h.path.rstrip("/").endswith("/api/chat"):
            send_json(h, 404, {"error": f"no route {h.path}"})
            return
        prompt = text_of([m for m in rec.body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "user"])
        rec.role = role_of(prompt)
        if self.fault_reply(h, rec, lambda s: {"error": f"fake {s}"}):
            return
        role = rec.role or ""
        text = self.script.answer_text(role, prompt) if role else "CRUMB"
        if role == "builder":
            text = f"<<<FILE index.html\n{GAME_HTML}\nFILE>>>\n" + text
        h.send_response(200)
        h.send_header("content-type", "application/x-ndjson")
        h.send_header("connection", "close")
        h.end_headers()
        h.close_connection = True
        for i in range(0, len(text), 500):
            self._line(h, {"model": self.model, "message": {"role": "assistant", "content": text[i:i + 500]}, "done": False})
        self._line(h, {"model": self.model, "message": {"role": "assistant", "content": ""}, "done": True,
                       "prompt_eval_count": 900, "eval_count": 150})

    @staticmethod
    def _line(h: BaseHTTPRequestHandler, obj: Any) -> None:
        h.wfile.write(json.dumps(obj).encode() + b"\n")
        h.wfile.flush()
