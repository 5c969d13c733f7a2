"""Any OpenAI-compatible chat server (Ollama, llama.cpp server, vLLM, LM Studio, OpenAI itself).

POST {base}/chat/completions with {model, messages, temperature, stream}. The model cannot run tools,
so a Builder writes its files in the text format of filesformat.py, confined to the game folder.
The request runs on a worker thread so the wall and idle limits and /cancel can cut it off by
closing the socket.

Models of the GPT-5 family (and o-series) accept only the default temperature: it is left out for them,
and for any model whose server refuses it, with a progress note saying so. A 429 is waited out as its
Retry-After asks (a progress event, inside the wall limit). HTTP(S)_PROXY / NO_PROXY are honoured.

A chat server cannot say whether its model reads images, so the binding does: `options.images = true`
sends the Verifier QA's filmstrip (the contact sheet, then each frame) as `image_url` parts of the user
message; a server that refuses them (HTTP 400 naming images) gets the request again without them, with
a progress note. Without the option, the prompt does not mention frames the model cannot see.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import threading
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit
from urllib.request import getproxies, proxy_bypass

from crumb.actors.base import (
    ActorError,
    ActorRequest,
    ActorResult,
    Binding,
    ProgressFn,
    ProgressUpdate,
)
from crumb.actors.harness.common import usage_meta
from crumb.actors.harness.filesformat import FileFormatError, parse_files, write_files
from crumb.actors.harness.plugin import Harness
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    WRITERS,
    prompt_for,
    require_entry,
    result_payload,
)
from crumb.actors.harness.verifier_dir import FilmFile, film_files, film_note

#: base URLs of the usual local servers, by provider name
DEFAULT_BASES = {
    "ollama": "http://localhost:11434/v1",
    "llamacpp": "http://localhost:8080/v1",
    "vllm": "http://localhost:8000/v1",
    "lmstudio": "http://localhost:1234/v1",
    "openai": "https://api.openai.com/v1",
}
LOOPBACK = {"localhost", "127.0.0.1", "::1"}
SYSTEM = "You play one role in CRUMB, a studio that makes small browser games. Follow the instructions exactly."
#: how much of the existing game the prompt may quote (fix rounds, verifier)
MAX_QUOTE_BYTES = 200_000
#: model name prefixes that refuse any temperature but the default ("Only the default (1) value is supported")
FIXED_TEMPERATURE = ("gpt-5", "o1", "o3", "o4")
#: how many 429s a run waits out before it fails
MAX_RATE_LIMIT_WAITS = 3
TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".txt", ".md", ".svg"}


def base_url(request: ActorRequest) -> str:
    opts = request.binding.options
    base = opts.get("base_url") or DEFAULT_BASES.get(request.binding.provider or "", None)
    if not base:
        raise ActorError(
            f"openai {request.role}: no base_url; set options.base_url (e.g. http://localhost:11434/v1) "
            "in the binding or use provider ollama|llamacpp|vllm|lmstudio|openai"
        )
    return str(base)


def endpoint(base: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path of chat/completions) for a base URL, with or without /v1."""
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url {base!r} is not an http(s) URL; e.g. http://localhost:11434/v1")
    path = parts.path.rstrip("/")
    if not path.endswith("/v1") and "/v1/" not in path + "/":
        path += "/v1"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname, port, path + "/chat/completions"


def quote_files(folder: Path) -> str:
    """The text files of a game folder, in the files format, for models that cannot read files."""
    if not folder.is_dir():
        return ""
    out: list[str] = []
    used = 0
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.is_symlink() or path.suffix.lower() not in TEXT_SUFFIXES:
            continue
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        used += len(text)
        if used > MAX_QUOTE_BYTES:
            out.append(f"(further files omitted: over {MAX_QUOTE_BYTES} bytes)\n")
            break
        out.append(f"<<<FILE {path.relative_to(folder).as_posix()}\n{text}{'' if text.endswith(chr(10)) else chr(10)}FILE>>>\n")
    return "".join(out)


class _Call(threading.Thread):
    """One HTTP exchange; the owner watches `last` (monotonic time of the last bytes) and `done`."""

    def __init__(self, url: tuple[str, str, int, str], body: bytes, headers: dict[str, str], log: Path | None,
                 throttle: Throttle) -> None:
        super().__init__(name="crumb-openai", daemon=True)
        self.url = url
        self.body = body
        self.headers = headers
        self.log_path = log
        self.throttle = throttle
        self.done = threading.Event()
        self.last = time.monotonic()
        self.text: list[str] = []
        self.usage: dict[str, Any] = {}
        self.model: str | None = None
        self.finish_reason: str | None = None  # the first choice's, as the server said it
        self.error: str | None = None
        self.status = 0
        self.retry_after: float | None = None
        self.conn: http.client.HTTPConnection | None = None
        self.closed = False

    def close(self) -> None:
        self.closed = True
        conn = self.conn
        if conn is not None and conn.sock is not None:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def run(self) -> None:
        log = open(self.log_path, "ab") if self.log_path else None
        try:
            self._exchange(log)
        except (OSError, http.client.HTTPException) as exc:
            if not self.closed:
                self.error = _describe(exc, self.url)
        finally:
            if log:
                log.close()
            if self.conn is not None:
                self.conn.close()
            self.done.set()

    def _exchange(self, log: Any) -> None:
        scheme, host, port, path = self.url
        self.conn, target = connection(scheme, host, port, path)
        self.conn.request("POST", target, body=self.body, headers=self.headers)
        resp = self.conn.getresponse()
        self.last = time.monotonic()
        self.status = resp.status
        ctype = resp.getheader("content-type", "")
        if resp.status >= 400:
            raw = resp.read(65536)
            if log:
                log.write(raw + b"\n")
            self.retry_after = retry_after(resp.getheader("retry-after"))
            self.error = f"HTTP {resp.status}: {_error_message(raw)}"
            return
        if "text/event-stream" in ctype:
            self._stream(resp, log)
        else:
            raw = resp.read()
            self.last = time.monotonic()
            if log:
                log.write(raw + b"\n")
            self._whole(raw)

    def _stream(self, resp: http.client.HTTPResponse, log: Any) -> None:
        chars = 0
        for raw in iter(resp.readline, b""):
            self.last = time.monotonic()
            if log:
                log.write(raw)
                log.flush()
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
            except ValueError:
                self.error = f"the server sent a malformed stream chunk: {data[:120]!r}"
                return
            if not isinstance(chunk, dict):
                continue
            if chunk.get("error"):
                self.error = _error_message(json.dumps(chunk).encode())
                return
            self.model = _named(chunk.get("model")) or self.model
            if isinstance(chunk.get("usage"), dict):
                self.usage = chunk["usage"]
            for choice in chunk.get("choices") or []:
                self.finish_reason = _named((choice or {}).get("finish_reason")) or self.finish_reason
                piece = ((choice or {}).get("delta") or {}).get("content")
                if piece:
                    self.text.append(piece)
                    chars += len(piece)
            self.throttle(ProgressUpdate(message=f"received {chars} characters", tool="generate"))

    def _whole(self, raw: bytes) -> None:
        try:
            obj = json.loads(raw)
            message = obj["choices"][0]["message"]
            content = message.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            snippet = raw[:120].decode("utf-8", "replace")
            self.error = f"the server's reply is not a chat completion (it begins: {snippet!r})"
            return
        self.text.append(str(content or ""))
        self.model = _named(obj.get("model"))
        self.finish_reason = _named(obj["choices"][0].get("finish_reason"))
        if isinstance(obj.get("usage"), dict):
            self.usage = obj["usage"]


def _named(value: Any) -> str | None:
    """A reply's `model` when it is a name (server output is untrusted)."""
    return value if isinstance(value, str) and value.strip() else None


def connection(scheme: str, host: str, port: int, path: str) -> tuple[http.client.HTTPConnection, str]:
    """A connection to the server, through the proxy the environment names for it (HTTP(S)_PROXY, unless
    NO_PROXY exempts the host; a loopback server never goes through one), and the request target to send on it."""
    proxy = None if host in LOOPBACK or proxy_bypass(host) else getproxies().get(scheme)
    if not proxy:
        cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        return cls(host, port, timeout=None), path
    p = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if scheme == "https":
        conn = http.client.HTTPSConnection(p.hostname or "", p.port or 8080, timeout=None)
        conn.set_tunnel(host, port)
        return conn, path
    return http.client.HTTPConnection(p.hostname or "", p.port or 8080, timeout=None), f"http://{host}:{port}{path}"


def retry_after(value: str | None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date), None if absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def accepts_images(opts: Mapping[str, Any]) -> bool:
    """The binding says its model reads images (options.images = true); a chat server cannot tell."""
    value = opts.get("images", False)
    return value is True or str(value).lower() in ("true", "1", "yes")


def film_in(request: ActorRequest) -> list[tuple[FilmFile, bytes]]:
    """The filmstrip files the Verifier's folder holds (prepare_verifier_dir copied those whose hash held)."""
    out = []
    for f in film_files(request.input):
        path = request.work_dir / f.name
        if path.is_file() and not path.is_symlink():
            out.append((f, path.read_bytes()))
    return out


def user_content(prompt: str, film: list[tuple[FilmFile, bytes]]) -> str | list[dict[str, Any]]:
    """The user message: the prompt alone, or the prompt then one image part per filmstrip file."""
    if not film:
        return prompt
    parts: list[dict[str, Any]] = [{"type": "text", "text": prompt}]
    for _f, data in film:
        url = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        parts.append({"type": "image_url", "image_url": {"url": url, "detail": "low"}})
    return parts


def refuses_images(error: str) -> bool:
    text = error.lower()
    return any(w in text for w in ("image", "vision", "multimodal", "image_url"))


def refuses_temperature(error: str) -> bool:
    text = error.lower()
    return "temperature" in text and any(w in text for w in ("unsupported", "not support", "only the default"))


def _error_message(raw: bytes) -> str:
    try:
        obj = json.loads(raw)
        err = obj.get("error", obj)
        msg = err.get("message") if isinstance(err, dict) else err
        return " ".join(str(msg).split())[:300]
    except (ValueError, AttributeError):
        return " ".join(raw.decode("utf-8", "replace").split())[:300] or "no body"


def _describe(exc: BaseException, url: tuple[str, str, int, str]) -> str:
    where = f"{url[0]}://{url[1]}:{url[2]}"
    if isinstance(exc, ConnectionRefusedError):
        return f"cannot reach {where} (connection refused); start the server (e.g. `ollama serve`) or fix base_url"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve {url[1]!r}; fix base_url"
    return f"{type(exc).__name__} talking to {where}: {exc}"


NO_MODEL = "openai needs a model: write openai:ollama/qwen2.5-coder (provider/model, optionally @base_url)"
#: seconds a model server has to answer the pre-flight probe (setting harness.probe_timeout_s)
PROBE_TIMEOUT_S = 2.0


def server_answers(base: str, timeout: float = PROBE_TIMEOUT_S) -> str | None:
    """None when an HTTP server answers GET {base}/models (any status), else why not, in a few words."""
    try:
        scheme, host, port, path = endpoint(base)
    except ValueError as exc:
        return str(exc)
    cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    conn: http.client.HTTPConnection | None = None
    try:
        conn = cls(host, port, timeout=timeout)
        conn.request("GET", path.rsplit("/chat/completions", 1)[0] + "/models")
        _drain(conn.getresponse())
        return None
    except ConnectionRefusedError:
        return "connection refused"
    except socket.gaierror:
        return f"cannot resolve {host!r}"
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except (OSError, http.client.HTTPException, ValueError) as exc:  # ValueError: a host http.client cannot encode
        return f"{type(exc).__name__}: {exc}"[:160]
    finally:
        if conn is not None:
            conn.close()


_PROBE_BODY_MAX = 1 << 16


def _drain(response: http.client.HTTPResponse) -> None:
    """Read the body a server announced (a length, or chunks): closing on bytes still unread resets the
    connection, and the server logs "connection reset by peer" for every pre-flight. It answered either way."""
    if response.length is None and not response.chunked:
        return  # a body that ends only when the server closes: not waited for
    try:
        response.read(_PROBE_BODY_MAX)
    except (OSError, http.client.HTTPException):
        pass


class OpenAIHarness(Harness):
    name: ClassVar[str] = "openai"
    provider: ClassVar[str | None] = None
    summary: ClassVar[str] = "any OpenAI-compatible chat server, `POST {base_url}/chat/completions`"
    install: ClassVar[str] = "start the server (e.g. `ollama serve`)"

    def binding(self, rest: str, spec: str, *, partial: bool) -> tuple[str | None, str | None, dict[str, Any]]:
        """'ollama/qwen2.5-coder@http://host:11434/v1': provider, model and base URL."""
        if any(c.isspace() for c in rest):
            raise ValueError(f"{spec!r}: a model name has no spaces (only command: takes arguments)")
        options: dict[str, Any] = {}
        provider: str | None = None
        model: str | None = None
        if rest:
            if "@" in rest:
                rest, _, base = rest.partition("@")
                options["base_url"] = base.strip()
            provider, _, model = rest.partition("/") if "/" in rest else ("openai", "", rest)
            model = model or None
        if not model and not partial:
            raise ValueError(f"{NO_MODEL}, not {spec!r}")
        return provider, model, options

    def label(self, binding: Binding) -> str:
        base = f"@{binding.options['base_url']}" if binding.options.get("base_url") else ""
        return f"openai:{binding.provider or 'openai'}/{binding.model or ''}{base}"

    def check(self, binding: Binding) -> None:
        if not binding.model:
            raise ValueError(f"{NO_MODEL} (or model = \"...\" in this table)")

    def why_not(self, binding: Binding, env: Mapping[str, str], timeout: float) -> tuple[str, str] | None:
        base = binding.options.get("base_url") or DEFAULT_BASES.get(binding.provider or "")
        if not base:
            return (f"provider {binding.provider!r} has no known base URL",
                    "add @http://host:port/v1 to the binding or set options.base_url")
        problem = server_answers(str(base), timeout)
        if problem is None:
            return None
        return f"no model server answers at {base} ({problem})", "start it (e.g. `ollama serve`) or fix the base URL"


    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        opts = request.binding.options
        model = request.binding.model
        if not model:
            raise ActorError(f"openai {request.role}: no model; bind e.g. openai:ollama/qwen2.5-coder")
        try:
            url = endpoint(base_url(request))
        except ValueError as exc:
            raise ActorError(f"openai {request.role}: {exc}") from None
        request.work_dir.mkdir(parents=True, exist_ok=True)
        quoted = ""
        if request.role == "builder":
            current = quote_files(request.work_dir)
            quoted = f"## The game folder now\n\n{current}" if current else ""
        elif request.role == "verifier":
            quoted = "## The game's files\n\n" + (quote_files(request.work_dir / "game") or "(none)")
        film = film_in(request) if request.role == "verifier" and accepts_images(opts) else []
        note = film_note(request.input, "They are attached to this message as images, in the order listed.") \
            if film else ""
        prompt = prompt_for(request, mode="text", files=quoted, film=note)
        text_only = prompt_for(request, mode="text", files=quoted, film="") if film else prompt
        body: dict[str, Any] = {
            "model": model,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user_content(prompt, film)}],
            "stream": bool(opts.get("stream", True)),
        }
        fixed = model.rsplit("/", 1)[-1].lower().startswith(FIXED_TEMPERATURE)
        if "temperature" in opts or not fixed:
            body["temperature"] = float(opts.get("temperature", 0.2))
        else:
            progress(ProgressUpdate(message=f"{model} accepts only its default temperature: sent without one",
                                    tool="note"))
        if body["stream"]:
            body["stream_options"] = {"include_usage": True}
        if opts.get("max_tokens"):
            body["max_tokens"] = int(opts["max_tokens"])
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        key_env = str(opts.get("api_key_env") or ("OPENAI_API_KEY" if request.binding.provider == "openai" else ""))
        key = os.environ.get(key_env) if key_env else None
        headers["Authorization"] = f"Bearer {key or 'crumb'}"
        if request.log_path:
            request.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(request.log_path, "ab") as log:
                log.write(f"POST {url[0]}://{url[1]}:{url[2]}{url[3]} model={model}\n".encode())
        throttle = Throttle(progress)
        started = time.monotonic()
        waits = 0
        while True:
            call = _Call(url, json.dumps(body).encode(), headers, request.log_path, throttle)
            call.start()
            stopped = _wait(call, request, cancel, started)
            if stopped or not call.error:
                break
            if film and call.status == 400 and refuses_images(call.error):
                film = []
                body["messages"][1]["content"] = text_only
                progress(ProgressUpdate(message=f"the server refused images for {model}: sent again without the "
                                        "filmstrip (set options.images = false to skip trying)", tool="note"))
                continue
            if "temperature" in body and call.status == 400 and refuses_temperature(call.error):
                body.pop("temperature")
                progress(ProgressUpdate(message=f"the server refused a temperature for {model}: sent again without one",
                                        tool="note"))
                continue
            if call.status == 429 and waits < MAX_RATE_LIMIT_WAITS:
                waits += 1
                delay = call.retry_after if call.retry_after is not None else 2.0 ** waits
                left = request.limits.wall_s - (time.monotonic() - started)
                if delay >= left:
                    call.error += f"; the server asks to wait {delay:g} s, more than the {left:.0f} s left of the wall limit"
                    break
                progress(ProgressUpdate(message=f"rate limited (429): waiting {delay:g} s as the server asks, then "
                                        f"trying again ({waits}/{MAX_RATE_LIMIT_WAITS})", tool="rate_limit"))
                if cancel.wait(delay):
                    stopped = "cancelled; the request was abandoned"
                    break
                continue
            break
        throttle.flush()
        duration_ms = int((time.monotonic() - started) * 1000)
        text = "".join(call.text)
        usage = self._usage(request, call, prompt, text, duration_ms)
        if stopped:
            call.close()
            raise ActorError(f"openai {request.role}: {stopped}", usage=usage)
        if call.error:
            raise ActorError(f"openai {request.role}: {call.error}", usage=usage)
        files: list[str] = []
        if request.role in WRITERS:
            try:
                blocks, rest = parse_files(text)
                if not blocks and not any(request.work_dir.iterdir()):
                    raise FileFormatError("the answer has no file blocks (<<<FILE path ... FILE>>>)")
                files = write_files(request.work_dir, blocks)
            except FileFormatError as exc:
                raise ActorError(f"openai builder: {exc}; nothing was written", usage=usage) from None
            payload = result_payload("builder", rest, harness="openai")
            require_entry(request, "openai")
        else:
            payload = result_payload(request.role, text, harness="openai")
        return ActorResult(payload=payload, files=files, usage=usage)

    def _usage(self, request: ActorRequest, call: _Call, prompt: str, text: str, duration_ms: int) -> Any:
        u = call.usage
        tokens_in = int(u["prompt_tokens"]) if "prompt_tokens" in u else (len(prompt) + len(SYSTEM)) // 4
        tokens_out = int(u["completion_tokens"]) if "completion_tokens" in u else len(text) // 4
        provider = request.binding.provider or ("local" if call.url[1] in LOOPBACK else None)
        req = request.model_copy(update={"binding": request.binding.model_copy(update={"provider": provider})})
        # the model the server says answered (its reply's `model`), else the one asked for
        return usage_meta("openai", req, model=call.model or request.binding.model, tokens_in=tokens_in, tokens_out=tokens_out,
                          duration_ms=duration_ms, finish_reason=call.finish_reason)


def _wait(call: _Call, request: ActorRequest, cancel: threading.Event, started: float) -> str | None:
    """Wait for the call under the request's limits; the reason it was cut off, or None."""
    limits = request.limits
    while not call.done.wait(timeout=0.05):
        now = time.monotonic()
        if cancel.is_set():
            return "cancelled; the request was abandoned"
        if now - started >= limits.wall_s:
            return f"no complete answer within the wall limit of {limits.wall_s:g} s; raise actors.wall_s"
        if now - call.last >= limits.idle_s:
            return f"the server sent nothing for {limits.idle_s:g} s (idle limit); is the model loaded?"
    return None
