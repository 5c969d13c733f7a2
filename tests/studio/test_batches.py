"""The Studio's batch pages on a real batch (tests/report/batchmaker.py): the list, the matrix live as
runs.jsonl grows (API, stream and a real Chromium), and the report with its links into the Studio."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import ulid

from crumb.batch import runs
from crumb.batch.plan import RUNS_JSONL
from crumb.store import paths
from crumb.studio.server import Studio
from tests.report.batchmaker import BATCH_ID, Made
from tests.studio.conftest import SSEReader
from tests.wait import wait_until

LIVE = "01TESTLIVEBATCH000000000001"


@pytest.fixture
def live(made: Made) -> Iterator[tuple[Path, list[runs.RunLine]]]:
    """A copy of the made batch under another id whose runs.jsonl holds only the first cell's `started`
    line: the test appends the rest, as a running `crumb batch` would."""
    folder = made.root / "batches" / LIVE
    shutil.copytree(made.folder, folder, symlinks=True)
    lines = runs.read(made.folder / RUNS_JSONL)
    (folder / RUNS_JSONL).write_bytes(b"")
    runs.append(folder / RUNS_JSONL, lines[0])
    yield folder, lines[1:]
    shutil.rmtree(folder)


@pytest.fixture
def bstudio(made: Made) -> Iterator[Studio]:
    s = Studio(made.root, port=0).start()
    yield s
    s.stop()


@pytest.fixture
def bclient(bstudio: Studio) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=bstudio.url.rstrip("/"), timeout=30) as c:
        yield c


def test_the_api_lists_batches_and_gives_each_matrix(bclient: httpx.Client, made: Made) -> None:
    listed = bclient.get("/api/batches").json()["batches"]
    row = next(b for b in listed if b["batch"] == BATCH_ID)
    assert row["cells"] == 6 and row["counts"] == {"PASS": 2, "PARTIAL": 2, "fallback": 1, "missing": 1}
    m = bclient.get(f"/api/batches/{BATCH_ID}").json()
    assert m["setups"] == ["local", "local,fault=wrongtimer", "builder=command:/bin/false"]
    cell = next(c for c in m["cells"] if c["cell"] == "p001-builder-command-bin-false-s1")
    assert (cell["bucket"], cell["verdict"], cell["session"]) == ("fallback", "PASS",
                                                                  made.sessions["p001-builder-command-bin-false-s1"])
    for bad in ("nope", "..%2F..%2Fetc", "-x"):
        assert bclient.get(f"/api/batches/{bad}").status_code == 404
    assert bclient.get("/b/nope").status_code == 404


def test_the_report_page_links_into_the_studio_and_runs_no_script(bclient: httpx.Client, made: Made) -> None:
    r = bclient.get(f"/b/{BATCH_ID}/report")
    assert r.status_code == 200 and "script-src" not in r.headers["content-security-policy"]
    assert "default-src 'none'" in r.headers["content-security-policy"] and "<script" not in r.text
    assert r.text.count("<svg") == 4
    session = made.sessions["p001-local-s1"]
    shot = f"/api/sessions/{session}/file/artifacts/qa/end.png"
    assert f'src="{shot}"' in r.text and f'href="/s/{session}"' in r.text
    img = bclient.get(shot)
    assert img.status_code == 200 and img.headers["content-type"] == "image/png"


def test_the_stream_sends_the_matrix_again_when_runs_jsonl_grows(bstudio: Studio, live: tuple[Path, list[Any]]) -> None:
    folder, rest = live
    reader = SSEReader(f"http://127.0.0.1:{bstudio.stream_port}/api/batches/{LIVE}/stream")
    try:
        wait_until(lambda: any(e[0] == "matrix" for e in reader.events), timeout=30)
        first = [e[2] for e in reader.events if e[0] == "matrix"][-1]
        assert first["counts"] == {"unfinished": 1, "missing": 5}
        runs.append(folder / RUNS_JSONL, rest[0])  # the first cell settles
        wait_until(lambda: [e[2] for e in reader.events if e[0] == "matrix"][-1]["counts"].get("PASS") == 1,
                   timeout=30)
    finally:
        reader.close()


def test_a_running_cell_shows_where_its_session_stands_as_its_transcript_grows(
        bstudio: Studio, made: Made, live: tuple[Path, list[Any]]) -> None:
    """The live batch's running cell points at a session whose daemon has written up to its build: the
    matrix says `qa r1`; the rest of the transcript is appended, as the daemon would, and it says `done r1`."""
    folder, _ = live
    started = runs.read(folder / RUNS_JSONL)[0]
    assert started.state == "started" and started.session is not None
    lines = paths.transcript_path(made.root, started.session).read_bytes().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if b'"kind":"build"' in line) + 1
    moving = str(ulid.ULID())
    transcript = paths.transcript_path(made.root, moving)
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b"".join(lines[:cut]))
    (folder / RUNS_JSONL).write_bytes(b"")
    runs.append(folder / RUNS_JSONL, started.model_copy(update={"session": moving}))
    reader = SSEReader(f"http://127.0.0.1:{bstudio.stream_port}/api/batches/{LIVE}/stream")

    def phase() -> str | None:
        matrices = [e[2] for e in reader.events if e[0] == "matrix"]
        cell = next(c for c in matrices[-1]["cells"] if c["cell"] == started.cell) if matrices else None
        return cell["phase"] if cell else None

    try:
        assert wait_until(phase, timeout=30, what="the running cell's phase") == "qa r1"
        with transcript.open("ab") as f:
            f.write(b"".join(lines[cut:]))
        wait_until(lambda: phase() == "done r1", timeout=30, what="the phase after the transcript grew")
        assert all(c["phase"] is None for c in [e[2] for e in reader.events if e[0] == "matrix"][-1]["cells"]
                   if c["cell"] != started.cell)  # settled and missing cells have no phase
    finally:
        reader.close()
        shutil.rmtree(transcript.parent)


@pytest.mark.browser
def test_the_batch_page_shows_the_matrix_live_and_links_cells_to_sessions(
        page: Any, bstudio: Studio, made: Made, live: tuple[Path, list[Any]]) -> None:
    folder, rest = live
    page.goto(bstudio.url)
    page.wait_for_selector(f'.batch-row[data-batch="{LIVE}"]')
    page.click(f'.batch-row[data-batch="{LIVE}"]')
    page.wait_for_selector('td.mcell[data-cell="p001-local-s1"][data-bucket="unfinished"]')
    assert page.locator("td.mcell").count() == 6
    assert page.locator('td.mcell[data-bucket="missing"]').count() == 5
    for line in rest:
        runs.append(folder / RUNS_JSONL, line)
    page.wait_for_selector('td.mcell[data-cell="p002-local-fault-wrongtimer-s1"][data-bucket="PARTIAL"]')
    fallback = page.locator('td.mcell[data-cell="p001-builder-command-bin-false-s1"]')
    assert fallback.get_attribute("data-bucket") == "fallback" and "fallback · PASS" in fallback.inner_text()
    session = made.sessions["p001-local-s1"]
    assert page.locator('td.mcell[data-cell="p001-local-s1"] a').get_attribute("href") == f"/s/{session}"
    assert page.locator('td.mcell[data-bucket="missing"]').count() == 1
    # the report, opened from the batch page: its plots are drawn and its gallery's images load
    page.click("#report-link")
    page.wait_for_selector("#plot-pass_rate svg")
    box = page.locator("#plot-pass_rate svg").bounding_box()
    assert box is not None and box["width"] > 300
    images = page.locator("figure.cell img")
    assert images.count() == 5
    for i in range(images.count()):
        images.nth(i).scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete", arg=images.nth(i).element_handle())
        assert images.nth(i).evaluate("img => img.naturalWidth") > 0
    assert page.errors == []


@pytest.mark.browser
def test_two_sessions_side_by_side_from_the_session_page(page: Any, bstudio: Studio, made: Made) -> None:
    """`crumb compare A B` in the Studio: from one session's page, the other's last characters; the table
    has both verdicts and both pitches, each side's QA screenshots load, and the page runs no script."""
    from tests.studio.conftest import open_session

    a, b = made.sessions["p001-local-s1"], made.sessions["p002-local-s1"]
    open_session(page, bstudio, a)
    page.fill("form.compare-form input[name=b]", b[-6:].lower())
    page.click("#btn-compare")
    page.wait_for_selector("table")
    assert page.url.endswith(f"/compare?a={a}&b={b[-6:].lower()}")
    cells = page.locator("tr").filter(has=page.locator("th", has_text="session")).first.locator("td").all_text_contents()
    assert cells == [a, b]
    pitches = page.locator("tr").filter(has=page.locator("th", has_text="pitch")).first.locator("td").all_text_contents()
    assert pitches[0] != pitches[1] and all(pitches)
    verdict = page.locator("tr").filter(has=page.locator("th", has_text="verdict")).first.locator("td").all_text_contents()
    assert verdict == ["PASS (done: pass)", "PARTIAL (waiting for a person)"], verdict  # as `crumb compare` says
    shots = page.locator(".shots img")
    assert shots.count() >= 2
    assert all(page.evaluate("(img) => img.complete && img.naturalWidth > 0", shots.nth(i).element_handle())
               for i in range(shots.count()))
    assert page.evaluate("() => document.scripts.length") == 0
    gone = page.goto(f"{bstudio.url}compare?a={a}&b=NOPE")  # an unknown session: 404, one line saying why
    assert gone is not None and gone.status == 404
    assert "compare takes two sessions" in (page.text_content("body") or "")


def test_two_setups_of_a_batch_side_by_side(bclient: httpx.Client, made: Made) -> None:
    """As `crumb compare BATCH 1 2`: set-ups by number or name; an unknown one is a 404 naming those there are."""
    page = bclient.get(f"/b/{BATCH_ID}/compare", params={"a": "1", "b": "local,fault=wrongtimer"})
    assert page.status_code == 200, page.text
    assert "script-src" not in page.headers["content-security-policy"] and "<script" not in page.text
    assert "<h1>local vs local,fault=wrongtimer</h1>" in page.text
    assert "A: local" in page.text and "B: local,fault=wrongtimer" in page.text and "rounds→PASS" in page.text
    bad = bclient.get(f"/b/{BATCH_ID}/compare", params={"a": "1", "b": "nope"})
    assert bad.status_code == 404 and "no set-up 'nope'" in bad.text and "'local'" in bad.text
