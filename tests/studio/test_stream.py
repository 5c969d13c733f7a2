"""The live timeline over SSE: shared tail, resume after reconnect, paging of large transcripts."""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest

from crumb.store.paths import transcript_path
from crumb.store.writer import TranscriptWriter
from crumb.studio import app as studio_app
from crumb.studio.server import Studio
from crumb.studio.tail import CROWD, HOLD_S, Batch, Subscriber, Tail
from tests.studio.conftest import SSEReader
from tests.studio.scripted import Scripted
from tests.wait import wait_until


def notes(s: Scripted, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        s.append("note", {"text": f"note {i}"}, body=f"note {i}")


def test_appended_events_arrive_in_order_with_seq_as_id(studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    r = SSEReader(f"{studio.url}api/sessions/{scripted.session}/stream")
    try:
        wait_until(lambda: r.seqs() == [1, 2], what="the backlog")
        notes(scripted, 5)
        wait_until(lambda: r.seqs() == [1, 2, 3, 4, 5, 6, 7], what="live events")
        ev = [e for e in r.events if e[0] == "ev"][-1][2]
        assert ev["kind"] == "note" and ev["data"]["text"] == "note 4" and ev["seq"] == 7
    finally:
        r.close()


def test_reconnect_with_last_event_id_resumes_without_loss_or_duplicates(studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    notes(scripted, 3)
    url = f"{studio.url}api/sessions/{scripted.session}/stream"
    first = SSEReader(url)
    wait_until(lambda: first.seqs() == [1, 2, 3, 4, 5], what="first connection")
    first.close()
    notes(scripted, 4, start=3)  # appended while nobody listens
    second = SSEReader(url, headers={"last-event-id": "5"})
    try:
        wait_until(lambda: second.seqs() == [6, 7, 8, 9], what="resumed backlog")
        notes(scripted, 2, start=7)
        wait_until(lambda: second.seqs() == [6, 7, 8, 9, 10, 11], what="live after resume")
    finally:
        second.close()
    assert sorted(set(first.seqs() + second.seqs())) == list(range(1, 12))
    assert len(first.seqs() + second.seqs()) == 11


def test_resume_during_a_burst_loses_nothing(studio: Studio, root: Path) -> None:
    """Appends racing the subscribe/backlog hand-over are delivered exactly once."""
    s = Scripted(root).start()
    import threading

    done = threading.Event()

    def burst() -> None:
        w = TranscriptWriter(transcript_path(root, s.session), s.session, fsync="never")
        for i in range(300):
            w.append("note", {"text": f"b{i}"})
        done.set()

    t = threading.Thread(target=burst)
    t.start()
    readers = [SSEReader(f"{studio.url}api/sessions/{s.session}/stream", headers={"last-event-id": str(k)})
               for k in (0, 1, 2)]
    t.join()
    try:
        for k, r in enumerate(readers):
            wait_until(lambda r=r, k=k: r.seqs() == list(range(k + 1, 303)), timeout=15, what=f"reader {k}")
    finally:
        for r in readers:
            r.close()


def test_one_shared_tail_for_many_clients(studio: Studio, scripted: Scripted) -> None:
    scripted.start()
    url = f"{studio.url}api/sessions/{scripted.session}/stream"
    readers = [SSEReader(url) for _ in range(20)]
    try:
        for r in readers:
            wait_until(lambda r=r: r.seqs() == [1, 2], what="backlog on every client")
        tails = [t for t in studio.config.hub.tails.values() if t.subscribers]
        assert len(tails) == 1 and len(tails[0].subscribers) == 20
        scripted.append("note", {"text": "to everyone"})
        for r in readers:
            wait_until(lambda r=r: r.seqs() == [1, 2, 3], what="fan-out")
    finally:
        for r in readers:
            r.close()
    # closed clients are dropped promptly, not at the next keepalive
    wait_until(lambda: not any(t.subscribers for t in studio.config.hub.tails.values()), what="unsubscribe")


def test_a_session_not_yet_started_streams_once_it_exists(studio: Studio, root: Path) -> None:
    s = Scripted(root)  # the pitch is still in the inbox: no folder, no transcript yet
    r = SSEReader(f"{studio.url}api/sessions/{s.session}/stream")
    try:
        wait_until(lambda: any(e[0] == "hello" for e in r.events), what="hello")
        s.start()
        wait_until(lambda: r.seqs() == [1, 2], what="events of the new session")
    finally:
        r.close()


def test_large_transcripts_are_paged_not_sent_whole(studio: Studio, root: Path, client: httpx.Client) -> None:
    s = Scripted(root).start()
    w = s.writer
    for i in range(5000):
        w.append("note", {"text": f"n{i}"})
    last = 5002
    page = client.get(f"/api/sessions/{s.session}/events").json()
    assert [e["seq"] for e in page["events"]] == list(range(last - 199, last + 1)) and page["last"] == last
    prev = client.get(f"/api/sessions/{s.session}/events", params={"before": page["first"], "limit": 50}).json()
    assert [e["seq"] for e in prev["events"]] == list(range(last - 249, last - 199))
    fwd = client.get(f"/api/sessions/{s.session}/events", params={"after": 10, "limit": 3}).json()
    assert [e["seq"] for e in fwd["events"]] == [11, 12, 13]
    assert client.get(f"/api/sessions/{s.session}/events", params={"limit": 10**9}).json()["events"].__len__() == 1000
    assert client.get(f"/api/sessions/{s.session}/events", params={"before": "x"}).status_code == 400
    # a client asking for everything gets a gap marker and only the newest part
    r = SSEReader(f"{studio.url}api/sessions/{s.session}/stream", headers={"last-event-id": "0"})
    try:
        wait_until(lambda: len(r.seqs()) == 2000, timeout=15, what="capped backlog")
        gap = [e for e in r.events if e[0] == "gap"]
        assert gap and gap[0][2] == {"from": 1, "to": last - 2000}
        assert r.seqs() == list(range(last - 1999, last + 1))
    finally:
        r.close()


def test_tail_index_skips_a_torn_last_line_until_it_is_complete(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    lines = [orjson.dumps({"v": 1, "seq": i, "kind": "note"}) for i in (1, 2, 3)]
    p.write_bytes(lines[0] + b"\n" + lines[1] + b"\n" + lines[2][:10])
    t = Tail(p)
    assert [s for s, _ in t.refresh()] == [1, 2]
    with open(p, "ab") as f:
        f.write(lines[2][10:] + b"\n")
    assert [(s, raw) for s, raw in t.refresh()] == [(3, lines[2])]
    assert t.lines(2, 3) == [(2, lines[1]), (3, lines[2])]
    assert t.refresh() == []


def _held_tail(tmp_path: Path) -> tuple[Tail, Subscriber, TranscriptWriter]:
    s = Scripted(tmp_path)
    t, sub = Tail(transcript_path(tmp_path, s.session)), Subscriber()
    t.subscribers.add(sub)
    return t, sub, s.writer


def _delivered(sub: Subscriber) -> list[list[int]]:
    out = []
    while not sub.queue.empty():
        item = sub.queue.get_nowait()
        assert isinstance(item, Batch)
        out.append([seq for seq, _ in item.lines])
    return out


def test_a_crowd_gets_a_burst_once_the_transcript_stops_growing(tmp_path: Path) -> None:
    """With many tabs open, lines wait while the daemon is still writing them, then go out in one batch."""
    t, sub, w = _held_tail(tmp_path)
    for i in range(3):
        w.append("note", {"text": f"n{i}"})
    t.catch_up(now=0.0, hold=True)
    w.append("note", {"text": "n3"})
    t.catch_up(now=0.02, hold=True)
    assert _delivered(sub) == []  # still growing: nothing sent yet, but indexed for pages and new tabs
    assert t.last_seq == 4 and [seq for seq, _ in t.lines(1, 4)] == [1, 2, 3, 4]
    t.catch_up(now=0.04, hold=True)  # a round with nothing new
    assert _delivered(sub) == [[1, 2, 3, 4]]


def test_held_lines_go_out_within_hold_s_while_lines_keep_coming(tmp_path: Path) -> None:
    t, sub, w = _held_tail(tmp_path)
    now = 0.0
    while now < HOLD_S:
        w.append("note", {"text": f"at {now}"})
        t.catch_up(now=now, hold=True)
        assert _delivered(sub) == []
        now += 0.02
    w.append("note", {"text": "last"})
    t.catch_up(now=now, hold=True)
    assert _delivered(sub) == [list(range(1, t.last_seq + 1))]


def test_without_a_crowd_lines_go_out_at_once_and_held_ones_are_never_dropped(tmp_path: Path) -> None:
    t, sub, w = _held_tail(tmp_path)
    w.append("note", {"text": "a"})
    t.catch_up(now=0.0, hold=False)
    assert _delivered(sub) == [[1]]
    w.append("note", {"text": "b"})
    t.catch_up(now=0.0, hold=True)
    w.append("note", {"text": "c"})
    t.catch_up()  # the crowd went away (or a page fetch indexed first): held lines go out with the new ones
    assert _delivered(sub) == [[2, 3]]


def test_a_crowd_of_streams_gets_every_line_once_in_order_during_a_long_burst(studio: Studio, root: Path) -> None:
    s = Scripted(root).start()
    url = f"{studio.url}api/sessions/{s.session}/stream"
    readers = [SSEReader(url) for _ in range(CROWD + 2)]
    try:
        for r in readers:
            wait_until(lambda r=r: r.seqs() == [1, 2], what="backlog on every client")
        assert sum(len(t.subscribers) for t in studio.config.hub.tails.values()) >= CROWD  # lines are held
        w = TranscriptWriter(transcript_path(root, s.session), s.session, fsync="always")
        for i in range(400):  # fsync'd appends: longer than HOLD_S, so batches go out while lines still come
            w.append("note", {"text": f"b{i}"})
        for r in readers:
            wait_until(lambda r=r: r.seqs() == list(range(1, 403)), timeout=15, what="every line, once, in order")
    finally:
        for r in readers:
            r.close()


def test_paging_requests_never_steal_lines_from_open_streams(studio: Studio, scripted: Scripted,
                                                             client: httpx.Client) -> None:
    """A page fetch that indexes a fresh line before the poller does must still hand it to streams."""
    scripted.start()
    r = SSEReader(f"{studio.url}api/sessions/{scripted.session}/stream")
    try:
        wait_until(lambda: r.seqs() == [1, 2], what="backlog")
        for i in range(40):
            scripted.append("note", {"text": f"n{i}"})
            client.get(f"/api/sessions/{scripted.session}/events", params={"limit": 1})
        wait_until(lambda: r.seqs() == list(range(1, 43)), what="every line on the stream")
    finally:
        r.close()


def test_panels_are_computed_once_per_change_and_pushed_to_every_tab(studio: Studio, scripted: Scripted,
                                                                      monkeypatch) -> None:
    """Fifty tabs cost one panel computation per change, not fifty detail requests: each stream gets
    every panel after its backlog, then only the panels that changed, the same bytes for every tab."""
    from crumb.studio import data

    computed: list[str] = []
    real = data.session_panels

    def counting(root: Path, session: str) -> dict:
        computed.append(session)
        return real(root, session)

    monkeypatch.setattr(data, "session_panels", counting)
    scripted.start()
    url = f"{studio.url}api/sessions/{scripted.session}/stream"
    readers = [SSEReader(url) for _ in range(12)]

    def panels(r: SSEReader) -> list[dict]:
        return [e[2] for e in r.events if e[0] == "panels"]

    try:
        for r in readers:
            wait_until(lambda r=r: panels(r), what="every panel after the backlog")
        first = panels(readers[0])[0]["panels"]
        assert first["summary"]["phase"] == "planning" and first["error"] is None and "spec" in first
        assert "last_seq" not in first["summary"]  # counters that change with every event are not panels
        before = len(computed)
        assert before <= 2, f"{before} computations for {len(readers)} tabs connecting to an idle session"

        scripted.plan("Comet Snake")  # effect.started + spec: the head, spec and logs change
        for r in readers:
            wait_until(lambda r=r: any((p["panels"].get("summary") or {}).get("title") == "Comet Snake"
                                       for p in panels(r)), what="the new title on every tab")
        assert len(computed) - before <= 2, "the panels were computed per tab, not once per change"
        update = panels(readers[0])[-1]
        assert "spec" in update["panels"] and "scorecard" not in update["panels"]  # only what changed
        assert all(panels(r)[-1] == update for r in readers)

        scripted.build()  # a build changes the game, the artifacts and the rounds (and the budgets' wall time), not the spec
        for r in readers:
            wait_until(lambda r=r: "game" in panels(r)[-1]["panels"], what="the build's panels on every tab")
        assert set(panels(readers[0])[-1]["panels"]) == {"artifacts", "game", "rounds", "summary"}
        assert len(computed) - before <= 4, "the panels were computed per tab, not once per change"
    finally:
        for r in readers:
            r.close()


def test_a_quiet_stream_gets_keepalives_and_still_streams_after_them(
        studio: Studio, scripted: Scripted, monkeypatch: pytest.MonkeyPatch) -> None:
    """Proxies drop silent connections: a stream that sends nothing for KEEPALIVE_S sends a comment."""
    monkeypatch.setattr(studio_app, "KEEPALIVE_S", 0.3)
    scripted.start()
    r = SSEReader(f"{studio.url}api/sessions/{scripted.session}/stream")
    try:
        wait_until(lambda: r.comments.count("keepalive") >= 2, 20, "two keepalives on a quiet stream")
        assert r.seqs() == [1, 2]
        notes(scripted, 1)
        wait_until(lambda: r.seqs() == [1, 2, 3], what="an event after the keepalives")
    finally:
        r.close()
