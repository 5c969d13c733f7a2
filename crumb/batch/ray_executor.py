"""Batch cells on Ray: each cell one Ray task on a worker, its session folder returned whole and verified.

The seam (what `crumb batch --ray auto|ADDRESS` calls):

    for cell, session, result in run_cells(root, plan, cells, address, sessions=..., on_start=...):
        # result: the CellOutcome of the settled session now at root/sessions/<session>,
        #         or a one-line error (str) when the cell could not run or did not come back whole

- `address`: "auto" (the cluster `ray start` runs on this machine, else a new local one), "local"
  (always a new local cluster: the machine's CPUs, two browser slots per CPU), or a cluster address
  (`ray://host:10001`, `host:6379`). If Ray is already initialised in this process it is used as is.
- `sessions`: cell → session id to reuse (a resumed batch's `started` lines); other cells get a new
  ULID chosen here, on the head, before the task is submitted, so a retried task resumes that session.
- `on_start(cell, session)`: called on the head when the cell's task is submitted (the runner appends
  its `started` line there); results are yielded as cells finish, in any order.
- `costs`: a list the head's cost per returned session folder (HeadCost) is appended to; it also says
  which host ran the cell and on which attempt (runs.jsonl's `host`), matched by session id.
Every cell is submitted (and told to on_start) before the first result is waited for. Connecting
happens at the first next(): RayUnavailable (no cluster answers, or none offers a browser slot) is the
one exception the caller should turn into a one-line error; everything about a single cell comes back
as that cell's error string. A cell not settled within the plan's timeout_s comes back as an error too,
its session folder unpacked as it stood (a local run leaves it the same way). Closing the generator
early (Ctrl-C) cancels the tasks not yet finished.

What runs where. The task (`@ray.remote`, half a CPU and one `crumb_browser` slot: a custom resource
each worker registers, `ray start --resources '{"crumb_browser": N}'`) gets the head's presets/ and
crumb.toml as bytes, writes them into a worker-local root `<scratch>/<session id>/` (scratch:
$CRUMB_RAY_SCRATCH, default <tmp>/crumb-ray, on that node), pitches the cell there exactly as `crumb
run` would (crumb/batch/cell.py) with the head's session id, runs an in-process daemon until the
session settles (or the plan's timeout_s), and returns the session folder as a tar with a sha256 per
file (crumb/batch/bundle.py). The head unpacks it into root/sessions/<id> through a temp folder and
one rename, checking every file; then it replays the transcript it now holds for the outcome.

A worker lost mid-cell (its process killed, its node gone): Ray retries the task (max_retries). On the
same node the retry finds the worker-local root of the lost attempt, keyed by session id, and does not
pitch again when the session has a transcript or its pitch is still in the inbox; the daemon replays the
transcript and dispatches again only what was pending, so there is one session.start, one goal, and no
finished effect runs twice. A retry that lands on another node starts the cell afresh there (the lost
node's folder went with it): the session returned is still whole and single.

Each worker process keeps one warm Chromium for the cells it runs (as a warm `crumb watch` does).
The worker set-up (runtime_env, Chromium, CLI credentials) is in docs/ray.md.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
from ulid import ULID

from crumb.batch.bundle import Bundle, BundleError, unpack
from crumb.batch.executor import CellReport, Task
from crumb.batch.plan import BatchPlan, Cell
from crumb.batch.runs import CellOutcome
from crumb.store import paths
from crumb.store.durable import write_whole

BROWSER = "crumb_browser"  # the custom resource: one per browser a worker node can run at once
SCRATCH_ENV = "CRUMB_RAY_SCRATCH"
SLOTS_ENV = "CRUMB_RAY_SLOTS"  # browser slots of a local cluster (default: two per CPU)
TASK_CPUS_ENV = "CRUMB_RAY_TASK_CPUS"
# What a cell's task asks for besides its browser slot: half a CPU. A cell mostly waits, on its browser
# (QA) or an agent's model; with one CPU per task, 2 cores ran 2 cells at a time and Ray took 1.49 x the
# local time for 80 cells (one local daemon keeps many sessions going); with half, 1.03 x (bench/ray_overhead.py).
TASK_CPUS = 0.5
ATTEMPTS = ".crumb-ray/attempts.jsonl"  # in a worker-local root: one line per attempt (pid, node, time)
MAX_RETRIES = 3
START_ATTEMPTS = 3  # starts of a local cluster before its raylet start time-out is final
# A local cluster's raylet holds the first driver's registration until it has prestarted one worker per
# CPU; a worker slower to start than Ray's 60 s register time-out (a loaded machine) is killed, the count is
# never reached, and ray.init waits forever in C++ where no signal reaches it (ray-project/ray#40131; seen
# here at load 50, and reproduced by tests/batch/test_ray_executor.py's slow-worker test). Without the
# prestart a worker that will not start fails its task instead (after five tries), as the cell's error. A quiet
# 2-CPU cluster's ray.init plus a first task took the same either way: 3.1-4.4 s with it, 2.9-4.0 s without
# (three alternating pairs).
NO_FIRST_DRIVER_PRESTART: dict[str, Any] = {"prestart_worker_first_driver": False}


class RayUnavailable(RuntimeError):
    """No cluster to run on, or one that offers no browser slot: the message says how to get one."""


@dataclass(frozen=True)
class HeadCost:
    """What one returned session folder cost the head."""

    session: str
    bytes: int  # the tar fetched from the object store
    files: int
    fetch_s: float  # ray.get of the finished task's result
    unpack_s: float  # verify every sha256, write, rename into place, replay for the outcome
    host: str = ""  # the worker's host name
    attempt: int = 1  # 2 and up: Ray retried the task (a worker was lost) and it resumed the session


# ---------------------------------------------------------------- the head


def runtime_env() -> dict[str, Any]:
    """What is shipped with every task: this crumb package, as the head runs it (py_modules), so the
    workers run the very code the head planned with. Its dependencies must be installed on the workers
    (docs/ray.md)."""
    import crumb

    return {"py_modules": [str(Path(crumb.__file__).parent)],
            "env_vars": {"PYTHONDONTWRITEBYTECODE": "1"}}


def connect(address: str) -> None:
    """ray.init for `address` ("auto", "local" or a cluster address), unless Ray is initialised already;
    RayUnavailable when no cluster answers or none offers a browser slot."""
    if not ray.is_initialized():
        quiet: dict[str, Any] = {"log_to_driver": False, "include_dashboard": False, "configure_logging": False}
        found = running_cluster() if address == "auto" else None
        if address == "local" or (address == "auto" and found is None):
            start_local()
        else:
            target = found or address
            if not target.startswith("ray://") and not _answers(target):
                raise RayUnavailable(f"no Ray cluster answers at {target}: start one with `ray start --head "
                                     f"--resources '{{\"{BROWSER}\": 2}}'` (docs/ray.md), or use --ray auto")
            try:
                ray.init(address=target, runtime_env=runtime_env(), **quiet)
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise RayUnavailable(f"cannot join the Ray cluster at {target}: {one_line(err)}") from None
    if not ray.cluster_resources().get(BROWSER):
        raise RayUnavailable(f"the Ray cluster offers no {BROWSER} resource, so no cell could be scheduled: start each "
                             f"worker with `ray start ... --resources '{{\"{BROWSER}\": N}}'` (N browsers it can run at once)")


def running_cluster() -> str | None:
    """The cluster `ray start` runs on this machine, as Ray's own "auto" finds it ($RAY_ADDRESS, else the
    address `ray start` leaves in <tmp>/ray/ray_current_cluster), if it answers; None otherwise. (Ray's
    "auto" would keep retrying an address left by a cluster that is gone, for minutes.)"""
    address = os.environ.get("RAY_ADDRESS", "").strip()
    if not address:
        try:
            address = (Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster").read_text().strip()
        except OSError:
            return None
    if address.startswith("ray://"):
        return address
    return address if address and _answers(address) else None


def _answers(address: str, timeout: float = 2.0) -> bool:
    """Whether something accepts a TCP connection at host:port (a cluster's GCS), without Ray's retries."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        return True  # not host:port: let ray.init say what it makes of it
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def start_local(cpus: int | None = None, slots: int | None = None) -> None:
    """A Ray cluster on this machine only, bound to 127.0.0.1: its CPUs, and `slots` browser slots
    (default $CRUMB_RAY_SLOTS, else two per CPU: a cell's task asks for half a CPU, see TASK_CPUS)."""
    n = cpus or os.cpu_count() or 1
    browsers = slots or int(os.environ.get(SLOTS_ENV) or 0) or 2 * n
    for attempt in range(START_ATTEMPTS):
        try:
            ray.init(address="local", num_cpus=n, resources={BROWSER: browsers}, runtime_env=runtime_env(),
                     _node_ip_address="127.0.0.1", log_to_driver=False, include_dashboard=False, configure_logging=False,
                     _system_config=NO_FIRST_DRIVER_PRESTART)
            return
        except Exception as e:  # Ray raises a bare Exception when its raylet misses a fixed 30 s start window
            if "timed out during startup" not in str(e) or attempt == START_ATTEMPTS - 1:
                raise
            ray.shutdown()  # a loaded machine can be that slow once; the next start finds the work warm


def setup_files(root: Path) -> dict[str, bytes]:
    """What a worker-local root needs from the head's: presets/ (every file) and crumb.toml."""
    out: dict[str, bytes] = {}
    config = paths.config_path(root)
    if config.is_file():
        out[paths.CONFIG] = config.read_bytes()
    presets = root / paths.PRESETS
    if presets.is_dir():
        for path in sorted(presets.rglob("*")):
            if path.is_file() and not path.is_symlink():
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def run_cells(root: Path, plan: BatchPlan, cells: list[Cell], address: str, *,
              sessions: Mapping[Cell, str] | None = None, on_start: Callable[[Cell, str], None] | None = None,
              costs: list[HeadCost] | None = None, scratch: str | None = None,
              max_retries: int = MAX_RETRIES) -> Generator[tuple[Cell, str, CellOutcome | str], None, None]:
    """Run `cells` on Ray; yield (cell, session id, outcome or one-line error) as each finishes."""
    connect(address)
    files = ray.put(setup_files(root))
    plan_json = plan.model_dump_json()
    cpus = float(os.environ.get(TASK_CPUS_ENV) or TASK_CPUS)
    task = _remote_task().options(num_cpus=cpus, max_retries=max_retries, retry_exceptions=False)
    pending: dict[Any, tuple[Cell, str]] = {}
    try:
        for cell in cells:
            session = (sessions or {}).get(cell) or str(ULID())
            ref = task.remote(files, plan_json, cell.pitch, cell.setup, cell.seed, session, plan.timeout_s, scratch)
            pending[ref] = (cell, session)
            if on_start is not None:
                on_start(cell, session)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            cell, session = pending.pop(ready[0])
            yield cell, session, _receive(root, session, ready[0], costs)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def _receive(root: Path, session: str, ref: Any, costs: list[HeadCost] | None) -> CellOutcome | str:
    from crumb.batch.cell import outcome_of
    from crumb.cli.verdict import settled
    from crumb.reducer.replay import replay_file

    started = time.perf_counter()
    try:
        result: dict[str, Any] = ray.get(ref)
    except ray.exceptions.RayTaskError as err:  # the task raised: its own exception, not Ray's wrapping
        cause = err.cause if isinstance(err.cause, BaseException) else err
        return f"the cell's task raised {type(cause).__name__}: {one_line(cause)}"
    except ray.exceptions.RayError as err:  # lost more times than max_retries, cancelled, ...
        return f"the Ray task failed: {one_line(err)}"
    fetched = time.perf_counter()
    if result.get("bundle") is None:
        return str(result.get("error") or "the worker returned no session folder")
    bundle = Bundle(result["bundle"], result["manifest"])
    try:
        unpack(bundle, paths.session_dir(root, session))
        state = replay_file(paths.transcript_path(root, session))
    except BundleError as err:
        return f"the session folder did not come back whole: {err}"
    done = time.perf_counter()
    if costs is not None:
        costs.append(HeadCost(session=session, bytes=len(bundle.data), files=bundle.files,
                              fetch_s=fetched - started, unpack_s=done - fetched, host=str(result.get("host", "")),
                              attempt=int(result.get("attempt", 1))))
    if result.get("error"):
        return str(result["error"])
    if not settled(state):
        return f"not settled on the worker (phase {state.phase})"
    return outcome_of(state)


def one_line(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:300]


# ---------------------------------------------------------------- the worker

_REMOTE: Any = None


def _remote_task() -> Any:
    global _REMOTE
    if _REMOTE is None:
        _REMOTE = ray.remote(num_cpus=TASK_CPUS, resources={BROWSER: 1})(run_cell_task)
    return _REMOTE


def scratch_dir(scratch: str | None = None) -> Path:
    """The node-local folder holding one worker-local root per session id."""
    return Path(scratch or os.environ.get(SCRATCH_ENV) or Path(tempfile.gettempdir()) / "crumb-ray")


def run_cell_task(files: dict[str, bytes], plan_json: str, pitch: int, setup: str, seed: int, session: str,
                  timeout_s: float, scratch: str | None = None) -> dict[str, Any]:
    """The Ray task body: run one cell in a worker-local root and return its session folder as a bundle.
    Returns {"bundle", "manifest", "error", "host", "attempt"}; "bundle" is None when no session exists."""
    import click

    from crumb.batch.bundle import pack
    from crumb.batch.cell import pitch_cell
    from crumb.cli.pitch import settled_or_refused
    from crumb.daemon import rejected

    t0 = time.perf_counter()
    wroot = scratch_dir(scratch) / session
    attempt = _record_attempt(wroot)
    _write_setup(wroot, files)
    out: dict[str, Any] = {"bundle": None, "manifest": None, "error": None, "host": socket.gethostname(),
                           "attempt": attempt}
    sdir = paths.session_dir(wroot, session)
    transcript = paths.transcript_path(wroot, session)
    if not transcript.exists() and not _pitch_waiting(wroot):
        plan = BatchPlan.model_validate_json(plan_json)
        try:
            pitch_cell(wroot, plan, Cell(pitch=pitch, setup=setup, seed=seed), session=session)
        except click.ClickException as err:
            out["error"] = f"cannot run here ({out['host']}): {one_line(Exception(err.format_message()))}"
            _remove(wroot)
            return out
    t1 = time.perf_counter()
    state = _run_until_settled(wroot, session, timeout_s, settled_or_refused(wroot, session))
    t2 = time.perf_counter()
    if not state.events:
        refusal = rejected.find(wroot, session)
        out["error"] = (f"the daemon refused the pitch: {refusal.reason}" if refusal is not None
                        else f"no session after {timeout_s:g}s")
    if sdir.is_dir():
        bundle = pack(sdir)
        out["bundle"], out["manifest"] = bundle.data, bundle.manifest
    _remove(wroot)
    out["timing"] = {"pitch_s": t1 - t0, "run_s": t2 - t1, "pack_s": time.perf_counter() - t2}
    return out


def _remove(wroot: Path) -> None:
    """The worker-local root, gone once its session is packed: renamed aside first, so an attempt lost
    while removing it leaves no half-deleted session for the retry to resume (it starts afresh)."""
    aside = wroot.with_name(f".{wroot.name}.returned-{os.getpid()}")
    try:
        os.rename(wroot, aside)
    except OSError:
        return
    shutil.rmtree(aside, ignore_errors=True)


def _record_attempt(wroot: Path) -> int:
    """Append this attempt (pid, node) to the worker-local root; its number, 1 for the first."""
    path = wroot / ATTEMPTS
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.read_bytes().count(b"\n") if path.exists() else 0
    try:
        node = ray.get_runtime_context().get_node_id()
    except Exception:
        node = ""
    line = json.dumps({"pid": os.getpid(), "node": node, "attempt": before + 1, "at": time.time()}) + "\n"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())
    return before + 1


def _write_setup(wroot: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        target = wroot.joinpath(*Path(rel).parts)
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_whole(target, data)


def _pitch_waiting(wroot: Path) -> bool:
    """A pitch dropped by a lost attempt that its daemon had not consumed yet (the next daemon will)."""
    inbox = paths.inbox_dir(wroot)
    return inbox.is_dir() and any(p.is_file() and not p.name.startswith(".") for p in inbox.iterdir())


def _run_until_settled(wroot: Path, session: str, timeout_s: float, until: Callable[[Any], bool]) -> Any:
    from crumb.cli.sessions import follow
    from crumb.cli.verdict import settled
    from crumb.daemon.daemon import Daemon

    state = follow(wroot, session, timeout=0, until=until)
    if until(state):
        return state  # settled before the lost attempt could return it
    daemon = Daemon(wroot, echo=False, qa_runner=_KeptQA(),
                    stop_when=lambda live: session in live and settled(live[session].state))
    runner = threading.Thread(target=daemon.run, name="crumb-daemon", daemon=True)
    runner.start()
    try:
        state = follow(wroot, session, timeout=timeout_s, until=until)
    finally:
        daemon.stop()
        runner.join(timeout=60)
    return state


_QA: Any = None
_QA_LOCK = threading.Lock()


class _KeptQA:
    """This worker process's one warm QARunner, lent to each cell's daemon (which closes what it is
    given when it stops: here closing is a no-op, so the next cell finds the browser warm)."""

    def _runner(self) -> Any:
        global _QA
        with _QA_LOCK:
            if _QA is None:
                from crumb.qa import QARunner

                _QA = QARunner()
            return _QA

    def check(self, *args: Any, **kwargs: Any) -> Any:
        return self._runner().check(*args, **kwargs)

    def warm(self, *args: Any, **kwargs: Any) -> Any:
        return self._runner().warm(*args, **kwargs)

    def close(self) -> None:
        pass


class RayExecutor:
    """The driver's Executor seam (crumb/batch/executor.py) over run_cells: every cell's session id is
    chosen and reported started first (the driver records each `started` line durably before the next),
    then the cells go to Ray together and come back as they finish. Ray's slots bound how many run at
    once; plan.parallel does not apply (a cluster has as many browser slots as its workers offer)."""

    def __init__(self, address: str, *, scratch: str | None = None) -> None:
        self.address = address
        self.scratch = scratch
        self.costs: list[HeadCost] = []
        self.left_running = False  # nothing of a cell runs in this process

    def run_cells(self, root: Path, plan: BatchPlan, tasks: Sequence[Task]) -> Iterator[CellReport]:
        host = socket.gethostname()
        sessions: dict[Cell, str] = {}
        for task in tasks:
            if task.session is not None:
                sessions[task.cell] = task.session
            else:
                sessions[task.cell] = str(ULID())
                yield CellReport(task.cell, sessions[task.cell], None, host)
        results = run_cells(root, plan, [t.cell for t in tasks], self.address, sessions=sessions,
                            costs=self.costs, scratch=self.scratch)
        try:
            for cell, session, result in results:
                ran_on = next((c.host for c in reversed(self.costs) if c.session == session), "")
                yield CellReport(cell, session, result, ran_on or host)
        finally:
            results.close()
