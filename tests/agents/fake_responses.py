"""A fake OpenAI Responses API (`POST /v1/responses`, streaming SSE) for the real `codex` CLI.

Every event carries `sequence_number`: response.created, response.output_item.added / .done,
response.output_text.delta, response.completed (with usage). A builder gets an `apply_patch` custom
tool call when codex offers that tool (models it knows) and an `exec_command` function call otherwise;
codex runs either itself and sends the output back in the next request's `input`. The script's
`command` and its harmless tool turns (`ls`, `tool_calls` at once) are `exec_command` calls too.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
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
        done = Counter(str(i.get("call_id", "")).split("_")[0] for i in items
                       if isinstance(i, dict) and str(i.get("type", "")).endswith("_call_output"))
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
        shell = "exec_command" if "exec_command" in tools else "shell"
        step = self.script.step(role, done["cmd"], done["tool"])
        if step == "command":
            output = [self._shell(shell, "cmd", str(self.script.command))]
        elif step == "tools":
            output = [self._shell(shell, "tool", "ls") for _ in range(self.script.tool_calls)]
        elif role == "builder" and not done["write"] and "apply_patch" in tools:
            output = [{"type": "custom_tool_call", "id": f"ctc_{next(_ids)}", "call_id": f"write_{next(_ids)}",
                       "name": "apply_patch", "input": patch_for("index.html", GAME_HTML), "status": "completed"}]
        elif role == "builder" and not done["write"]:
            output = [self._shell(shell, "write", f"cat > index.html <<'CRUMB_EOF'\n{GAME_HTML}\nCRUMB_EOF")]
        else:
            output = [self._message(sse, self.script.answer_text(role, prompt) if role else "CRUMB task")]
        for index, item in enumerate(output):
            self._ev(sse, "response.output_item.added", output_index=index,
                     item={**item, "status": "in_progress"} if item["type"] == "message" else item)
            if item["type"] == "message":
                text = item["content"][0]["text"]
                for i in range(0, len(text), 400):
                    self._ev(sse, "response.output_text.delta", item_id=item["id"], output_index=index, content_index=0,
                             delta=text[i:i + 400])
            self._ev(sse, "response.output_item.done", output_index=index, item=item)
        usage = self.script.usage
        self._ev(sse, "response.completed", response={
            "id": rid, "object": "response", "status": "completed", "model": model, "output": output,
            "usage": {"input_tokens": usage["input"] + usage["cached"], "input_tokens_details": {"cached_tokens": usage["cached"]},
                      "output_tokens": usage["output"], "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": usage["input"] + usage["cached"] + usage["output"]}})

    def _shell(self, name: str, tag: str, cmd: str) -> dict[str, Any]:
        """A function call of codex's shell tool (exec_command, or shell on older codex) running `cmd`."""
        args = {"cmd": cmd} if name == "exec_command" else {"command": ["bash", "-lc", cmd]}
        return {"type": "function_call", "id": f"fc_{next(_ids)}", "call_id": f"{tag}_{next(_ids)}",
                "name": name, "arguments": json.dumps(args), "status": "completed"}

    def _message(self, sse: SSE, text: str) -> dict[str, Any]:
        return {"type": "message", "id": f"msg_{next(_ids)}", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}

    def _ev(self, sse: SSE, kind: str, **fields: Any) -> None:
        sse.event({"type": kind, "sequence_number": self.seq, **fields}, kind)
        self.seq += 1
