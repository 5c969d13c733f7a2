"""OpenAI Codex CLI (`codex exec --json`).

Assumptions (AGENT-CLIS.md; check with `codex exec --help`):
- Prompt `-` (or none) reads stdin. `--json` prints JSONL events: thread.started, turn.started,
  turn.completed{usage}, turn.failed{error}, item.* {item{type: agent_message|command_execution|
  file_change|reasoning...}}, error{message}. Tokens only, no cost.
- `--skip-git-repo-check` is required outside a git repo (the game folder usually is), else exit 1.
- `-s` read-only (exec's default) | workspace-write | danger-full-access; set explicitly. Its sandbox can
  fail silently inside containers: presets for already-isolated machines use danger-full-access.
- read-only stops writes and network, not reads: a Verifier run here can read any file the user can by
  absolute path (it is only not told the session's). See README.md "What a Verifier can read".
- `--json` never names the model: it is the binding's, else config.toml's `model`, else the first by
  priority in `codex debug models` (its catalog; what it sends when nothing names a model).
- Its own retries follow the provider's `request_max_retries` / `stream_max_retries` (requests made:
  (1 + request) x (1 + stream)); each retry prints `{"type":"error","message":"Reconnecting... N/M (why)"}`.
  CRUMB bounds them with `-c model_providers.<id>.…` for a provider of config.toml that sets none; the
  built-in `openai` provider cannot be overridden (0.171 refuses to start), so it keeps codex's defaults.
- It keeps state and log databases under CODEX_HOME even with --ephemeral: each run gets a private
  CODEX_HOME holding copies of config.toml and auth.json only (private_home.py), deleted afterwards.
Tested against 0.171.0 with a fake Responses server (tests/agents/).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from crumb.actors.base import (
    ActorError,
    ActorRequest,
    ActorResult,
    ProgressUpdate,
)
from crumb.actors.harness.cli_harness import CliHarness
from crumb.actors.harness.common import (
    JsonLines,
    find_executable,
    relative_path,
    usage_meta,
)
from crumb.actors.harness.private_home import (
    CODEX_CREDENTIALS,
    codex_config,
    codex_home,
    codex_provider,
    codex_source,
    write_back,
)
from crumb.actors.harness.process import ProcessResult
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    WRITERS,
    agent_result,
)

SANDBOXES = ("read-only", "workspace-write", "danger-full-access")
#: codex's own retries of a failing request / a dropped stream, when config.toml's provider sets none: its
#: defaults (4 and 5) make 30 requests and ~25 s against a server answering 500 before CRUMB hears of it;
#: these make at most (1 + 1) x (1 + 1) = 4. CRUMB's circuit breaker retries too.
REQUEST_MAX_RETRIES = 1
STREAM_MAX_RETRIES = 1
#: seconds `codex debug models` gets to name the catalog's default model
CATALOG_TIMEOUT_S = 10.0


def build_argv(exe: str, request: ActorRequest) -> list[str]:
    opts = request.binding.options
    sandbox = str(opts.get("sandbox") or ("workspace-write" if request.role in WRITERS else "read-only"))
    if sandbox not in SANDBOXES:
        raise ActorError(f"codex: binding option sandbox={sandbox!r} is not one of {', '.join(SANDBOXES)}")
    argv = [exe, "exec", "--json", "--skip-git-repo-check", "--sandbox", sandbox, "--cd", str(request.work_dir)]
    if opts.get("ephemeral", True):
        argv.append("--ephemeral")
    if request.binding.model:
        argv += ["--model", request.binding.model]
    argv.append("-")  # the prompt comes on stdin
    return argv


class _Events(JsonLines):
    def __init__(self, work_dir: Path, progress: Throttle) -> None:
        super().__init__(work_dir, progress)
        self.messages: list[str] = []
        self.tokens_in = 0
        self.tokens_out = 0
        self.turns = 0
        self.failed: str | None = None
        self.errors: list[str] = []
        self.events = 0

    def on_event(self, ev: dict[str, Any]) -> None:
        self.events += 1
        kind = ev.get("type")
        if kind == "turn.completed":
            self.turns += 1
            usage = ev.get("usage") or {}
            self.tokens_in += int(usage.get("input_tokens") or 0)
            self.tokens_out += int(usage.get("output_tokens") or 0)
        elif kind == "turn.failed":
            self.failed = str((ev.get("error") or {}).get("message") or "turn failed")
        elif kind == "error":
            message = str(ev.get("message") or "error")
            self.errors.append(message)
            if message.startswith("Reconnecting"):  # "Reconnecting... 1/1 (<why>)": codex retries on its own
                self.progress(ProgressUpdate(message=f"API call failed; codex retries: {message[:200]}",
                                             tool="api_retry"))
        elif kind in ("item.started", "item.completed"):
            self._item(kind, ev.get("item") or {})

    def _item(self, kind: str, item: dict[str, Any]) -> None:
        itype = item.get("type")
        if itype == "agent_message" and kind == "item.completed":
            self.messages.append(str(item.get("text") or ""))
        elif itype == "command_execution" and kind == "item.started":
            self.progress(ProgressUpdate(message=f"$ {str(item.get('command') or '')[:200]}", tool="shell"))
        elif itype == "file_change" and kind == "item.completed":
            files = [relative_path(self.work_dir, str(c.get("path"))) for c in item.get("changes") or [] if c.get("path")]
            self.progress(ProgressUpdate(message=f"changed {', '.join(files)[:300]}", tool="file_change", files=files))
        elif itype in ("web_search", "mcp_tool_call") and kind == "item.started":
            self.progress(ProgressUpdate(message=str(itype), tool=str(itype)))


class CodexHarness(CliHarness):
    name: ClassVar[str] = "codex"
    provider: ClassVar[str | None] = "openai"
    summary: ClassVar[str] = "OpenAI Codex CLI, `codex exec --json ... -`"
    executable: ClassVar[str | None] = "codex"
    install: ClassVar[str] = "npm install -g @openai/codex"
    ambient: ClassVar[tuple[str, ...]] = ("CODEX_THREAD_ID", "CODEX_CI", "CODEX_SANDBOX_NETWORK_DISABLED")
    sign_in_vars: ClassVar[tuple[str, ...]] = ("CODEX_API_KEY", "OPENAI_API_KEY")
    sign_in_files: ClassVar[tuple[str, ...]] = (".codex/auth.json",)
    exit_codes: ClassVar[Mapping[int, str]] = {1: "failed turn, or a configuration or sign-in error"}
    private: ClassVar[bool] = True

    def argv(self, exe: str, request: ActorRequest, env: Mapping[str, str]) -> list[str]:
        argv = build_argv(exe, request)
        return argv[:2] + retry_bounds(env) + argv[2:]

    def parser(self, request: ActorRequest, progress: Throttle) -> JsonLines:
        return _Events(request.work_dir, progress)

    def fill_home(self, folder: Path, env: Mapping[str, str]) -> dict[str, str]:
        return codex_home(folder, env)

    def write_back(self, folder: Path, env: Mapping[str, str]) -> None:
        write_back(CODEX_CREDENTIALS, folder, codex_source(env))

    def signed_in(self, env: Mapping[str, str]) -> str | None:
        if env.get("CODEX_HOME") and (Path(env["CODEX_HOME"]) / "auth.json").exists():
            return f"{Path(env['CODEX_HOME']) / 'auth.json'} exists"
        return super().signed_in(env) or provider_sign_in(env)

    def finish(self, request: ActorRequest, proc: ProcessResult, parser: JsonLines, started: float,
               env: Mapping[str, str]) -> ActorResult:
        assert isinstance(parser, _Events)
        events = parser
        usage = usage_meta(
            "codex",
            request,
            model=model_used(request, env),
            tokens_in=events.tokens_in if events.turns else None,
            tokens_out=events.tokens_out if events.turns else None,
            duration_ms=proc.duration_ms,
        )
        if events.failed or proc.returncode != 0:
            why = events.failed or (events.errors[-1] if events.errors else proc.stderr_tail() or "no message")
            raise ActorError(f"codex {request.role}: exit {proc.returncode}: {why[:300]}", usage=usage)
        if not events.events:
            raise ActorError(
                f"codex {request.role}: no JSON events on stdout ({events.garbage} line(s) of other output); "
                "is this Codex CLI with `exec --json`? (crumb doctor)",
                usage=usage,
            )
        if not events.messages:
            raise ActorError(f"codex {request.role}: finished without an agent message", usage=usage)
        return agent_result(request, events.messages[-1], harness="codex", started=started, usage=usage)


def retry_bounds(env: Mapping[str, str]) -> list[str]:
    """`-c` overrides bounding codex's own retries of its provider (REQUEST_MAX_RETRIES, STREAM_MAX_RETRIES),
    for each setting config.toml's provider leaves unset. Codex 0.171 refuses any setting on its built-in
    providers (`openai`: "Built-in providers cannot be overridden"), so those keep codex's defaults."""
    found = codex_provider(env)
    if found is None:
        return []
    name, table = found
    out: list[str] = []
    for key, value in (("request_max_retries", REQUEST_MAX_RETRIES), ("stream_max_retries", STREAM_MAX_RETRIES)):
        if key not in table:
            out += ["-c", f"model_providers.{name}.{key}={value}"]
    return out


def model_used(request: ActorRequest, env: Mapping[str, str]) -> str | None:
    """The model codex asked for: the binding's, else config.toml's `model`, else the default of codex's own
    model catalog (`codex debug models`: the first by priority, what 0.171 sends when nothing names one).
    `codex exec --json` names none itself. `env` points at the run's private CODEX_HOME."""
    if request.binding.model:
        return request.binding.model
    configured = codex_config(env).get("model")
    if isinstance(configured, str) and configured:
        return configured
    return catalog_default(str(request.binding.options.get("bin") or "codex"), env)


def catalog_default(exe: str, env: Mapping[str, str]) -> str | None:
    path = find_executable(exe, env)
    if path is None:
        return None
    try:
        proc = subprocess.run([path, "debug", "models"], capture_output=True, text=True, timeout=CATALOG_TIMEOUT_S,
                              env=dict(env), stdin=subprocess.DEVNULL)
        models = json.loads(proc.stdout).get("models") if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError, AttributeError):
        return None
    ranked = [(m.get("priority", 1 << 30), i, m.get("slug")) for i, m in enumerate(models or [])
              if isinstance(m, dict) and isinstance(m.get("slug"), str) and isinstance(m.get("priority", 0), int)]
    return min(ranked)[2] if ranked else None


def provider_sign_in(env: Mapping[str, str]) -> str | None:
    """How a Codex that signs in through a provider of its config.toml does so, if it does (a key in the
    provider's env_key variable, or a provider that needs none, such as a local server)."""
    found = codex_provider(env)
    if found is None:
        return None
    name, provider = found
    key = provider.get("env_key")
    if not key:
        return f"provider {name!r} in config.toml (no key needed)"
    return f"provider {name!r} in config.toml, ${key} is set" if env.get(str(key)) else None
