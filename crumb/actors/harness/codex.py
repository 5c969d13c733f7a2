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
- `--json` never names the model: it is the binding's, else config.toml's `model`.
- It keeps state and log databases under CODEX_HOME even with --ephemeral: each run gets a private
  CODEX_HOME holding copies of config.toml and auth.json only (private_home.py), deleted afterwards.
Tested against 0.171.0 with a fake Responses server (tests/agents/).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from crumb.actors.base import (
    ActorError,
    ActorRequest,
    ActorResult,
    ProgressFn,
    ProgressUpdate,
)
from crumb.actors.harness.common import (
    JsonLines,
    child_env,
    executable_for,
    now,
    relative_path,
    run_cli,
    usage_meta,
)
from crumb.actors.harness.private_home import (
    CODEX_CREDENTIALS,
    codex_config,
    codex_home,
    codex_source,
    private_home,
    write_back,
)
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    agent_result,
    WRITERS,
    prompt_for,
)

SANDBOXES = ("read-only", "workspace-write", "danger-full-access")


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
            self.errors.append(str(ev.get("message") or "error"))
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


class CodexAdapter:
    name = "codex"

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        env = child_env()
        exe = executable_for(request, "codex", env)
        argv = build_argv(exe, request)
        request.work_dir.mkdir(parents=True, exist_ok=True)
        throttle = Throttle(progress)
        events = _Events(request.work_dir, throttle)
        started = now()
        configured = codex_config(env).get("model")
        source = codex_source(env)
        with private_home("codex") as home:
            env.update(codex_home(home, env))
            try:
                proc = run_cli("codex", request, argv, stdin_text=prompt_for(request), env=env, cancel=cancel,
                               on_line=events)
            finally:
                write_back(CODEX_CREDENTIALS, home, source)
        throttle.flush()
        usage = usage_meta(
            "codex",
            request,
            model=request.binding.model or (configured if isinstance(configured, str) else None),
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
