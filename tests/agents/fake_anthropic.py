"""A fake Anthropic Messages API (`POST /v1/messages`, streaming SSE) for the real `claude` CLI.

Stream: message_start, content_block_start / content_block_delta (text_delta, input_json_delta) /
content_block_stop, message_delta (stop_reason tool_use | end_turn, usage), message_stop. The builder
gets a `Write` tool call for index.html in the CLI's working folder, which the CLI runs itself; with
--json-schema the answer goes back through the `StructuredOutput` tool. The script's `command` is a
`Bash` call, its harmless tool turns `Glob` calls, its `look` files `Read` calls (the CLI runs only what
its permissions allow; it answers a Read of an image with an image block in the tool result).
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.agents.fake_base import GAME_HTML, SSE, FakeServer, Recorded, role_of, text_of

CWD_RE = re.compile(r"working directory: (\S+)", re.I)
ERRORS = {401: "authentication_error", 429: "rate_limit_error", 500: "api_error"}
_ids = itertools.count(1)


class FakeAnthropic(FakeServer):
    default_model = "claude-sonnet-4-5"

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        body = rec.body
        messages = body.get("messages") or []
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        prompt = text_of(messages[:1])
        rec.role = role_of(prompt) if tools else None
        if self.fault_reply(h, rec, lambda s: {"type": "error", "error": {"type": ERRORS[s], "message": f"fake {s}"}}):
            return
        sse = SSE(h)
        usage = self.script.usage
        model = self.script.model or str(body.get("model") or self.default_model)
        sse.event({"type": "message_start", "message": {
            "id": f"msg_{next(_ids)}", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": usage["input"], "cache_read_input_tokens": usage["cached"], "output_tokens": 1}}},
            "message_start")
        if rec.fault == "malformed":
            sse.raw("event: content_block_start\ndata: {\"type\": \"content_block_start\", \"index\": 0, \"con\n\n")
            return
        # tool results by the tag of the call they answer; a refused StructuredOutput call counts as none,
        # so the model tries again as a real one would (the CLI gives up after its own retries)
        done = Counter(str(b.get("tool_use_id", "")).split("_")[0] for m in messages for b in _blocks(m)
                       if b.get("type") == "tool_result" and not (b.get("is_error") and str(b.get("tool_use_id")).startswith("structured_")))
        role = rec.role
        cwd = _cwd(body)
        step = self.script.step(role, done["cmd"], done["tool"], done["look"])
        if step == "look":
            self._tools(sse, [("Read", "look", {"file_path": f"{cwd}/{name}"}) for name in self.script.look])
        elif step == "command":
            self._tools(sse, [("Bash", "cmd", {"command": self.script.command, "description": "run the command"})])
        elif step == "tools":
            self._tools(sse, [("Glob", "tool", {"pattern": "*", "path": cwd})] * self.script.tool_calls)
        elif role == "builder" and not done["write"]:
            self._tools(sse, [("Write", "write", {"file_path": f"{cwd}/index.html", "content": GAME_HTML})])
        elif role and "StructuredOutput" in tools and not done["structured"]:
            self._tools(sse, [("StructuredOutput", "structured", self.script.answer(role, prompt))])
        elif role and "StructuredOutput" in tools:
            self._text(sse, "Done.")
        elif role:
            self._text(sse, self.script.answer_text(role, prompt))
        else:
            self._text(sse, "CRUMB task")

    def _text(self, sse: SSE, text: str) -> None:
        sse.event({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                  "content_block_start")
        for i in range(0, len(text), 400):
            sse.event({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text[i:i + 400]}},
                      "content_block_delta")
        sse.event({"type": "content_block_stop", "index": 0}, "content_block_stop")
        self._end(sse, "end_turn")

    def _tools(self, sse: SSE, calls: list[tuple[str, str, dict[str, Any]]]) -> None:
        """One assistant turn of tool_use blocks (name, id tag, input), run by the CLI itself."""
        for index, (name, tag, args) in enumerate(calls):
            tool_id = f"{tag}_{next(_ids)}"
            sse.event({"type": "content_block_start", "index": index,
                       "content_block": {"type": "tool_use", "id": tool_id, "name": name, "input": {}}},
                      "content_block_start")
            raw = json.dumps(args)
            for i in range(0, len(raw), 1000):
                sse.event({"type": "content_block_delta", "index": index,
                           "delta": {"type": "input_json_delta", "partial_json": raw[i:i + 1000]}}, "content_block_delta")
            sse.event({"type": "content_block_stop", "index": index}, "content_block_stop")
        self._end(sse, "tool_use")

    def _end(self, sse: SSE, stop: str) -> None:
        sse.event({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": self.script.usage["output"]}}, "message_delta")
        sse.event({"type": "message_stop"}, "message_stop")


def _blocks(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _cwd(body: dict[str, Any]) -> str:
    m = CWD_RE.search(text_of(body.get("system")) + "\n" + text_of(body.get("messages")))
    return m.group(1) if m else "."
