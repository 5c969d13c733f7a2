"""Any executable that speaks CRUMB's JSON contract on stdin/stdout (see command-contract.md).

Lets users plug in their own tools: a script around another agent, a fixed-output fake, a remote call.
"""

from __future__ import annotations

import json
import os
import shlex
import threading
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from crumb.actors.base import (
    ActorError,
    ActorRequest,
    ActorResult,
    Binding,
    ProgressFn,
    ProgressUpdate,
)
from crumb.actors.harness.common import (
    child_env,
    find_executable,
    now,
    run_cli,
    usage_meta,
)
from crumb.actors.harness.plugin import Harness, executable_problem
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import (
    WRITERS,
    answer_schema,
    files_changed,
    last_json_object,
    payload_from,
    prompt_for,
    require_entry,
)
from crumb.protocol.errors import first_problem

CONTRACT_VERSION = 1


class CommandUsage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str | None = None
    tokens_in: int | None = Field(default=None, ge=0)
    tokens_out: int | None = Field(default=None, ge=0)
    cost_usd: float | None = Field(default=None, ge=0)


class CommandResult(BaseModel):
    """The object a command prints last: a payload, or an error message."""

    model_config = ConfigDict(extra="ignore")

    payload: dict[str, Any] | None = None
    files: list[str] = Field(default_factory=list)
    usage: CommandUsage = Field(default_factory=CommandUsage)
    error: str | None = None


def command_argv(request: ActorRequest) -> list[str]:
    raw = request.binding.options.get("command") or request.binding.model
    if not raw:
        raise ActorError(
            f"command {request.role}: no command given; bind e.g. --role {request.role}=command:./my-agent "
            f"or set options.command = [\"./my-agent\", \"--fast\"] under [roles.{request.role}] in crumb.toml"
        )
    argv = shlex.split(raw) if isinstance(raw, str) else [str(a) for a in raw]
    if not argv:
        raise ActorError(f"command {request.role}: the command is empty")
    return argv


def request_document(request: ActorRequest) -> dict[str, Any]:
    return {
        "crumb": CONTRACT_VERSION,
        "role": request.role,
        "session": request.session,
        "effect_id": request.effect_id,
        "work_dir": str(request.work_dir),
        "input": request.input,
        "binding": request.binding.model_dump(mode="json"),
        "limits": request.limits.model_dump(mode="json"),
        "prompt": prompt_for(request),
        "answer_schema": answer_schema(request.role),
    }


class _Out:
    def __init__(self, progress: Throttle) -> None:
        self.progress = progress
        self.result: dict[str, Any] | None = None
        self.other = 0

    def __call__(self, line: str) -> None:
        text = line.strip()
        if not text.startswith("{"):
            self.other += bool(text)
            return
        try:
            obj = json.loads(text)
        except ValueError:
            self.other += 1
            return
        if isinstance(obj, dict) and "progress" in obj and "payload" not in obj:
            files = [str(f) for f in obj.get("files") or []][:50]
            self.progress(ProgressUpdate(message=str(obj["progress"])[:2000], tool=obj.get("tool"), files=files))
        elif isinstance(obj, dict):
            self.result = obj


class CommandHarness(Harness):
    name: ClassVar[str] = "command"
    summary: ClassVar[str] = "any executable speaking command-contract.md on stdin/stdout"
    install: ClassVar[str] = "install it or give its full path"

    def binding(self, rest: str, spec: str, *, partial: bool) -> tuple[str | None, str | None, dict[str, Any]]:
        """'./my-agent --fast': the command line (it alone takes spaces)."""
        return None, None, ({"command": rest} if rest else {})

    def label(self, binding: Binding) -> str:
        cmd = binding.options.get("command") or binding.model or ""
        return "command:" + (cmd if isinstance(cmd, str) else shlex.join(str(a) for a in cmd))

    def why_not(self, binding: Binding, env: Mapping[str, str], timeout: float) -> tuple[str, str] | None:
        cmd = binding.options.get("command") or binding.model
        argv = shlex.split(cmd) if isinstance(cmd, str) else [str(a) for a in (cmd or [])]
        if not argv:
            return "no command is given", "write command:./my-agent"
        return executable_problem(argv[0], env, self.install)

    def run(self, request: ActorRequest, progress: ProgressFn, cancel: threading.Event) -> ActorResult:
        argv = command_argv(request)
        env = child_env(set_={"CRUMB_ROLE": request.role, "CRUMB_WORK_DIR": str(request.work_dir)})
        # "./my-agent" is the project's: the dispatcher made it absolute against the root (bindings.rooted);
        # only a caller that skips the dispatcher still has a relative path, read from its own folder
        exe = find_executable(argv[0], env) if "/" not in argv[0] else os.path.abspath(argv[0])
        if exe is None or not os.access(exe, os.X_OK):
            raise ActorError(f"command {request.role}: {argv[0]!r} is not an executable found on PATH; give a full path")
        request.work_dir.mkdir(parents=True, exist_ok=True)
        throttle = Throttle(progress)
        out = _Out(throttle)
        started = now()
        doc = json.dumps(request_document(request))
        proc = run_cli("command", request, [exe, *argv[1:]], stdin_text=doc, env=env, cancel=cancel, on_line=out)
        throttle.flush()
        obj = out.result
        if obj is None or "progress" in obj:
            obj = last_json_object(proc.stdout)  # a pretty-printed result spans many lines
        try:
            result = CommandResult.model_validate(obj) if isinstance(obj, dict) else None
        except ValidationError as exc:
            raise ActorError(f"command {request.role}: result object is malformed: {first_problem(exc).message}") from None
        cu = result.usage if result else CommandUsage()
        usage = usage_meta("command", request, model=cu.model or request.binding.model, tokens_in=cu.tokens_in,
                           tokens_out=cu.tokens_out, cost_usd=cu.cost_usd, duration_ms=proc.duration_ms)
        if result is not None and result.error:
            raise ActorError(f"command {request.role}: {result.error[:300]}", usage=usage)
        if proc.returncode != 0:
            raise ActorError(f"command {request.role}: exit {proc.returncode}: {proc.stderr_tail() or 'no message'}", usage=usage)
        if result is None or result.payload is None:
            raise ActorError(
                f"command {request.role}: printed no result object with a payload ({out.other} other line(s)); "
                "see command-contract.md",
                usage=usage,
            )
        payload = payload_from(request.role, result.payload, harness="command")
        require_entry(request, "command")
        files = files_changed(request.work_dir, started) if request.role in WRITERS else []
        return ActorResult(payload=payload, files=files or result.files, usage=usage)
