"""builder.py without a browser: what goes into the folder, and what a bad spec gets told."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from crumb.actors.embedded.builder import FAULTS, GENRES, available_genres, build_game, resolve_genre
from crumb.genres import ids
from crumb.protocol.game import Numbers, Spec, Theme


def config_of(folder: Path) -> dict:
    text = (folder / "config.js").read_text()
    return json.loads(text[text.index("{"): text.rindex("}") + 1])


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("genre", ids())  # every registered genre's built folder
def test_folder_is_complete_self_contained_and_byte_identical(tmp_path: Path, genre: str) -> None:
    spec = Spec(title="Same <Game> & co", genre=genre, seed=42, extras=["combo bonus"])
    a, b = tmp_path / "a", tmp_path / "b"
    notes = build_game(spec, a)
    build_game(spec, b)
    assert sorted(p.name for p in a.iterdir()) == sorted(["index.html", "style.css", "runtime.js", "config.js", GENRES[genre]])
    assert digests(a) == digests(b)
    assert notes and genre in notes[0]
    html = (a / "index.html").read_text()
    assert "<title>Same &lt;Game&gt; &amp; co</title>" in html
    assert '<canvas id="game"' in html and f'src="{GENRES[genre]}"' in html
    for f in a.iterdir():
        text = f.read_text()
        assert not re.search(r"https?://|//cdn|wss?://|@import|fetch\(|XMLHttpRequest", text), f"{f.name} refers to the network"
    c = build_game(spec, tmp_path / "c", seed=43)
    assert c and digests(tmp_path / "c") != digests(a)
    assert {k for k in digests(a) if digests(a)[k] != digests(tmp_path / "c")[k]} == {"config.js"}


def test_config_comes_from_the_spec(tmp_path: Path) -> None:
    spec = Spec(title="Cfg", genre="snake", seed=9,
                numbers=Numbers(time_limit_s=45, lives=2, target_score=300, moves=20, levels=4, speed=1.5, grid=12),
                theme=Theme(palette=["#fafafa", "#ff0066", "nonsense"]),
                extras=["text_scale:1.3", "speed:3", "combo bonus"])
    notes = build_game(spec, tmp_path)
    cfg = config_of(tmp_path)
    assert cfg["genre"] == "snake" and cfg["title"] == "Cfg" and cfg["seed"] == 9
    assert (cfg["timeLimit"], cfg["lives"], cfg["targetScore"], cfg["levels"], cfg["grid"]) == (45, 2, 300, 4, 12)
    # the snake has no move limit: its test hook does not report one it does not play
    assert cfg["moves"] is None and "moves: 20 is not built (the snake game has no moves); reported as none" in notes
    assert cfg["speed"] == 1.5, "numbers.speed wins over an extras knob"
    assert cfg["textScale"] == 1.3
    assert cfg["palette"]["bg"] == "#fafafa" and cfg["palette"]["accent"] == "#ff0066"
    assert cfg["palette"]["text"] == "#15171c", "text on a light background must be dark"
    assert cfg["sound"] is False and cfg["fault"] is None
    assert cfg["extras"] == ["text_scale:1.3", "speed:3", "combo bonus"]
    assert any("nonsense" in n for n in notes)


def test_defaults_and_clamps_are_reported(tmp_path: Path) -> None:
    notes = build_game(Spec(title="P", genre="pong", extras=["speed:9", "text_scale:0.1"]), tmp_path)
    cfg = config_of(tmp_path)
    assert cfg["lives"] == 5 and cfg["targetScore"] == 30
    assert cfg["speed"] == 4.0 and cfg["textScale"] == 0.6
    joined = "\n".join(notes)
    assert "lives: 5 (pong default" in joined and "speed: 9 is outside" in joined and "text_scale: 0.1" in joined


def test_stated_levels_drop_a_default_clock_that_would_cut_them_short(tmp_path: Path) -> None:
    notes = build_game(Spec(title="F", genre="fruitslice", numbers=Numbers(levels=8)), tmp_path / "levels")
    cfg = config_of(tmp_path / "levels")
    assert cfg["levels"] == 8 and cfg["timeLimit"] is None and cfg["lives"] == 3
    assert any("default clock dropped" in n for n in notes)
    build_game(Spec(title="F", genre="fruitslice", numbers=Numbers(levels=8, time_limit_s=90)), tmp_path / "both")
    assert config_of(tmp_path / "both")["timeLimit"] == 90, "a clock the spec states stays"
    build_game(Spec(title="F", genre="fruitslice"), tmp_path / "none")
    assert config_of(tmp_path / "none")["timeLimit"] == 60


@pytest.mark.parametrize(("name", "genre"), [("Snake", "snake"), ("brick breaker", "breakout"),
                                             ("Flappy Bird", "flappy"), ("endless_runner", "runner"), ("2048", "slide2048")])
def test_genre_names_are_forgiving(name: str, genre: str) -> None:
    assert resolve_genre(name) == genre


def test_unknown_genre_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown genre 'chess': use one of snake, breakout, .*dodge"):
        build_game(Spec(title="x", genre="chess"), tmp_path)
    assert not tmp_path.joinpath("index.html").exists()


def test_unknown_fault_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown fault 'explode': use one of blank, throws"):
        build_game(Spec(title="x", genre="snake"), tmp_path, fault="explode")


def test_wronggenre_builds_the_next_genre_and_says_so(tmp_path: Path) -> None:
    notes = build_game(Spec(title="x", genre="snake"), tmp_path, fault="wronggenre")
    assert config_of(tmp_path)["genre"] == "breakout"
    assert (tmp_path / "breakout.js").exists() and not (tmp_path / "snake.js").exists()
    assert any("wronggenre" in n for n in notes)
    last = list(GENRES)[-1]
    if last in available_genres():
        build_game(Spec(title="x", genre=last), tmp_path / "wrap", fault="wronggenre")
        assert config_of(tmp_path / "wrap")["genre"] == "snake", "the order wraps around"


def test_rebuilding_another_genre_leaves_no_stale_genre_file(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    build_game(Spec(title="x", genre="snake"), tmp_path)
    build_game(Spec(title="x", genre="pong"), tmp_path)
    assert not (tmp_path / "snake.js").exists() and (tmp_path / "pong.js").exists()
    assert (tmp_path / "notes.txt").read_text() == "mine", "files the builder did not write are kept"


def test_syntax_fault_breaks_only_the_genre_file(tmp_path: Path) -> None:
    build_game(Spec(title="x", genre="snake"), tmp_path, fault="syntax")
    assert "fault injected: syntax" in (tmp_path / "snake.js").read_text()
    assert config_of(tmp_path)["fault"] is None
    assert set(FAULTS) >= {"blank", "throws", "noinput", "wrongtimer", "syntax", "wronggenre"}


def test_snake_grid_is_kept_playable_and_sound_is_opt_in(tmp_path: Path) -> None:
    notes = build_game(Spec(title="x", genre="snake", numbers=Numbers(grid=3), extras=["sound:1"]), tmp_path)
    cfg = config_of(tmp_path)
    assert cfg["grid"] == 6 and any(n.startswith("grid: 3 is outside") for n in notes)
    assert cfg["sound"] is True
    build_game(Spec(title="x", genre="snake"), tmp_path / "quiet")
    assert config_of(tmp_path / "quiet")["sound"] is False


def test_a_stated_number_the_genres_game_does_not_play_is_not_reported_as_played(tmp_path: Path) -> None:
    """The clicker has no lives: its test hook reported a pitch's "3 lives" all the same, so a lives probe (a fork to
    an agent, a fallback) read back 3 from a game that cannot lose one."""
    notes = build_game(Spec(title="C", genre="clicker", numbers=Numbers(lives=3, target_score=50)), tmp_path)
    cfg = config_of(tmp_path)
    assert cfg["lives"] is None and cfg["targetScore"] == 50, cfg
    assert "lives: 3 is not built (the clicker game has no lives); reported as none" in notes
