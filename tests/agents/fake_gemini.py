"""A fake Gemini API for the real `gemini` CLI: `POST /v1beta/models/<m>:streamGenerateContent?alt=sse`
(SSE `data:` chunks of candidates[].content.parts[] with usageMetadata) and `:generateContent` (its
model router and side requests, answered whole). A builder gets a `write_file` function call, run by
the CLI itself, before its answer. The script's `command` is a `run_shell_command` call, its harmless
tool turns `list_directory` calls; fault "flood" streams text chunks without end.
"""

from __future__ import annotations

import json
import random
import re
import string
from collections import Counter
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.agents.fake_base import GAME_HTML, SSE, FakeServer, Recorded, role_of, send_json, text_of

MODEL_RE = re.compile(r"/models/([^/:?]+):(streamGenerateContent|generateContent|countTokens)")
STATUS = {401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}
CWD_RE = re.compile(r"(?:working directory|current directory)[^/\n]*?(/[^\s'\"`]+)", re.I)


class FakeGemini(FakeServer):
    default_model = "gemini-2.5-pro"
    #: the model the last role request (streamGenerateContent) asked for: the one that did the work
    answered: str | None = None

    @property
    def model(self) -> str:
        return self.script.model or self.answered or self.default_model

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        m = MODEL_RE.search(h.path)
        if not m:
            send_json(h, 404, {"error": {"code": 404, "message": f"no route {h.path}", "status": "NOT_FOUND"}})
            return
        asked, method = m.group(1), m.group(2)
        model = self.script.model or asked
        if method == "countTokens":
            send_json(h, 200, {"totalTokens": 1000})
            return
        contents = rec.body.get("contents") or []
        user = text_of([c for c in contents if isinstance(c, dict) and c.get("role") == "user"])
        streaming = method == "streamGenerateContent"
        rec.role = role_of(user) if streaming else None
        if self.fault_reply(h, rec, lambda s: {"error": {"code": s, "message": f"fake {s}", "status": STATUS[s]}}):
            return
        if not streaming:  # the router asks which model should answer; any short JSON text does
            # both of 0.61's router strategies (classifier, numerical classifier) read their fields from it
            choice = {"reasoning": "simple", "model_choice": "flash", "complexity_reasoning": "simple", "complexity_score": 10}
            chunk = self._chunk([{"text": json.dumps(choice)}], model)
            chunk["usageMetadata"] = {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}
            send_json(h, 200, chunk)
            return
        self.answered = model
        sse = SSE(h)
        if rec.fault == "malformed":
            sse.raw('data: {"candidates": [{"content": {"parts": [{"te\n\n')
            return
        if rec.fault == "flood":
            # never the same text twice: Gemini CLI stops a stream that repeats itself ("Loop detected")
            self.flood(lambda n: sse.event(self._chunk([{"text": _words(n)}], model, last=False)))
            return
        role = rec.role
        done = Counter(p["functionResponse"].get("name") for c in contents if isinstance(c, dict)
                       for p in c.get("parts") or [] if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict))
        cwd = CWD_RE.search(text_of(rec.body.get("systemInstruction")) + "\n" + user)
        folder = cwd.group(1).rstrip(".,:;") if cwd else "."
        step = self.script.step(role, done["run_shell_command"],
                                sum(done.values()) - done["run_shell_command"] - done["write_file"] - done["read_file"],
                                done["read_file"])
        if step == "look":
            parts = [{"functionCall": {"name": "read_file", "args": {"file_path": f"{folder}/{name}"}}} for name in self.script.look]
        elif step == "command":
            parts = [{"functionCall": {"name": "run_shell_command",
                                       "args": {"command": self.script.command, "description": "run the command"}}}]
        elif step == "tools":
            parts = [{"functionCall": {"name": "list_directory", "args": {"dir_path": folder}}}] * self.script.tool_calls
        elif role == "builder" and not done["write_file"]:
            parts = [{"functionCall": {"name": "write_file", "args": {"file_path": f"{folder}/index.html", "content": GAME_HTML}}}]
        else:
            parts = []
        if parts:
            sse.event(self._chunk(parts, model))
            return
        text = self.script.answer_text(role, user) if role else "CRUMB task"
        pieces = [text[i:i + 400] for i in range(0, len(text), 400)]
        for i, piece in enumerate(pieces):
            sse.event(self._chunk([{"text": piece}], model, last=i == len(pieces) - 1))

    def _chunk(self, parts: list[dict[str, Any]], model: str, last: bool = True) -> dict[str, Any]:
        cand: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if last:
            cand["finishReason"] = "STOP"
        u = self.script.usage
        prompt = u["input"] + u["cached"]
        return {"candidates": [cand], "modelVersion": model,
                "usageMetadata": {"promptTokenCount": prompt, "cachedContentTokenCount": u["cached"],
                                  "candidatesTokenCount": u["output"], "totalTokenCount": prompt + u["output"]}}


def _words(seed: int) -> str:
    """About 1 KB of text no other seed gives."""
    rng = random.Random(seed)
    return " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9))) for _ in range(180))
