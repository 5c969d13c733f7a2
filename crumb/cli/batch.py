"""`crumb batch`: many pitches × set-ups × seeds as one batch of ordinary sessions, restartable.

    crumb batch PITCHES --setup S [--setup S ...]   plan batches/<id>/ and run it (`batch run`, the default)
    crumb batch resume ID                            run what a stopped batch is missing
    crumb batch ls                                   every batch, cells settled / total

Exit codes: 0 every cell settled (whatever the verdicts: a batch measures), 1 some cell could not run
(or the batch was stopped before the end; 130 on Ctrl-C), 2 a usage error (one `Error:` line).
The module stays light: the batch, the daemon and the executor are imported when a command runs.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from crumb.cli.common import echo_json, root_of

F = TypeVar("F", bound=Callable[..., Any])


class BatchUsage(click.ClickException):
    """A PITCHES file or --setup that cannot make a batch: one `Error:` line, exit 2."""

    exit_code = 2


class _DefaultRun(click.Group):
    """`crumb batch PITCHES ...` means `crumb batch run PITCHES ...`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def drive_options(command: F) -> F:
    """The options of every command that runs a batch's cells: where they run, and what is printed."""
    for option in reversed([
        click.option("--poll", is_flag=True, help="Poll the folders instead of inotify."),
        click.option("--ray", "ray_address", metavar="ADDRESS",
                     help="Run each cell as a Ray task: auto (the cluster `ray start` runs here, else a local one), "
                          "local, or a cluster's address (docs/ray.md). Sessions come back to this root's sessions/."),
        click.option("--json", "as_json", is_flag=True, help="One JSON object at the end: batch, path, counts, cells."),
    ]):
        command = option(command)
    return command


@click.group(cls=_DefaultRun)
def batch() -> None:
    """Run many pitches × set-ups × seeds as a batch of sessions (batches/<id>/), resumable.

    \b
    crumb batch PITCHES --setup local --setup cross-local [--seeds N] [--parallel N] [--name NAME]
    crumb batch resume ID       run what a stopped (crashed, Ctrl-C) batch is missing
    crumb batch ls              every batch: cells settled / total

    PITCHES is a text file (one pitch per line, blank and # lines skipped) or a .jsonl file (one object
    with a "pitch" field per line). Exit 0 when every cell settled, 1 when some cell could not run, 2 on
    a usage error."""


@batch.command("run")
@click.argument("pitches", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--setup", "setups", multiple=True, required=True, metavar="S",
              help="An agent set-up (repeatable): a preset (local, cross-local, cross, ...), role bindings "
                   "(builder=claude:sonnet,verifier=codex) or both (local,fault=wrongtimer).")
@click.option("--seeds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run every pitch and set-up with seeds 1..N.")
@click.option("--parallel", type=click.IntRange(min=1), default=2, show_default=True, help="Cells in flight at once.")
@click.option("--name", default="", help="A label for the batch (shown by `crumb batch ls` and the report).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=900, show_default=True,
              help="Seconds a cell may take before it is cancelled and counted as failed.")
@drive_options
@click.pass_context
def run(ctx: click.Context, pitches: Path, setups: tuple[str, ...], seeds: int, parallel: int, name: str,
        timeout: float, poll: bool, ray_address: str | None, as_json: bool) -> None:
    """Plan a batch from PITCHES and the set-ups, then run it (the default of `crumb batch`)."""
    from pydantic import ValidationError

    from crumb.batch.cell import check_setups
    from crumb.batch.driver import create
    from crumb.batch.plan import BatchPlan, PlanError, parse_setup, read_pitches

    root = root_of(ctx)
    try:
        texts = read_pitches(pitches)
        plan = BatchPlan(name=name, pitches=texts, setups=[parse_setup(s) for s in setups],
                         seeds=list(range(1, seeds + 1)), parallel=parallel, timeout_s=timeout)
        check_setups(root, plan)
    except PlanError as err:
        raise BatchUsage(str(err)) from None
    except ValidationError as err:
        raise BatchUsage(f"--setup: {err.errors()[0]['msg']}") from None
    folder = create(root, plan)
    _drive(ctx, root, folder, poll=poll, as_json=as_json, ray_address=ray_address)


@batch.command("resume")
@click.argument("ref", metavar="ID")
@click.option("--parallel", type=click.IntRange(min=1), help="Cells in flight at once (default: the batch's own).")
@drive_options
@click.pass_context
def resume(ctx: click.Context, ref: str, parallel: int | None, poll: bool, ray_address: str | None,
           as_json: bool) -> None:
    """Run what a batch is missing (ID, a unique prefix, or the batch folder); settled cells are never run again."""
    from crumb.batch.driver import resolve

    root = root_of(ctx)
    try:
        folder = resolve(root, ref)
    except LookupError as err:
        raise BatchUsage(str(err)) from None
    _drive(ctx, root, folder, poll=poll, as_json=as_json, parallel=parallel, ray_address=ray_address)


@batch.command("ls")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per batch.")
@click.pass_context
def ls(ctx: click.Context, as_json: bool) -> None:
    """List batches, oldest first: cells settled / total, failed, verdicts."""
    from crumb.batch.driver import list_batches, summary
    from crumb.batch.plan import PlanError
    from crumb.terminal import safe

    root = root_of(ctx)
    for folder in list_batches(root):
        try:
            s = summary(folder)
        except PlanError as err:
            s = {"batch": folder.name, "error": str(err)}
        if as_json:
            echo_json({k: v for k, v in s.items() if k != "runs"})
            continue
        if "error" in s:
            click.echo(safe(f"{folder.name}  unreadable: {s['error']}"))
            continue
        verdicts = " ".join(f"{k} {v}" for k, v in s["verdicts"].items()) or "-"
        state = "running" if s["running_now"] else ("done" if s["settled"] + s["failed"] == s["cells"] else "stopped")
        click.echo(safe(f"{folder.name}  {s['settled']:>3}/{s['cells']:<3} settled  {s['failed']} failed  {state:<8} "
                        f"{verdicts:<24} {s['name'] or '-':<12} {', '.join(s['setups'])}"))


def _executor(poll: bool, ray_address: str | None) -> Any:
    """One daemon on this machine, or Ray tasks (Ray is imported only for --ray: it is an extra)."""
    if ray_address is None:
        from crumb.batch.executor import LocalExecutor

        return LocalExecutor(poll=poll)
    try:
        from crumb.batch.ray_executor import RayExecutor
    except ImportError as err:
        raise click.ClickException(f"--ray needs Ray, which is not installed here ({err}): install the project's "
                                   "`ray` extra (`make setup` does), or run without --ray") from None
    return RayExecutor(ray_address)


def _drive(ctx: click.Context, root: Path, folder: Path, *, poll: bool, as_json: bool,
           parallel: int | None = None, ray_address: str | None = None) -> None:
    """Run the batch in `folder` here or on Ray, with progress on a terminal; exit as the module says."""
    from crumb.batch.driver import BatchBusy, eta, run_batch, summary
    from crumb.daemon.lock import DaemonRunning

    live = sys.stdout.isatty() and sys.stderr.isatty()
    rel = os.path.relpath(folder, root) if folder.is_relative_to(root) else str(folder)
    if live:
        click.echo(f"batch {folder.name} ({rel})", err=True)
    executor = _executor(poll, ray_address)
    began = time.monotonic()
    base = [0]  # cells ended before this run (for the rate)
    shown = [""]

    def show(text: str) -> None:
        if live and text != shown[0]:
            shown[0] = text
            click.echo(f"\r\x1b[K{text}", err=True, nl=False)

    def started(t: Any) -> None:
        base[0] = t.settled + t.failed
        show(_progress_text(t, None))

    def report(r: Any, t: Any) -> None:
        show(_progress_text(t, eta(began, t.settled + t.failed - base[0], t.cells - t.settled - t.failed)))

    def interrupted(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    stopped = False
    try:
        run_batch(root, folder, executor, on_start=started, on_report=report, parallel=parallel)
    except KeyboardInterrupt:
        stopped = True
    except BatchBusy as err:
        raise click.ClickException(str(err)) from None
    except DaemonRunning as err:
        raise click.ClickException(str(err)) from None
    except RuntimeError as err:
        if live:
            click.echo("", err=True)
        raise click.ClickException(str(err)) from None
    if live and shown[0]:
        click.echo("", err=True)
    s = summary(folder)
    line = _summary_line(s, rel, time.monotonic() - began)
    if stopped:
        click.echo(f"stopped: {line}; `crumb batch resume {folder.name}` runs the rest", err=True)
    elif as_json:
        click.echo(line, err=True)
    else:
        click.echo(line)
    if as_json:
        click.echo(json.dumps({**s, "path": rel, "wall_s": round(time.monotonic() - began, 3)}, ensure_ascii=False))
    code = 130 if stopped else (0 if s["settled"] == s["cells"] else 1)
    if executor.left_running:  # effects of the in-process daemon still in flight: pending in their transcripts
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    ctx.exit(code)


def _progress_text(t: Any, left_s: float | None) -> str:
    ended = t.settled + t.failed
    text = f"  {ended}/{t.cells} cells · {t.running} running · {t.failed} failed"
    if left_s is not None and ended < t.cells:
        text += f" · ETA {_duration(left_s)}"
    return text


def _summary_line(s: dict[str, Any], rel: str, wall_s: float) -> str:
    verdicts = ", ".join(f"{k} {v}" for k, v in s["verdicts"].items()) or "no verdict"
    return (f"batch {s['batch']} ({rel}): {s['settled']}/{s['cells']} cells settled ({verdicts}; "
            f"{s['fallbacks']} with a fallback), {s['failed']} failed, {s['cells'] - s['settled'] - s['failed']} left, "
            f"{_duration(wall_s)}")


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


COMMANDS = [batch]
