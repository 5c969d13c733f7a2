"""Gemini CLI (`gemini -p ... -o stream-json`).

Assumptions (AGENT-CLIS.md; check with `gemini --help`):
- `-p` text is appended to stdin input, so the prompt goes on stdin and -p carries one short line.
- stream-json lines: init, message{role, content, delta}, tool_use{tool_name, parameters},
  tool_result, error{message}, result{status, stats{input_tokens, output_tokens, ...}}. Tokens only.
- Headless writes need `--approval-mode auto_edit` (or yolo); untrusted folders fail in headless mode
  unless `--skip-trust`. Exit codes: 41 auth, 42 input, 44 sandbox, 52 config, 53 turn limit,
  54 tool error, 55 untrusted workspace, 130 cancelled. On an API error it exits with the HTTP status
  modulo 256 (401 -> 145, 429 -> 173, 500 -> 244).
- `init` says model "auto" when none is given; the models that answered are in result.stats.models.
- It keeps every conversation under its home (~/.gemini/tmp/.../chats/) with no flag against it: each
  run gets a private GEMINI_CLI_HOME with copies of settings and sign-in only (private_home.py).
Tested against 0.61.0 with a fake Gemini server (tests/agents/).
"""

from __future__ import annotations

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
    relative_path,
    table,
    usage_meta,
)
from crumb.actors.harness.private_home import (
    GEMINI_AUTH_SETTING,
    GEMINI_CREDENTIALS,
    gemini_home,
    gemini_source,
    write_back,
)
from crumb.actors.harness.process import ProcessResult
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    WRITERS,
    agent_result,
)

EXIT_CODES = {
    1: "general error",
    41: "auth error: sign in by running `gemini` once, or set GEMINI_API_KEY; with a key set, check the "
        f"setting {GEMINI_AUTH_SETTING} (\"gemini-api-key\") in ~/.gemini/settings.json",
    42: "bad input",
    44: "sandbox error",
    52: "configuration error: check ~/.gemini/settings.json",
    53: "turn limit reached",
    54: "tool error",
    55: "untrusted workspace: trust the folder or pass --skip-trust",
    130: "cancelled",
}
HTTP_STATUS = {400: "bad request", 401: "unauthorized: the API key was refused", 403: "forbidden",
               404: "model not found", 429: "rate limited or out of quota", 500: "server error",
               503: "service unavailable"}
EDIT_TOOLS = {"write_file", "replace", "edit", "write"}
APPROVAL_MODES = ("default", "auto_edit", "yolo", "plan")
PROMPT_LINE = "Do the task described above and end with the JSON answer it asks for."


def build_argv(exe: str, request: ActorRequest) -> list[str]:
    opts = request.binding.options
    mode = str(opts.get("approval_mode") or ("auto_edit" if request.role in WRITERS else "default"))
    if mode not in APPROVAL_MODES:
        raise ActorError(f"gemini: binding option approval_mode={mode!r} is not one of {', '.join(APPROVAL_MODES)}")
    argv = [exe, "-p", PROMPT_LINE, "--output-format", "stream-json", "--approval-mode", mode]
    if opts.get("skip_trust", True):
        argv.append("--skip-trust")
    if request.binding.model:
        argv += ["--model", request.binding.model]
    return argv


class _Lines(JsonLines):
    def __init__(self, work_dir: Path, progress: Throttle) -> None:
        super().__init__(work_dir, progress)
        self.parts: list[str] = []
        self.result: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.model: str | None = None

    def on_event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "init":
            self.model = ev.get("model") or self.model
        elif kind == "message" and ev.get("role") == "assistant":
            if not ev.get("delta") and self.parts:
                self.parts.append("\n")
            self.parts.append(str(ev.get("content") or ""))
        elif kind == "tool_use":
            name = str(ev.get("tool_name") or "tool")
            params = table(ev.get("parameters"))
            target = params.get("file_path") or params.get("path") or params.get("command") or ""
            files = [relative_path(self.work_dir, str(target))] if name in EDIT_TOOLS and target else []
            self.progress(ProgressUpdate(message=f"{name} {str(target)[:200]}".strip(), tool=name, files=files))
        elif kind == "error":
            self.errors.append(str(ev.get("message") or "error"))
        elif kind == "result":
            self.result = ev


class GeminiHarness(CliHarness):
    name: ClassVar[str] = "gemini"
    provider: ClassVar[str | None] = "google"
    summary: ClassVar[str] = "Gemini CLI, `gemini -p <one line> -o stream-json`"
    executable: ClassVar[str | None] = "gemini"
    install: ClassVar[str] = "npm install -g @google/gemini-cli"
    ambient: ClassVar[tuple[str, ...]] = ("GEMINI_CLI",)
    sign_in_vars: ClassVar[tuple[str, ...]] = ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI")
    sign_in_files: ClassVar[tuple[str, ...]] = (".gemini/oauth_creds.json",)
    #: what 0.61 answers with when no model is named (its router, "auto", picks it; result.stats.models says)
    default_model: ClassVar[str | None] = "gemini-3.1-pro-preview"
    exit_codes: ClassVar[Mapping[int, str]] = EXIT_CODES
    private: ClassVar[bool] = True

    def argv(self, exe: str, request: ActorRequest, env: Mapping[str, str]) -> list[str]:
        return build_argv(exe, request)

    def parser(self, request: ActorRequest, progress: Throttle) -> JsonLines:
        return _Lines(request.work_dir, progress)

    def fill_home(self, folder: Path, env: Mapping[str, str]) -> dict[str, str]:
        return gemini_home(folder, env)

    def write_back(self, folder: Path, env: Mapping[str, str]) -> None:
        write_back(GEMINI_CREDENTIALS, folder / ".gemini", gemini_source(env))

    def exit_meaning(self, code: int | None) -> str:
        return exit_meaning(code)

    def finish(self, request: ActorRequest, proc: ProcessResult, parser: JsonLines, started: float,
               env: Mapping[str, str]) -> ActorResult:
        assert isinstance(parser, _Lines)
        lines = parser
        stats = (lines.result or {}).get("stats") or {}
        usage = usage_meta(
            "gemini",
            request,
            model=answered_by(stats) or request.binding.model or (lines.model if lines.model != "auto" else None),
            tokens_in=int(stats["input_tokens"]) if "input_tokens" in stats else None,
            tokens_out=int(stats["output_tokens"]) if "output_tokens" in stats else None,
            duration_ms=proc.duration_ms,
        )
        if proc.returncode != 0 or (lines.result or {}).get("status") not in (None, "success"):
            meaning = exit_meaning(proc.returncode)
            err = (lines.result or {}).get("error")
            detail = (err.get("message") if isinstance(err, dict) else None) or (lines.errors[-1] if lines.errors else proc.stderr_tail())
            raise ActorError(
                f"gemini {request.role}: exit {proc.returncode} ({meaning}){': ' + detail[:300] if detail else ''}",
                usage=usage,
            )
        if lines.result is None:
            raise ActorError(
                f"gemini {request.role}: no result line on stdout ({lines.garbage} line(s) of non-JSON output); "
                "is this Gemini CLI with stream-json output? (crumb doctor)",
                usage=usage,
            )
        return agent_result(request, "".join(lines.parts), harness="gemini", started=started, usage=usage)


def exit_meaning(code: int | None) -> str:
    """What an exit code stands for: a documented code, or the HTTP status it is the remainder of."""
    if code in EXIT_CODES:
        return EXIT_CODES[code]
    if code is not None and 400 <= code + 256 < 600:
        status = code + 256
        return f"API error: HTTP {status}, {HTTP_STATUS.get(status, 'see the run log')}"
    return "failed"


def answered_by(stats: dict[str, Any]) -> str | None:
    """The model that did the work: of result.stats.models, the one with the most tokens (the router's
    small model is listed too)."""
    models = table(stats.get("models"))
    if not models:
        return None
    ranked = [(int(table(v).get("total_tokens") or 0), i, m) for i, (m, v) in enumerate(models.items())]
    return max(ranked)[2]  # on a tie the later one: the router is asked first
