"""What every subprocess harness shares: finding the CLI, a clean child environment, turning a
stopped or failed process into one clear ActorError, and the usage record."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from crumb.actors.base import ActorError, ActorRequest
from crumb.actors.harness import process as _process
from crumb.actors.harness import sandbox
from crumb.actors.harness.prices import estimate_cost
from crumb.actors.harness.process import ArgvTooLarge, ProcessResult, run_process
from crumb.protocol.events import Meta

#: Inside Claude Code these make a child `claude` refuse to start (nested session).
NESTED_CLAUDE_VARS = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")


def find_executable(name: str, env: Mapping[str, str] | None = None) -> str | None:
    env = os.environ if env is None else env
    if os.sep in name:
        return name if os.access(name, os.X_OK) else None
    return shutil.which(name, path=env.get("PATH", os.defpath))


def child_env(remove: Sequence[str] = (), set_: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in remove}
    env.update(set_ or {})
    return env


def executable_for(request: ActorRequest, default: str, env: Mapping[str, str]) -> str:
    """The CLI to run: binding option `bin` or the default name, found on PATH, else a one-line fix."""
    name = str(request.binding.options.get("bin") or default)
    path = find_executable(name, env)
    if path is None:
        raise ActorError(
            f"{default}: executable {name!r} not found on PATH; install it or bind {request.role} to another "
            f"harness (crumb config show; crumb doctor)"
        )
    return path


def run_cli(
    harness: str,
    request: ActorRequest,
    argv: Sequence[str],
    *,
    stdin_text: str | None,
    env: Mapping[str, str],
    cancel: threading.Event,
    on_line: Callable[[str], None] | None,
    cwd: Path | None = None,
) -> ProcessResult:
    """run_process with the request's limits and log, raising ActorError for a stop CRUMB caused."""
    try:
        result = run_process(
            sandbox.wrap(argv, request.read_only),
            cwd=cwd or request.work_dir,
            stdin_text=stdin_text,
            env=env,
            limits=request.limits,
            log_path=request.log_path,
            cancel=cancel,
            on_line=on_line,
            max_output_bytes=_process.MAX_OUTPUT_BYTES,
        )
    except ArgvTooLarge as exc:
        raise ActorError(f"{harness}: {exc}") from None
    except FileNotFoundError as exc:
        raise ActorError(f"{harness}: cannot start {argv[0]!r}: {exc.strerror}; check the install (crumb doctor)") from None
    except PermissionError:
        raise ActorError(f"{harness}: {argv[0]!r} is not executable; check the install (crumb doctor)") from None
    usage = Meta(harness=harness, provider=request.binding.provider, model=request.binding.model, duration_ms=result.duration_ms)
    if result.stopped == "cancel":
        raise ActorError(f"{harness} {request.role}: cancelled; the process group was killed", usage=usage)
    if result.stopped == "wall":
        raise ActorError(
            f"{harness} {request.role}: ran longer than the wall limit of {request.limits.wall_s:g} s and was killed; "
            "raise actors.wall_s or simplify the task",
            usage=usage,
        )
    if result.stopped == "idle":
        raise ActorError(
            f"{harness} {request.role}: printed nothing for {request.limits.idle_s:g} s (idle limit) and was killed; "
            "check the CLI is signed in and not waiting for input, or raise actors.idle_s",
            usage=usage,
        )
    if result.stopped == "flood":
        raise ActorError(
            f"{harness} {request.role}: flooded its output ({result.output_bytes} bytes) and was killed", usage=usage
        )
    return result


def usage_meta(
    harness: str,
    request: ActorRequest,
    *,
    model: str | None,
    tokens_in: int | None,
    tokens_out: int | None,
    cost_usd: float | None = None,
    duration_ms: int | None = None,
    finish_reason: str | None = None,
) -> Meta:
    """Usage for a result; the cost is estimated from the harness's price lookup when the CLI gave none."""
    from crumb.actors.harness import registry  # the registry loads harness modules that import this one

    entry = registry.entries().get(harness)
    provider = request.binding.provider or (entry.cls.provider if entry else None)
    estimated = False
    if cost_usd is None and tokens_in is not None and tokens_out is not None:
        if entry is not None:
            price = entry.cls().price(provider, model)
            cost_usd = None if price is None else round((tokens_in * price["input"] + tokens_out * price["output"]) / 1e6, 6)
        else:
            cost_usd = estimate_cost(provider, model, tokens_in, tokens_out)
        estimated = cost_usd is not None
    return Meta(
        harness=harness,
        provider=provider,
        model=model,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        cost_usd=cost_usd,
        cost_estimated=estimated,
        duration_ms=duration_ms,
        finish_reason=finish_reason if isinstance(finish_reason, str) and finish_reason.strip() else None,
    )


def now() -> float:
    return time.time()


def relative_path(base: Path, path: str) -> str:
    """A path an agent reported, relative to its work folder when it lies inside."""
    p = Path(path)
    try:
        return p.resolve().relative_to(base.resolve()).as_posix() if p.is_absolute() else p.as_posix()
    except ValueError:
        return p.as_posix()


class JsonLines:
    """A stdout line handler for CLIs that print one JSON object a line: blank lines are skipped, other
    output is counted as `garbage` (for the error that names it), each object goes to `on_event`."""

    def __init__(self, work_dir: Path, progress: Callable[[Any], None]) -> None:
        self.work_dir = work_dir
        self.progress = progress
        self.garbage = 0

    def __call__(self, line: str) -> None:
        if not line.strip():
            return
        try:
            obj = json.loads(line)
        except ValueError:
            self.garbage += 1
            return
        if not isinstance(obj, dict):
            self.garbage += 1
            return
        self.on_event(obj)

    def on_event(self, obj: dict[str, Any]) -> None:
        raise NotImplementedError


def table(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else {} (agent output is untrusted)."""
    return value if isinstance(value, dict) else {}
