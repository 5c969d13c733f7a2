"""The filmstrip's schedule (when frames are taken, in game time) and its files (frames, contact sheet,
each listed with its sha256); pure, no browser. The browser side is checked on real games in test_runner.py."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from crumb.qa.film import Schedule, Shot, contact_sheet, save_film


def png(colour: str, size: tuple[int, int] = (40, 20)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def play(schedule: Schedule, spans: list[int]) -> list[int]:
    """Advance as play.py does (stopping at each due mark) and return the game times frames were taken at."""
    for ms in spans:
        while ms > 0:
            step = schedule.step(ms)
            schedule.t_ms += step
            ms -= step
            if schedule.due():
                schedule.add(b"x")
    return [s.t_ms for s in schedule.shots]


def test_frames_are_spread_evenly_from_first_to_last_mark() -> None:
    s = Schedule(5, 500, 2500, t_ms=500)
    s.add(b"x")  # the first look
    assert play(s, [150, 150, 700, 1000]) == [500, 1000, 1500, 2000, 2500]


def test_a_frame_after_an_input_serves_the_mark_beside_it() -> None:
    s = Schedule(5, 500, 2500, t_ms=500)
    s.add(b"x")
    play(s, [480])
    s.add(b"y", after="'ArrowLeft'")  # at 980, 20 ms before the mark at 1000
    assert play(s, [1520]) == [500, 980, 1500, 2000, 2500]


def test_no_marks_when_none_are_asked_for() -> None:
    assert Schedule(0, 500, 2500).marks() == [] and play(Schedule(0, 500, 2500), [3000]) == []


def test_save_lists_every_file_with_the_sha256_on_disk(tmp_path) -> None:
    sdir = tmp_path / "session"
    folder = sdir / "artifacts" / "qa" / "round-2"
    folder.mkdir(parents=True)
    (folder / "frame-09.png").write_bytes(b"an earlier run's frame")
    shots = [Shot(png("#ff0000"), 900, after="click"), Shot(png("#00ff00"), 500), Shot(png("#0000ff"), 900)]
    film, files = save_film(shots, folder, sdir, ["click"], width=40)
    assert [(f.t_ms, f.after) for f in film.frames] == [(500, None), (900, None), (900, "click")]
    assert [f.path for f in film.frames] == [f"artifacts/qa/round-2/frame-0{n}.png" for n in (1, 2, 3)]
    assert film.sheet == "artifacts/qa/round-2/sheet.png" and film.inputs == ["click"]
    assert sorted(p.name for p in folder.iterdir()) == ["frame-01.png", "frame-02.png", "frame-03.png", "sheet.png"]
    for f in files:
        data = (sdir / f.path).read_bytes()
        assert f.sha256 == hashlib.sha256(data).hexdigest() and f.bytes == len(data)
    assert {f.path for f in files} == {*(f.path for f in film.frames), film.sheet}


def test_the_contact_sheet_holds_every_frame_in_a_grid() -> None:
    shots = [Shot(png(c), 100 * n) for n, c in enumerate(["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff"])]
    with Image.open(io.BytesIO(contact_sheet(shots))) as sheet:
        rgb = sheet.convert("RGB")
        assert rgb.size[0] == 4 * 40 and rgb.size[1] > 2 * 20  # four across, two rows with their labels
        assert rgb.getpixel((5, 5)) == (255, 0, 0) and rgb.getpixel((45, 5)) == (0, 255, 0)
