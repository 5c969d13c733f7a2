"""`ollama`: a CRUMB harness for Ollama's own chat API, `POST {base}/api/chat` (NDJSON streaming).

Why not `openai:ollama/...`? Ollama's OpenAI-compatible endpoint silently truncates prompts to the
server's default context (2-8 K tokens), and CRUMB's prompts are longer; its own API takes
`options.num_ctx` per request, so this harness sends a context large enough for the prompt.

Binding strings: `ollama:qwen2.5-coder:7b`, `ollama:qwen2.5-coder:7b@http://gpu:11434` (another server).
Binding options: `base_url`, `num_ctx`, `temperature`.

Assumptions about the server (Ollama's API docs, /api/chat and /api/tags):
- POST /api/chat {model, messages, stream: true, options{num_ctx, temperature}} answers one JSON object a
  line: {"model", "message": {"role", "content"}, "done": false} ..., then {"done": true, "model",
  "prompt_eval_count", "eval_count"}; an error is {"error": "..."} with a 4xx/5xx status.
- GET /api/tags answers when the server is up (the pre-flight probe).
The model cannot run tools: a Builder writes its files as blocks (CRUMB's files format), like `openai`.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Mapping
from typing import Any, ClassVar
from urllib.parse import urlsplit

from crumb.actors.base import ActorError, ActorRequest, ActorResult, Binding, ProgressFn, ProgressUpdate
from crumb.actors.harness.common import usage_meta
from crumb.actors.harness.filesformat import FileFormatError, parse_files, write_files
from crumb.actors.harness.openai import quote_files
from crumb.actors.harness.plugin import Harness
from crumb.actors.harness.roles import WRITERS, prompt_for, require_entry, result_payload

DEFAULT_BASE = "http://127.0.0.1:11434"
#: tokens of context asked for when the binding sets none: CRUMB's prompts with a quoted game fit
NUM_CTX = 32768
SYSTEM = "You play one role in CRUMB, a studio that makes small browser games. Follow the instructions exactly."


class OllamaHarness(Harness):
    name: ClassVar[str] = "ollama"
    provider: ClassVar[str | None] = "ollama"  # on your own machine: free (CRUMB's price table)
    summary: ClassVar[str] = "Ollama's own chat API, `POST {base}/api/chat` (plugin example)"
    install: ClassVar[str] = "start the server: `ollama serve`, then `ollama pull <model>`"

    # -- bindings: "ollama:<model>[@<base_url>]" -------------------------------------------------------
    def binding(self, rest: str, spec: str, *, partial: bool) -> tuple[str | None, str | None, dict[str, Any]]:
        model, _, base = rest.partition("@")
        if any(c.isspace() for c in model):
            raise ValueError(f"{spec!r}: an Ollama model name has no spaces")
        if not model and not partial:
            raise ValueError(f"ollama needs a model: write ollama:qwen2.5-coder:7b, not {spec!r}")
        return self.provider, model or None, ({"base_url": base} if base else {})

    def check(self, binding: Binding) -> None:
        if not binding.model:
            raise ValueError('ollama needs a model (model = "qwen2.5-coder:7b")')

    def label(self, binding: Binding) -> str:
        base = binding.options.get("base_url")
        return f"ollama:{binding.model or ''}" + (f"@{base}" if base else "")

    # -- can it run here? -----------------------------------------------------------------------------
    def why_not(self, binding: Binding, env: Mapping[str, str], timeout: float) -> tuple[str, str] | None:
        base = str(binding.options.get("base_url") or DEFAULT_BASE)
        try:
            status, _ = _request(base, "GET", "/api/tags", None, timeout)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            return f"no Ollama server answers at {base} ({type(exc).__name__}: {exc})"[:200], self.install
        return None if status < 500 else (f"the Ollama server at {base} answers {status}", "check `ollama serve`'s log")

    def signed_in(self, env: Mapping[str, str]) -> str | None:
        return "a local server needs no sign-in"

    # -- a run ---------------------------------------------------------------------------------------
    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        opts, model = request.binding.options, request.binding.model
        if not model:
            raise ActorError(f"ollama {request.role}: no model; bind e.g. ollama:qwen2.5-coder:7b")
        request.work_dir.mkdir(parents=True, exist_ok=True)
        quoted = ""
        if request.role in WRITERS and any(request.work_dir.iterdir()):
            quoted = "## The game folder now\n\n" + quote_files(request.work_dir)
        elif request.role == "verifier":
            quoted = "## The game's files\n\n" + (quote_files(request.work_dir / "game") or "(none)")
        prompt = prompt_for(request, mode="text", files=quoted)
        body = {"model": model, "stream": True,
                "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
                "options": {"num_ctx": int(opts.get("num_ctx", NUM_CTX)),
                            **({"temperature": float(opts["temperature"])} if "temperature" in opts else {})}}
        started = time.monotonic()
        text, final = self._chat(request, body, progress, cancel, started)
        usage = usage_meta("ollama", request, model=str(final.get("model") or model),
                           tokens_in=final.get("prompt_eval_count"), tokens_out=final.get("eval_count"),
                           duration_ms=int((time.monotonic() - started) * 1000))
        if request.role not in WRITERS:
            return ActorResult(payload=result_payload(request.role, text, harness="ollama"), usage=usage)
        try:
            blocks, rest = parse_files(text)
            files = write_files(request.work_dir, blocks)
        except FileFormatError as exc:
            raise ActorError(f"ollama builder: {exc}; nothing was written", usage=usage) from None
        require_entry(request, "ollama")
        return ActorResult(payload=result_payload("builder", rest, harness="ollama"), files=files, usage=usage)

    def _chat(self, request: ActorRequest, body: dict[str, Any], progress: ProgressFn, cancel: threading.Event,
              started: float) -> tuple[str, dict[str, Any]]:
        """The streamed answer and the final object; ActorError on an error, the wall limit or a cancel.
        The socket times out after the idle limit, so a silent server cannot hold the run."""
        base = str(request.binding.options.get("base_url") or DEFAULT_BASE)
        parts: list[str] = []
        final: dict[str, Any] = {}
        try:
            conn, resp = _open(base, "POST", "/api/chat", json.dumps(body).encode(), request.limits.idle_s)
            try:
                if resp.status >= 400:
                    raise ActorError(f"ollama {request.role}: HTTP {resp.status}: {_error(resp.read(65536))}")
                for raw in iter(resp.readline, b""):
                    if cancel.is_set():
                        raise ActorError(f"ollama {request.role}: cancelled; the request was abandoned")
                    if time.monotonic() - started > request.limits.wall_s:
                        raise ActorError(f"ollama {request.role}: no complete answer within the wall limit of "
                                         f"{request.limits.wall_s:g} s; raise actors.wall_s")
                    line = json.loads(raw) if raw.strip() else {}
                    if not isinstance(line, dict):
                        continue
                    if line.get("error"):
                        raise ActorError(f"ollama {request.role}: {str(line['error'])[:300]}")
                    parts.append(str((line.get("message") or {}).get("content") or ""))
                    if line.get("done"):
                        final = line
                        break
                    progress(ProgressUpdate(message=f"received {sum(map(len, parts))} characters", tool="generate"))
            finally:
                conn.close()
        except TimeoutError:
            raise ActorError(f"ollama {request.role}: the server sent nothing for {request.limits.idle_s:g} s "
                             "(idle limit); is the model loaded?") from None
        except (OSError, http.client.HTTPException) as exc:
            raise ActorError(f"ollama {request.role}: cannot talk to {base}: {type(exc).__name__}: {exc}; "
                             "start it with `ollama serve` or fix base_url") from None
        except ValueError as exc:
            raise ActorError(f"ollama {request.role}: the server sent a line that is not JSON ({exc})") from None
        if not final:
            raise ActorError(f"ollama {request.role}: the stream ended before its final (done) line")
        return "".join(parts), final


def _open(base: str, method: str, path: str, body: bytes | None,
          timeout: float) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url {base!r} is not an http(s) URL, e.g. {DEFAULT_BASE}")
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, parts.port or (443 if parts.scheme == "https" else 11434), timeout=timeout)
    conn.request(method, parts.path.rstrip("/") + path, body=body, headers={"Content-Type": "application/json"})
    return conn, conn.getresponse()


def _request(base: str, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
    conn, resp = _open(base, method, path, body, timeout)
    try:
        return resp.status, resp.read(65536)
    finally:
        conn.close()


def _error(raw: bytes) -> str:
    try:
        return str(json.loads(raw).get("error"))[:300]
    except (ValueError, AttributeError):
        return raw.decode("utf-8", "replace")[:300] or "no body"
