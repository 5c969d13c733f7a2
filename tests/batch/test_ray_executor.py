"""Batch cells on a real local Ray cluster (ray.init with the machine's 2 CPUs; nothing of Ray mocked).

Each cell runs as a Ray task on a worker process, in a worker-local root, on the embedded studio; its
session folder comes back to the head whole and verified. The same cells run locally through `crumb
run` are the reference: same pitch + seed → the same game, so the game files and the spec must match
byte for byte, the rounds and verdicts exactly (but for QA's frame rate, which depends on the machine's
load: see same_as_local), and the folders hold the same files. The last test starts a cluster as a
person does for `--ray ADDRESS` (`ray start --head`) and sends a cell to it by address.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from ulid import ULID

from crumb.batch.bundle import Bundle, BundleError, digest, unpack
from crumb.batch.plan import BatchPlan, Cell, parse_setup
from crumb.batch.runs import CellOutcome
from crumb.reducer.replay import replay_file
from crumb.store import paths
from tests.loopback import refusing_port, spare_port
from tests.wait import wait_until

ray = pytest.importorskip("ray", reason="Ray is not installed: `make setup` installs the ray extra (pip install -e '.[ray]')")
rx = pytest.importorskip("crumb.batch.ray_executor")

# Ray's C++ can block the main thread where pytest-timeout's SIGALRM never reaches it (a hung ray.init once
# kept a whole run from ending): the thread method ends this process instead, and xdist reports the test
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300, method="thread")]

REPO = Path(__file__).resolve().parents[2]
PLAN = BatchPlan(pitches=["60-second snake", "pong to 5 points"],
                 setups=[parse_setup("local"), parse_setup("local,fault=wrongtimer"),
                         parse_setup("builder=command:./no-such-tool-here")],
                 seeds=[3], timeout_s=240)
CELLS = [Cell(1, "local", 3), Cell(2, "local", 3), Cell(1, "local,fault=wrongtimer", 3)]
KILLED = Cell(2, "local,fault=wrongtimer", 3)  # two rounds: a lot left to resume after the kill
UNRUNNABLE = Cell(1, "builder=command:./no-such-tool-here", 3)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    if ray.is_initialized():
        ray.shutdown()
    rx.start_local(cpus=2)
    yield
    ray.shutdown()


SLOW_WORKER = """import os, sys, time
if any("default_worker" in a for a in sys.argv):  # a Ray worker process, not the driver
    time.sleep(float(os.environ["CRUMB_TEST_WORKER_DELAY"]))
"""


def test_a_local_cluster_starts_when_its_workers_are_slower_to_start_than_ray_waits(tmp_path: Path) -> None:
    """A loaded machine as Ray sees it: every worker takes longer to start than the raylet's register
    time-out (shrunk from 60 s to 2 s, the workers delayed 4 s by a sitecustomize). Ray's default
    prestart would make ray.init wait forever for workers it has killed (ray-project/ray#40131); the
    local cluster CRUMB starts is up, with its browser slots, within the deadline."""
    (tmp_path / "sitecustomize.py").write_text(SLOW_WORKER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "CRUMB_TEST_WORKER_DELAY": "4",
           "RAY_worker_register_timeout_seconds": "2"}
    start = ("import ray; from crumb.batch import ray_executor as rx; rx.start_local(cpus=2); "
             "print('up', ray.cluster_resources().get(rx.BROWSER), flush=True); ray.shutdown()")
    proc = subprocess.Popen([sys.executable, "-c", start], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and the cluster it started, none of anyone else's
        out, err = proc.communicate()
        pytest.fail(f"ray.init did not return within 180 s with slow workers:\n{err[-2000:]}")
    assert proc.returncode == 0 and out.split() == ["up", "4.0"], err[-2000:]


def crumb_run(root: Path, cell: Cell) -> tuple[Path, dict[str, Any]]:
    """The cell through `crumb run` on this machine: (its session folder, the --json object)."""
    setup = PLAN.setup(cell.setup)
    args = [sys.executable, "-m", "crumb", "--root", str(root), "run", PLAN.pitches[cell.pitch - 1],
            "--seed", str(cell.seed), "--json", "--timeout", "240"]
    if setup.fault:
        args += ["--fault", setup.fault]
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=280)
    assert proc.stdout.strip(), proc.stderr
    out = json.loads(proc.stdout)
    return paths.session_dir(root, out["session"]), out


@pytest.fixture(scope="module")
def local_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Cell, tuple[Path, dict[str, Any]]]:
    """Each cell through `crumb run`, two at a time (as many as the machine has cores), each in a root
    of its own (a second `crumb run` in one root would follow the first one's daemon, which stops when
    the first session settles)."""
    cells = [*CELLS, KILLED]
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda c: crumb_run(tmp_path_factory.mktemp("local"), c), cells))
    return dict(zip(cells, runs, strict=True))


def comparable(folder: Path) -> dict[str, str]:
    """The folder's files with their sha256 (game, spec.md, ...), less what differs between two runs of
    the same cell: the transcript (ids, timestamps), the archived pitch (a new ULID in its name and front
    matter each drop) and QA's screenshots (named the same, but taken after probes that wait in real
    time, so their pixels depend on the machine's load)."""
    return {rel: ("screenshot" if rel.startswith("artifacts/qa/") and rel.endswith(".png") else sha)
            for rel, sha in digest(folder).items() if rel != paths.TRANSCRIPT and not rel.startswith("archive/")}


def judged(folder: Path) -> list[tuple[str, dict[str, float]]]:
    """Each judge.score's verdict and scores, from the transcript."""
    events = [json.loads(line) for line in (folder / paths.TRANSCRIPT).read_text().splitlines()]
    return [(e["data"]["verdict"], {k: v["score"] for k, v in e["data"]["scores"].items()})
            for e in events if e["kind"] == "judge.score"]


def same_as_local(head_folder: Path, local: tuple[Path, dict[str, Any]], outcome: CellOutcome) -> None:
    """The folder a Ray worker made is the one `crumb run` makes here: the same game and spec byte for
    byte, the same files, the same rounds, verdicts and scores (QA's frame rate is measured in the game's
    CPU time, so the two machines' loads do not move the performance score)."""
    local_folder, local_json = local
    assert comparable(head_folder) == comparable(local_folder)  # game, spec.md, QA's screenshot names
    assert [p.name.startswith("pitch-") for p in (head_folder / "archive").iterdir()] == [True]
    assert (outcome.rounds, outcome.fallback) == (local_json["round"], local_json["fallback"])
    head, here = judged(head_folder), judged(local_folder)
    assert head == here
    assert (outcome.verdict, outcome.done, outcome.exit) == (local_json["verdict"], local_json["done"], local_json["exit"])
    assert [v["verdict"] for v in replay_file(head_folder / paths.TRANSCRIPT).summary()["verdicts"]] == [v for v, _ in head]


def test_cells_on_ray_come_back_as_a_local_run_makes_them(cluster: None, tmp_path: Path,
                                                          local_runs: dict[Cell, tuple[Path, dict[str, Any]]]) -> None:
    head = tmp_path / "head"
    started: list[tuple[Cell, str]] = []
    costs: list[rx.HeadCost] = []
    results = {cell: (session, result) for cell, session, result in
               rx.run_cells(head, PLAN, [*CELLS, UNRUNNABLE], "auto", costs=costs, scratch=str(tmp_path / "scratch"),
                            on_start=lambda c, s: started.append((c, s)))}
    assert [c for c, _ in started] == [*CELLS, UNRUNNABLE]  # told before any result, in submission order
    assert {c: s for c, s in started} == {c: s for c, (s, _) in results.items()}

    session, error = results.pop(UNRUNNABLE)
    assert isinstance(error, str) and "cannot run here" in error and "no-such-tool-here" in error, error
    assert not paths.session_dir(head, session).exists()  # nothing came back, nothing written

    for cell, (session, outcome) in results.items():
        assert isinstance(outcome, CellOutcome), (cell, outcome)
        same_as_local(paths.session_dir(head, session), local_runs[cell], outcome)
    assert results[CELLS[2]][1].rounds == 2  # type: ignore[union-attr]  # the fault's fix round came back too
    assert sorted(paths.list_sessions(head)) == sorted(s for s, _ in results.values())  # no temp folder left
    assert sorted(c.session for c in costs) == sorted(s for s, _ in results.values())
    for cost in costs:
        assert cost.bytes > 10_000 and cost.files >= 8 and cost.attempt == 1
        assert cost.unpack_s < 5  # verify + write + replay of ~100-300 kB
    assert list((tmp_path / "scratch").iterdir()) == []  # each worker-local root removed once returned


def test_a_corrupted_bundle_from_a_worker_is_refused_whole(cluster: None, tmp_path: Path,
                                                           local_runs: dict[Cell, tuple[Path, dict[str, Any]]]) -> None:
    cell, session = CELLS[0], str(ULID())
    ref = rx._remote_task().remote(rx.setup_files(tmp_path), PLAN.model_dump_json(), cell.pitch, cell.setup,
                                   cell.seed, session, PLAN.timeout_s, str(tmp_path / "scratch"))
    result = ray.get(ref, timeout=240)
    good = Bundle(result["bundle"], result["manifest"])
    with tarfile.open(fileobj=io.BytesIO(good.data)) as tar:
        page = tar.extractfile("artifacts/game/index.html").read()  # type: ignore[union-attr]
    data = bytearray(good.data)
    data[data.index(page) + len(page) // 2] ^= 1  # one bit in the middle of index.html: same size, another sha256
    dest = paths.session_dir(tmp_path / "head", session)
    with pytest.raises(BundleError, match="artifacts/game/index.html: sha256"):
        unpack(Bundle(bytes(data), good.manifest), dest)
    assert list(dest.parent.iterdir()) == []
    unpack(good, dest)
    assert comparable(dest) == comparable(local_runs[cell][0])


def _events(transcript: Path) -> list[dict[str, Any]]:
    try:
        raw = transcript.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in raw.splitlines() if line.endswith("}")]


def test_a_worker_killed_mid_session_is_retried_and_resumes_without_doubling(
        cluster: None, tmp_path: Path, local_runs: dict[Cell, tuple[Path, dict[str, Any]]]) -> None:
    head, scratch, session = tmp_path / "head", tmp_path / "scratch", str(ULID())
    wroot = scratch / session
    out: list[tuple[Cell, str, CellOutcome | str]] = []
    costs: list[rx.HeadCost] = []
    runner = threading.Thread(target=lambda: out.extend(rx.run_cells(
        head, PLAN, [KILLED], "auto", sessions={KILLED: session}, costs=costs, scratch=str(scratch))))
    runner.start()

    def built_not_done() -> int | None:
        """The worker's pid once its session has a build and QA is running on it (pending)."""
        kinds = [e["kind"] for e in _events(paths.transcript_path(wroot, session))]
        assert "done" not in kinds, "the session settled before it could be killed"
        if "build" not in kinds or (wroot / rx.ATTEMPTS).read_text().count("\n") != 1:
            return None
        return int(json.loads((wroot / rx.ATTEMPTS).read_text().splitlines()[0])["pid"])

    pid = wait_until(built_not_done, timeout=180, what="the worker's session to reach its first build")
    os.kill(pid, signal.SIGKILL)
    runner.join(timeout=240)
    assert not runner.is_alive()

    [(cell, got_session, outcome)] = out
    assert (cell, got_session) == (KILLED, session)
    assert isinstance(outcome, CellOutcome), outcome
    assert [c.attempt for c in costs] == [2]  # Ray ran the task again, and that attempt finished the session
    folder = paths.session_dir(head, session)
    events = _events(folder / paths.TRANSCRIPT)
    kinds = Counter(e["kind"] for e in events)
    assert kinds["session.start"] == 1 and kinds["goal"] == 1 and kinds["done"] == 1
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    finished: dict[str, int] = {}  # effect id → seq of its result
    for e in events:
        effect = e.get("effect") or (e.get("data") or {}).get("effect_id")
        if not effect or e["kind"] in ("progress", "effect.started"):
            if e["kind"] == "effect.started":
                assert effect not in finished, f"effect {effect} started again after it had finished (#{e['seq']})"
            continue
        assert effect not in finished, f"effect {effect} gave a second result: #{e['seq']} {e['kind']}"
        finished.setdefault(effect, e["seq"])
    same_as_local(folder, local_runs[KILLED], outcome)  # resumed, and still the game a local run makes
    assert not wroot.exists()


@pytest.fixture
def started_cluster(cluster: None) -> Iterator[str]:
    """A cluster as a person starts one for `--ray ADDRESS`: `ray start --head` in a process of its own
    (this process's in-process cluster shut down first), stopped by its pid afterwards."""
    ray.shutdown()
    cli = Path(sys.executable).with_name("ray")
    for attempt in range(2):  # Ray gives up on its own node after ~45 s beside browser tests ("timed out during startup")
        port = spare_port()
        proc = subprocess.Popen([str(cli), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
                                 "--resources", json.dumps({rx.BROWSER: 2}), "--node-ip-address=127.0.0.1",
                                 "--include-dashboard=false", "--disable-usage-stats"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda p=proc, out=lines: out.extend(iter(p.stdout.readline, "")), daemon=True)  # type: ignore[misc]
        reader.start()
        wait_until(lambda p=proc, out=lines: p.poll() is not None or any("Ray runtime started" in line for line in out),
                   timeout=120, what="`ray start --head` to say the runtime started")
        if proc.poll() is None or attempt == 1 or "timed out during startup" not in "".join(lines):
            break
    try:
        assert proc.poll() is None, "".join(lines)
        yield f"127.0.0.1:{port}"
    finally:
        ray.shutdown()
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as `--block` documents (SIGTERM takes ~30 s); its own
        try:                                # process group: the head's processes, none of anyone else's
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        left = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"  # `ray stop` would remove it
        if left.is_file() and left.read_text().strip().endswith(f":{port}"):
            left.unlink()


def test_a_cluster_started_with_ray_start_takes_cells_by_address(
        started_cluster: str, tmp_path: Path, local_runs: dict[Cell, tuple[Path, dict[str, Any]]]) -> None:
    head = tmp_path / "head"
    [(cell, session, outcome)] = list(rx.run_cells(head, PLAN, [CELLS[1]], started_cluster))
    assert isinstance(outcome, CellOutcome), outcome
    same_as_local(paths.session_dir(head, session), local_runs[cell], outcome)

    # the same through the command a person types: `crumb batch resume BATCH --ray ADDRESS` on a batch of
    # the first pitch on both offline set-ups (seed 3, as the local runs): runs.jsonl as a local batch writes it
    from crumb.batch import runs
    from crumb.batch.driver import create

    plan = PLAN.model_copy(update={"pitches": PLAN.pitches[:1], "setups": PLAN.setups[:2]})
    folder = create(tmp_path / "cli", plan)
    proc = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path / "cli"), "batch", "resume",
                           str(folder), "--ray", started_cluster, "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["cells"], out["settled"], out["failed"]) == (2, 2, 0)
    latest = runs.latest(runs.read(folder / "runs.jsonl"))
    for cell in plan.cells():
        line = latest[cell.id]
        assert line.state == "settled" and line.outcome is not None and line.session is not None
        assert line.host  # which machine ran it
        same_as_local(paths.session_dir(tmp_path / "cli", line.session), local_runs[cell], line.outcome)
        assert (folder / "sessions" / cell.id / "transcript.jsonl").is_file()
    again = create(tmp_path / "cli", plan.model_copy(update={"name": "nowhere"}))
    with refusing_port() as port:  # a port nothing listens on: the batch is refused at once, in one line
        nowhere = f"127.0.0.1:{port}"
        proc = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path / "cli"), "batch", "resume",
                               str(again), "--ray", nowhere], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and nowhere in proc.stderr, proc.stderr
