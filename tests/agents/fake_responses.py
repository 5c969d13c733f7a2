"""A fake OpenAI Responses API (`POST /v1/responses`, streaming SSE) for the real `codex` CLI.

Every event carries `sequence_number`: response.created, response.output_item.added / .done,
response.output_text.delta, response.completed (with usage). A builder gets an `apply_patch` custom
tool call when codex offers that tool (models it knows) and an `exec_command` function call otherwise;
codex runs either itself and sends the output back in the next request's `input`.
"""

from __future__ import annotations

import itertools
import json
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.agents.fake_base import GAME_HTML, SSE, FakeServer, Recorded, role_of, text_of

_ids = itertools.count(1)


def patch_for(path: str, text: str) -> str:
    body = "".join(f"+{line}\n" for line in text.splitlines())
    return f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"


class FakeResponses(FakeServer):
    default_model = "gpt-5.5"

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        if not h.path.split("?")[0].endswith("/responses"):
            from tests.agents.fake_base import send_json

            send_json(h, 404, {"error": {"message": f"no route {h.path}"}})
            return
        body = rec.body
        items = body.get("input") or []
        prompt = text_of([i for i in items if isinstance(i, dict) and i.get("role") == "user"])
        rec.role = role_of(prompt)
        if self.fault_reply(h, rec, lambda s: {"error": {"message": f"fake {s}", "type": "fake_error", "code": str(s)}}):
            return
        tools = {str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict)}
        called = any(isinstance(i, dict) and str(i.get("type", "")).endswith("_call_output") for i in items)
        self.seq = 0
        sse = SSE(h)
        rid = f"resp_{next(_ids)}"
        model = self.model
        self._ev(sse, "response.created", response={"id": rid, "object": "response", "status": "in_progress",
                                                    "model": model, "output": []})
        if rec.fault == "malformed":
            sse.raw('event: response.output_item.added\ndata: {"type": "response.output_item.added", "seq\n\n')
            return
        role = rec.role
        if role == "builder" and not called and "apply_patch" in tools:
            item = {"type": "custom_tool_call", "id": f"ctc_{next(_ids)}", "call_id": f"call_{next(_ids)}",
                    "name": "apply_patch", "input": patch_for("index.html", GAME_HTML), "status": "completed"}
        elif role == "builder" and not called:
            cmd = f"cat > index.html <<'CRUMB_EOF'\n{GAME_HTML}\nCRUMB_EOF"
            name = "exec_command" if "exec_command" in tools else "shell"
            args = {"cmd": cmd} if name == "exec_command" else {"command": ["bash", "-lc", cmd]}
            item = {"type": "function_call", "id": f"fc_{next(_ids)}", "call_id": f"call_{next(_ids)}",
                    "name": name, "arguments": json.dumps(args), "status": "completed"}
        else:
            text = self.script.answer_text(role, prompt) if role else "CRUMB task"
            item = self._message(sse, text)
        self._ev(sse, "response.output_item.added", output_index=0, item={**item, "status": "in_progress"}
                 if item["type"] == "message" else item)
        if item["type"] == "message":
            text = item["content"][0]["text"]
            for i in range(0, len(text), 400):
                self._ev(sse, "response.output_text.delta", item_id=item["id"], output_index=0, content_index=0,
                         delta=text[i:i + 400])
        self._ev(sse, "response.output_item.done", output_index=0, item=item)
        self._ev(sse, "response.completed", response={
            "id": rid, "object": "response", "status": "completed", "model": model, "output": [item],
            "usage": {"input_tokens": 1000, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 200,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 1200}})

    def _message(self, sse: SSE, text: str) -> dict[str, Any]:
        return {"type": "message", "id": f"msg_{next(_ids)}", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}

    def _ev(self, sse: SSE, kind: str, **fields: Any) -> None:
        sse.event({"type": kind, "sequence_number": self.seq, **fields}, kind)
        self.seq += 1
