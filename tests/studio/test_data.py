"""What the Studio derives from a session folder matches what replay and the files say."""

from __future__ import annotations

from pathlib import Path

from crumb.reducer.replay import replay_file
from crumb.studio import data
from tests.studio.scripted import Scripted


def test_incremental_summary_equals_a_full_replay(root: Path) -> None:
    s = Scripted(root)
    steps = [s.start, s.plan, s.build, s.qa, lambda: s.judge("PARTIAL"),
             lambda: s.append("user.approve", {}, from_="user"), s.flush_records]
    for step in steps:
        step()
        live = data.summary(root, s.session)
        replayed = replay_file(s.writer.path).summary()
        assert live["state_hash"] == replayed["state_hash"]
        assert live["last_seq"] == replayed["last_seq"]
    assert data.summary(root, s.session)["done"]["reason"] == "approved"


def test_a_replaced_transcript_is_folded_again(root: Path) -> None:
    s = Scripted(root).to_partial()
    assert data.summary(root, s.session)["phase"] == "waiting"
    lines = s.writer.path.read_bytes().splitlines(keepends=True)
    tmp = s.writer.path.with_suffix(".new")
    tmp.write_bytes(b"".join(lines[:2]))
    tmp.replace(s.writer.path)  # e.g. restored from a backup
    assert data.summary(root, s.session)["last_seq"] == 2


def test_scorecard_keeps_sources_apart(root: Path) -> None:
    s = Scripted(root).to_partial()
    card = data.session_detail(root, s.session)["scorecard"]
    assert card["qa"]["source"] == "qa" and card["model"]["source"] == "model"
    assert card["validator"]["source"] == "validator"
    assert card["model"]["total"] == 3.2  # what the model said ...
    assert card["validator"]["total"] != 3.2 and card["validator"]["corrections"]  # ... and what was corrected
    assert {p["id"]: p["text"] for p in card["qa"]["probes"]}["moves"] == "Arrow keys change the score"


def test_the_scorecard_says_when_qa_checked_twice(root: Path) -> None:
    s = Scripted(root).start()
    s.plan()
    s.build()
    s.qa(rechecked="QA's own process stood still for 17 s (a loaded machine); QA checked the game again")
    card = data.session_detail(root, s.session)["scorecard"]
    assert card["qa"]["rechecked"].startswith("QA's own process stood still for 17 s")
    assert card["qa"]["findings"] == []


def test_artifacts_are_checked_against_the_manifest(root: Path) -> None:
    s = Scripted(root).to_partial()

    def rows() -> dict[str, dict]:
        return {a["path"]: a for a in data.artifacts(root, s.session, data.session_facts(root, s.session))}

    assert rows()["artifacts/game/index.html"]["manifest"] is True
    (s.dir / "artifacts/game/index.html").write_text("changed by hand")
    assert rows()["artifacts/game/index.html"]["manifest"] is False
    (s.dir / "artifacts/game/index.html").unlink()
    assert rows()["artifacts/game/index.html"].get("missing") is True


def test_a_damaged_transcript_does_not_hide_the_others(root: Path) -> None:
    good = Scripted(root).to_partial()
    bad = Scripted(root).start()
    with open(bad.writer.path, "ab") as f:
        f.write(b"{not json}\n")
    rows = {r["session"]: r for r in data.session_page(root)["sessions"]}
    assert rows[good.session]["phase"] == "waiting"
    assert rows[bad.session]["phase"] == "damaged" and "not valid JSON" in rows[bad.session]["error"]
