"""Claude Code (`claude -p`), headless, streaming JSON.

Assumptions about the CLI (see ../shared AGENT-CLIS.md; check with `claude --help`):
- `-p` with the prompt on stdin; `--output-format stream-json` needs `--verbose`; one JSON object a line,
  the `result` object last: subtype, is_error, result, total_cost_usd, usage, modelUsage,
  structured_output (with `--json-schema`). Exit 1 on error results, the JSON still printed.
- The working folder is the process cwd. Inside another Claude Code session the CLI refuses to start
  unless CLAUDECODE / CLAUDE_CODE_ENTRYPOINT are removed. As root, bypassPermissions needs IS_SANDBOX=1.
- `--no-session-persistence` keeps it from writing the whole conversation to ~/.claude/projects/.
- A failing API call is retried CLAUDE_CODE_MAX_RETRIES times (10 by default, minutes for a bad key), each
  announced by a `{"type":"system","subtype":"api_retry","attempt":N,"error_status":S}` line.
Tested against 2.1.197 with a fake Anthropic server (tests/agents/).
"""

from __future__ import annotations

import json
import os
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
    NESTED_CLAUDE_VARS,
    JsonLines,
    relative_path,
    table,
    usage_meta,
)
from crumb.actors.harness.process import ProcessResult
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    WRITERS,
    agent_result,
    portable_schema,
)

#: Tools Claude may use per role without asking (headless runs cannot ask).
READ_TOOLS = ["Read", "Glob", "Grep"]
ROLE_TOOLS = {
    "builder": ["Read", "Write", "Edit", "MultiEdit", "Glob", "Grep"],
    "verifier": READ_TOOLS,
    "planner": READ_TOOLS,
    "researcher": READ_TOOLS + ["WebSearch", "WebFetch"],
}
EDIT_TOOLS = {"Write", "Edit", "MultiEdit", "NotebookEdit"}
DEFAULT_TURNS = {"builder": 60, "verifier": 12, "planner": 8, "researcher": 16}
#: the CLI's own retries of a failing API call (its default, 10, takes minutes before CRUMB hears of it);
#: CRUMB's circuit breaker retries too. A CLAUDE_CODE_MAX_RETRIES in the environment wins.
MAX_RETRIES = 2


def build_argv(exe: str, request: ActorRequest) -> list[str]:
    opts = request.binding.options
    role = request.role
    mode = str(opts.get("permission_mode") or ("acceptEdits" if role in WRITERS else "dontAsk"))
    argv = [exe, "-p", "--output-format", "stream-json", "--verbose", "--no-session-persistence",
            "--permission-mode", mode]
    if request.binding.model:
        argv += ["--model", request.binding.model]
    argv += ["--max-turns", str(max(2, int(opts.get("max_turns", DEFAULT_TURNS[role]))))]
    tools = opts.get("allowed_tools", ROLE_TOOLS[role])
    if tools:
        argv += ["--allowedTools", ",".join(tools)]
    if opts.get("max_budget_usd") is not None:
        argv += ["--max-budget-usd", str(float(opts["max_budget_usd"]))]
    if opts.get("structured", False):
        # off by default: the answer is read from the final text; the CLI's structured mode retries
        # and fails on large objects, and its schema subset differs by version
        argv += ["--json-schema", json.dumps(portable_schema(role), separators=(",", ":"))]
    return argv


class _Stream(JsonLines):
    """Reads the stream-json lines: progress from tool_use blocks, the final result object."""

    def __init__(self, work_dir: Path, progress: Throttle) -> None:
        super().__init__(work_dir, progress)
        self.result: dict[str, Any] | None = None
        self.files: list[str] = []
        self.retries = 0

    def on_event(self, obj: dict[str, Any]) -> None:
        kind = obj.get("type")
        if kind == "result":
            self.result = obj
        elif kind == "system" and obj.get("subtype") == "api_retry":
            self.retries += 1
            status = obj.get("error_status") or obj.get("error") or "?"
            self.progress(ProgressUpdate(message=f"API call failed ({status}); claude retries (attempt {obj.get('attempt', self.retries)})",
                                         tool="api_retry"))
        elif kind == "assistant":
            for block in (obj.get("message") or {}).get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    self._tool(block)

    def _tool(self, block: dict[str, Any]) -> None:
        name = str(block.get("name") or "tool")
        args = table(block.get("input"))
        target = args.get("file_path") or args.get("path") or args.get("pattern") or args.get("command") or ""
        files: list[str] = []
        if name in EDIT_TOOLS and args.get("file_path"):
            files = [relative_path(self.work_dir, str(args["file_path"]))]
            self.files += [f for f in files if f not in self.files]
        self.progress(ProgressUpdate(message=f"{name} {str(target)[:200]}".strip(), tool=name, files=files))


class ClaudeHarness(CliHarness):
    name: ClassVar[str] = "claude"
    provider: ClassVar[str | None] = "anthropic"
    summary: ClassVar[str] = "Claude Code, `claude -p --output-format stream-json`"
    executable: ClassVar[str | None] = "claude"
    install: ClassVar[str] = "npm install -g @anthropic-ai/claude-code"
    ambient: ClassVar[tuple[str, ...]] = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")
    sign_in_vars: ClassVar[tuple[str, ...]] = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN")
    sign_in_files: ClassVar[tuple[str, ...]] = (".claude/.credentials.json",)
    remove_env: ClassVar[tuple[str, ...]] = NESTED_CLAUDE_VARS

    def argv(self, exe: str, request: ActorRequest, env: Mapping[str, str]) -> list[str]:
        return build_argv(exe, request)

    def environment(self, request: ActorRequest, argv: list[str], env: Mapping[str, str]) -> dict[str, str]:
        extra = {"CLAUDE_CODE_MAX_RETRIES": env.get("CLAUDE_CODE_MAX_RETRIES") or str(MAX_RETRIES)}
        if "bypassPermissions" in argv and hasattr(os, "geteuid") and os.geteuid() == 0:
            extra["IS_SANDBOX"] = "1"  # root refuses bypass mode otherwise
        return extra

    def parser(self, request: ActorRequest, progress: Throttle) -> JsonLines:
        return _Stream(request.work_dir, progress)

    def finish(self, request: ActorRequest, proc: ProcessResult, parser: JsonLines, started: float,
               env: Mapping[str, str]) -> ActorResult:
        assert isinstance(parser, _Stream)
        res = parser.result
        if res is None:
            detail = proc.stderr_tail() or f"{parser.garbage} line(s) of non-JSON output"
            raise ActorError(
                f"claude {request.role}: exited {proc.returncode} without a result object ({detail}); "
                "run `claude -p hi` by hand to check it works"
            )
        usage = _usage(request, res, proc.duration_ms)
        if res.get("is_error") or res.get("subtype") != "success":
            subtype = res.get("subtype", "?")
            text = " ".join(str(res.get("result") or "").split())[:300]
            hint = {
                "error_max_turns": "raise the binding option max_turns",
                "error_max_budget_usd": "raise the binding option max_budget_usd",
                "error_max_structured_output_retries": "set the binding option structured = false",
            }.get(str(subtype), "see the run log")
            api = " (API failure)" if subtype == "success" else ""
            raise ActorError(f"claude {request.role}: {subtype}{api}: {text or 'no message'}; {hint}", usage=usage)
        answer: Any = res.get("structured_output")
        if not isinstance(answer, dict):
            answer = str(res.get("result") or "")
        return agent_result(request, answer, harness="claude", started=started, usage=usage)


def _usage(request: ActorRequest, res: dict[str, Any], duration_ms: int) -> Any:
    u = table(res.get("usage"))
    tokens_in = sum(int(u.get(k) or 0) for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"))
    tokens_out = int(u.get("output_tokens") or 0)
    models = table(res.get("modelUsage"))
    model = next(iter(models), None) or request.binding.model
    cost = res.get("total_cost_usd")
    return usage_meta(
        "claude",
        request,
        model=model,
        tokens_in=tokens_in if u else None,
        tokens_out=tokens_out if u else None,
        cost_usd=float(cost) if isinstance(cost, (int, float)) else None,
        duration_ms=int(res.get("duration_ms") or duration_ms),
        finish_reason=res.get("stop_reason"),  # the last assistant message's, on every result (null before any)
    )
