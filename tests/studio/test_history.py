"""The Studio over time, on a real two-round session (`crumb run --fault noinput`: round 1 FAILs with
no input, the embedded studio fixes it in round 2): every round's scorecard, the plot, the diff between
rounds, QA's screenshots per round, the spec rendered and edited through the inbox, Redo/Cancel/Download,
and the session list's filters. API tests over loopback HTTP, panels in real Chromium."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import crumb as crumb_package
from crumb.store import paths
from crumb.store.reader import read_events
from crumb.studio.server import Studio
from tests.studio.conftest import open_session, post_headers
from tests.studio.scripted import Scripted
from tests.wait import wait_until

# the subprocesses run this checkout's crumb (the one under test), whatever the venv has installed
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(Path(crumb_package.__file__).resolve().parents[1]), *filter(None, [os.environ.get("PYTHONPATH")])])}


def crumb(root: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crumb", "--root", str(root), *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, env=ENV)


def two_round_session(root: Path) -> str:
    (root / "inbox").mkdir(parents=True, exist_ok=True)
    # round 1 is checked twice (its twin's pictures cannot tell, so again with both runs painting): on
    # a loaded machine that takes more than the default budget, and what these tests read is the history
    (root / "crumb.toml").write_text("[settings.qa]\ntimeout_s = 600\n")
    out = crumb(root, "run", "60-second snake", "--fault", "noinput", "--preset", "local", "--json")
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert result["verdict"] == "PASS" and result["round"] == 2, result
    return str(result["session"])


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("history")
    return root, two_round_session(root)


@pytest.fixture(scope="module")
def hstudio(made: tuple[Path, str]) -> Iterator[Studio]:
    s = Studio(made[0], port=0).start()
    yield s
    s.stop()


@pytest.fixture
def hclient(hstudio: Studio) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hstudio.url.rstrip("/"), timeout=30) as c:
        yield c


def inbox_files(root: Path, sid: str) -> dict[str, str]:
    folder = paths.session_inbox(root, sid)
    return {p.name: p.read_text() for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


# ---------------------------------------------------------------- API


def test_every_round_has_its_scorecard_and_shots_say_when_replaced(hclient: httpx.Client, made: tuple[Path, str]) -> None:
    root, sid = made
    rounds = hclient.get(f"/api/sessions/{sid}/rounds").json()["rounds"]
    assert [(r["round"], r["verdict"]) for r in rounds] == [(1, "FAIL"), (2, "PASS")]
    first, second = rounds
    assert first["qa"]["ok"] is False and first["qa"]["facts"]["input_responds"] is False
    assert {s["dimension"]: s["source"] for s in first["scores"]}["controls"] == "QA"
    assert first["feedback"] and first["corrections"]
    # QA writes its screenshots to the same paths each round: round 1's were replaced by round 2's
    assert first["screenshots"] and all(not s["exists"] and s["replaced_by"] == 2 for s in first["screenshots"])
    assert second["screenshots"] and all(s["exists"] for s in second["screenshots"])
    # each round keeps its own filmstrip (artifacts/qa/round-K/), so round 1's frames are still round 1's
    for r in rounds:
        film = r["filmstrip"]
        assert len(film["frames"]) >= 3 and all(f["exists"] for f in film["frames"])
        assert {f["path"].rsplit("/", 1)[0] for f in film["frames"]} == {f"artifacts/qa/round-{r['round']}"}
        assert film["sheet"] == f"artifacts/qa/round-{r['round']}/sheet.png"
        assert any(f["after"] for f in film["frames"]) and film["inputs"]
        got = hclient.get(f"/api/sessions/{sid}/file/{film['frames'][0]['path']}")
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
    # every file QA wrote is listed in its qa.result with the sha256 it has on disk
    sdir = paths.session_dir(root, sid)
    for ev in (e for e in read_events(paths.transcript_path(root, sid)) if e["kind"] == "qa.result"):
        listed = {f["path"]: f["sha256"] for f in ev["data"]["files"]}
        film = ev["data"]["filmstrip"]
        assert {f["path"] for f in film["frames"]} | {film["sheet"]} <= set(listed)
        assert all(f["sha256"] == listed[f["path"]] for f in film["frames"])
        written = {p.relative_to(sdir).as_posix() for p in (sdir / film["sheet"]).parent.iterdir()}
        assert written == {f["path"] for f in film["frames"]} | {film["sheet"]}
    last = [e for e in read_events(paths.transcript_path(root, sid)) if e["kind"] == "qa.result"][-1]
    for rel, digest in {f["path"]: f["sha256"] for f in last["data"]["files"]}.items():
        assert hashlib.sha256((sdir / rel).read_bytes()).hexdigest() == digest, rel
    # the same rounds come with the session detail (the page's panels)
    detail = hclient.get(f"/api/sessions/{sid}").json()
    assert [r["verdict"] for r in detail["rounds"]] == ["FAIL", "PASS"]


def test_diff_between_rounds_names_the_changed_file(hclient: httpx.Client, made: tuple[Path, str]) -> None:
    _, sid = made
    d = hclient.get(f"/api/sessions/{sid}/diff", params={"round": 2}).json()
    changed = {f["path"]: f for f in d["files"]}
    assert d["from"] == 1 and "config.js" in changed, d
    assert '-  "fault": "noinput"' in changed["config.js"]["diff"] or '- "fault": "noinput"' in changed["config.js"]["diff"]
    assert "+++ round-2/config.js" in changed["config.js"]["diff"] and d["unchanged"] >= 1
    for bad, status in (("1", 404), ("3", 404), ("x", 400)):
        r = hclient.get(f"/api/sessions/{sid}/diff", params={"round": bad})
        assert r.status_code == status and "round" in r.json()["error"], r.text


def test_download_is_the_export_zip_with_the_game(hclient: httpx.Client, made: tuple[Path, str]) -> None:
    _, sid = made
    r = hclient.get(f"/api/sessions/{sid}/download")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert "attachment" in r.headers["content-disposition"]
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    assert any(n.endswith("/game/index.html") for n in names) and any(n.endswith("/verdict.json") for n in names)


def test_download_without_a_game_says_so(client: httpx.Client, scripted: Scripted) -> None:
    scripted.start()
    r = client.get(f"/api/sessions/{scripted.session}/download")
    assert r.status_code == 404 and "has no game" in r.json()["error"]


def test_a_pitch_the_daemon_has_not_taken_has_no_rounds_diff_or_download(client: httpx.Client, root: Path) -> None:
    """A pitch dropped but not yet taken: its folder exists, its transcript does not. Each history endpoint
    says so and what to do, where a bare 404 or an empty list would read as a session that lost its rounds."""
    sid = "01JAAAAAAAAAAAAAAAAAAAAAAA"
    paths.session_inbox(root, sid).mkdir(parents=True)
    for url in (f"/api/sessions/{sid}/rounds", f"/api/sessions/{sid}/diff?round=2", f"/api/sessions/{sid}/download"):
        r = client.get(url)
        error = r.json()["error"]
        assert r.status_code == 404 and "has not started yet" in error and "wait until the daemon" in error, (url, r.text)


def test_redo_cancel_and_spec_edit_drop_inbox_files(hstudio: Studio, hclient: httpx.Client,
                                                    made: tuple[Path, str]) -> None:
    root, sid = made
    before = set(inbox_files(root, sid))
    for text in ("/redo", "/cancel enough"):
        assert hclient.post(f"/api/sessions/{sid}/steer", json={"text": text},
                            headers=post_headers(hstudio)).status_code == 201
    spec = (paths.artifacts_dir(root, sid) / "spec.md").read_text()
    r = hclient.post(f"/api/sessions/{sid}/spec", json={"text": spec.replace("# Snake", "# Snake Deluxe", 1)},
                     headers=post_headers(hstudio))
    assert r.status_code == 201 and r.json()["file"].endswith(".spec.md"), r.text
    new = {k: v for k, v in inbox_files(root, sid).items() if k not in before}
    assert sorted(v.strip() for k, v in new.items() if k.endswith(".txt")) == ["/cancel enough", "/redo"]
    assert [v for k, v in new.items() if k.endswith(".spec.md")][0].startswith("# Snake Deluxe")
    assert (paths.artifacts_dir(root, sid) / "spec.md").read_text() == spec  # the Studio wrote only the inbox
    for name in new:
        (paths.session_inbox(root, sid) / name).unlink()  # the module's other tests see the session as it was
    bad = hclient.post(f"/api/sessions/{sid}/spec", json={"text": "  "}, headers=post_headers(hstudio))
    assert bad.status_code == 400 and "empty" in bad.json()["error"]
    assert hclient.post(f"/api/sessions/{sid}/spec", json={"text": "x"}).status_code == 403  # no token


def test_list_filters_and_search(hclient: httpx.Client, made: tuple[Path, str]) -> None:
    root, sid = made
    row = hclient.get("/api/sessions").json()["sessions"][0]
    assert row["session"] == sid and row["roles"]["builder"].startswith("local")
    assert row["cost_usd"] == 0.0 and row["duration_s"] is not None and row["duration_s"] >= 0

    def ids(**params: str) -> list[str]:
        return [r["session"] for r in hclient.get("/api/sessions", params=params).json()["sessions"]]

    assert ids(q="snake") == [sid] and ids(q="pinball") == []
    assert ids(verdict="PASS") == [sid] and ids(verdict="FAIL") == []
    assert ids(phase="done") == [sid] and ids(phase="building") == []
    assert ids(genre="snake") == [sid] and ids(genre="breakout") == []
    assert ids(harness="local") == [sid] and ids(harness="codex") == []


# ---------------------------------------------------------------- the daemon takes the Studio's spec edit


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_daemon_takes_a_spec_edit_from_the_inbox(made: tuple[Path, str], tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(made[0], root, ignore=shutil.ignore_patterns(".crumb"))
    sid = made[1]
    studio = Studio(root, port=0).start()
    daemon = None
    try:
        spec = (paths.artifacts_dir(root, sid) / "spec.md").read_text()
        with httpx.Client(base_url=studio.url.rstrip("/"), timeout=30) as c:
            r = c.post(f"/api/sessions/{sid}/spec", json={"text": spec.replace("# Snake", "# Snake Deluxe", 1)},
                       headers=post_headers(studio))
        assert r.status_code == 201, r.text
        name = r.json()["file"]
        daemon = subprocess.Popen([sys.executable, "-m", "crumb", "--root", str(root), "watch"], cwd=root,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True, env=ENV)
        transcript = paths.transcript_path(root, sid)
        update = wait_until(lambda: [e for e in read_events(transcript) if e["kind"] == "spec.update"], 120,
                            "the daemon's spec.update")[0]
        assert update["from"] == "user" and update["data"]["by"] == "user"
        assert update["data"]["title"] == "Snake Deluxe" and update["data"]["source"]["name"] == name
        wait_until((paths.session_dir(root, sid) / "archive" / name).exists, 60, "the spec file archived")
        wait_until(lambda: "# Snake Deluxe" in (paths.artifacts_dir(root, sid) / "spec.md").read_text(), 60,
                   "spec.md rewritten from the spec taken")
    finally:
        studio.stop()
        if daemon is not None:
            os.killpg(daemon.pid, signal.SIGTERM)
            daemon.wait(60)


# ---------------------------------------------------------------- Chromium


@pytest.mark.browser
def test_both_rounds_scorecards_plot_and_diff_in_the_page(page: Any, hstudio: Studio, made: tuple[Path, str]) -> None:
    _, sid = made
    open_session(page, hstudio, sid)
    page.wait_for_selector('#rounds details.round[data-round="1"]')
    assert page.eval_on_selector_all("#rounds details.round", "els => els.map(e => e.dataset.verdict)") == ["PASS", "FAIL"]
    first = page.locator('#rounds details.round[data-round="1"]')
    text = first.inner_text()
    assert "FAIL" in text and "controls" in text and "measured · QA".lower() in text.lower()
    assert "were replaced by round 2" in text
    assert page.locator('#rounds details.round[data-round="2"] .round-shots img').count() >= 1
    # each round shows its own filmstrip, every frame a picture the browser decoded, captioned with its time
    for n in (1, 2):
        frames = page.locator(f'#rounds details.round[data-round="{n}"] .filmstrip img')
        assert frames.count() >= 3
        page.wait_for_function("n => [...document.querySelectorAll(`#rounds details.round[data-round='${n}'] .filmstrip img`)]"
                               ".every(i => i.complete && i.naturalWidth > 0)", arg=n)
        assert " s after " in page.inner_text(f'#rounds details.round[data-round="{n}"] .filmstrip')
    # the plot: one mark per round, the FAIL below the PASS
    marks = page.eval_on_selector_all("#score-plot circle.mark",
                                      "els => els.map(e => [e.dataset.round, e.dataset.verdict, +e.getAttribute('cy')])")
    assert [(m[0], m[1]) for m in marks] == [("1", "FAIL"), ("2", "PASS")] and marks[0][2] > marks[1][2]
    page.click('#rounds details.round[data-round="2"] .diff-btn')
    page.wait_for_selector('#diff .diff-file[data-path="config.js"]')
    assert "noinput" in page.inner_text('#diff .diff-file[data-path="config.js"] .del')
    assert page.errors == []


@pytest.mark.browser
def test_spec_rendered_and_saved_through_the_inbox(page: Any, hstudio: Studio, made: tuple[Path, str]) -> None:
    root, sid = made
    open_session(page, hstudio, sid)
    page.wait_for_selector("#spec .md h3")
    shown = page.inner_text("#spec")
    assert "Acceptance criteria" in shown and "CRUMB spec: edit a value" not in shown and "<!--" not in shown
    assert page.locator("#spec pre").count() == 0
    before = set(inbox_files(root, sid))
    page.click("#spec-edit")
    text = page.input_value("#spec-text")
    assert text.startswith("# Snake")
    page.fill("#spec-text", text.replace("- lives: -", "- lives: 5", 1))
    page.click("#spec-save")
    page.wait_for_function("() => document.querySelector('#spec-status').textContent.includes('.spec.md')")
    new = {k: v for k, v in inbox_files(root, sid).items() if k not in before}
    assert len(new) == 1 and "- lives: 5" in next(iter(new.values()))
    for name in new:
        (paths.session_inbox(root, sid) / name).unlink()
    assert page.errors == []


@pytest.mark.browser
def test_redo_cancel_buttons_and_download(page: Any, hstudio: Studio, made: tuple[Path, str]) -> None:
    root, sid = made
    open_session(page, hstudio, sid)
    before = set(inbox_files(root, sid))
    page.click("#btn-redo")
    page.wait_for_function("() => document.querySelector('#steer-status').textContent.includes('Sent')")
    page.fill("#steer-text", "changed my mind")
    page.click("#btn-cancel")
    wait_until(lambda: len(set(inbox_files(root, sid)) - before) == 2, 20, "two inbox files")
    new = sorted(v.strip() for k, v in inbox_files(root, sid).items() if k not in before)
    assert new == ["/cancel changed my mind", "/redo"]
    for name in set(inbox_files(root, sid)) - before:
        (paths.session_inbox(root, sid) / name).unlink()
    page.wait_for_selector("#btn-download:not([hidden])")
    with page.expect_download() as got:
        page.click("#btn-download")
    path = got.value.path()
    assert got.value.suggested_filename.endswith(".zip")
    assert any(n.endswith("/game/index.html") for n in zipfile.ZipFile(path).namelist())
    assert page.errors == []


@pytest.mark.browser
def test_cards_show_who_played_cost_and_filters_narrow_the_list(page: Any, hstudio: Studio,
                                                                made: tuple[Path, str]) -> None:
    root, sid = made
    other = Scripted(root).start("a pong game for two")
    try:
        page.goto(hstudio.url)
        page.wait_for_selector(f'.session[data-session="{sid}"]')
        page.wait_for_selector(f'.session[data-session="{other.session}"]')
        card = page.locator(f'.session[data-session="{sid}"]')
        assert "builder" in card.locator("ul.roles").inner_text() and "local" in card.locator("ul.roles").inner_text()
        assert "$0.0000" in card.inner_text() and card.locator(".duration").count() == 1

        def shown() -> list[str]:
            return page.eval_on_selector_all(".session", "els => els.map(e => e.dataset.session)")

        page.fill("#filter-q", "pong")
        page.wait_for_function(f"() => !document.querySelector('.session[data-session=\"{sid}\"]')")
        assert shown() == [other.session]
        page.click("#filter-clear")
        page.wait_for_selector(f'.session[data-session="{sid}"]')
        page.select_option("#filter-state", "verdict:PASS")
        page.wait_for_function(f"() => !document.querySelector('.session[data-session=\"{other.session}\"]')")
        assert shown() == [sid]
        page.select_option("#filter-state", "")
        page.select_option("#filter-harness", "codex")
        page.wait_for_selector("#sessions .empty")
        assert shown() == []
        assert page.errors == []
    finally:
        shutil.rmtree(paths.session_dir(root, other.session))


def root_inbox(root: Path) -> dict[str, str]:
    folder = paths.inbox_dir(root)
    return {p.name: p.read_text() for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


def test_fork_from_an_event_drops_a_fork_file_and_a_bad_point_is_refused(hstudio: Studio, hclient: httpx.Client,
                                                                         made: tuple[Path, str]) -> None:
    root, sid = made
    spec_seq = next(e["seq"] for e in read_events(paths.transcript_path(root, sid)) if e["kind"] == "spec")
    before = set(root_inbox(root))
    r = hclient.post(f"/api/sessions/{sid}/fork", json={"at": spec_seq, "bindings": {"builder": "local"}},
                     headers=post_headers(hstudio))
    assert r.status_code == 201, r.text
    body = r.json()
    [(name, text)] = [(k, v) for k, v in root_inbox(root).items() if k not in before]
    assert name == body["file"] and body["at"] == spec_seq and body["from"] == sid
    assert f"fork: {sid}@{spec_seq}" in text and f"session: {body['session']}" in text and "builder: local" in text
    (paths.inbox_dir(root) / name).unlink()  # no daemon here: the fork itself is tests/fork's
    last = sum(1 for _ in read_events(paths.transcript_path(root, sid)))
    bad = hclient.post(f"/api/sessions/{sid}/fork", json={"at": last + 50}, headers=post_headers(hstudio))
    assert bad.status_code == 409 and "out of range" in bad.json()["error"] and "\n" not in bad.json()["error"]
    assert set(root_inbox(root)) == before  # nothing dropped for a refused fork


@pytest.mark.browser
def test_every_event_offers_a_fork_from_it(page: Any, hstudio: Studio, made: tuple[Path, str]) -> None:
    root, sid = made
    open_session(page, hstudio, sid)
    spec_seq = next(e["seq"] for e in read_events(paths.transcript_path(root, sid)) if e["kind"] == "spec")
    assert page.locator("li.ev .ev-fork").count() == page.locator("li.ev").count() > 0  # on every event
    row = page.locator(f"li.ev[data-seq='{spec_seq}']")
    row.locator(".ev-line").click()
    before = set(root_inbox(root))
    row.locator("input[name=bindings]").fill("builder=local")
    row.locator(f"button:has-text('Fork from #{spec_seq}')").click()
    link = row.locator(".ev-fork-said a")
    link.wait_for()
    new = link.text_content() or ""
    [(name, text)] = [(k, v) for k, v in root_inbox(root).items() if k not in before]
    assert f"session: {new}" in text and f"fork: {sid}@{spec_seq}" in text and "builder: local" in text
    assert link.get_attribute("href") == f"/s/{new}"
    (paths.inbox_dir(root) / name).unlink()
    assert page.errors == []
