"""Forty-odd pitches, eight languages: each becomes a spec carrying its numbers and a game that passes
the full browser QA (real Chromium, every probe the Planner wrote)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crumb.actors.embedded.builder import build_game
from crumb.actors.embedded.research import plan_researched
from crumb.protocol.game import Spec

# pitch, expected genre (None: no clear genre), numbers the spec must carry
PITCHES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("60-second match-3 with combo bonus", "match3", {"time_limit_s": 60}),
    ("snake with 3 lives", "snake", {"lives": 3}),
    ("a 90 second snake game in neon", "snake", {"time_limit_s": 90}),
    ("breakout with 5 lives", "breakout", {"lives": 5}),
    ("flappy bird clone, reach 20 points to win", "flappy", {"target_score": 20}),
    ("endless runner in the desert", "runner", {}),
    ("space shooter with 4 lives", "shooter", {"lives": 4}),
    ("platform jumper with 3 levels", "platformer", {"levels": 3}),
    ("whack-a-mole for 30 seconds", "whack", {"time_limit_s": 30}),
    ("memory cards game", "memory", {}),
    ("2048 puzzle", "slide2048", {}),
    ("falling blocks like tetris", "blocks", {}),
    ("cookie clicker idle game, 500 points to win", "clicker", {"target_score": 500}),
    ("pong first to 7", None, {}),
    ("dodge the falling rocks for 45 seconds", "dodge", {"time_limit_s": 45}),
    ("simon says memory game", "simon", {}),
    ("stacker tower game", "stacker", {}),
    ("pastel breakout with 2 lives", "breakout", {"lives": 2}),
    ("underwater shooter, 120 seconds", "shooter", {"time_limit_s": 120}),
    ("match three gems, 40 moves", "match3", {"moves": 40}),
    # Dutch
    ("slang spel met 3 levens", "snake", {"lives": 3}),
    ("memory spel van 60 seconden", "memory", {"time_limit_s": 60}),
    # German
    ("Schlangenspiel mit drei Leben", "snake", {"lives": 3}),
    ("Weltraum-Shooter, 90 Sekunden", "shooter", {"time_limit_s": 90}),
    # Italian
    ("gioco del serpente con 3 vite", "snake", {"lives": 3}),
    ("acchiappa la talpa per 30 secondi", "whack", {"time_limit_s": 30}),
    # Chinese (simplified and traditional)
    ("贪吃蛇游戏，三条命", "snake", {"lives": 3}),
    ("60秒消消乐", "match3", {"time_limit_s": 60}),
    ("俄羅斯方塊", "blocks", {}),
    ("打磚塊遊戲，5條命", "breakout", {"lives": 5}),
    # Korean
    ("뱀 게임 목숨 3개", "snake", {"lives": 3}),
    ("60초 두더지 잡기", "whack", {"time_limit_s": 60}),
    # Japanese
    ("ヘビゲーム、ライフ3", "snake", {"lives": 3}),
    ("60秒のパズルゲーム 2048", "slide2048", {"time_limit_s": 60}),
    ("シューティングゲーム", "shooter", {}),
    # pitches that fit no genre: the Planner researches and still makes a game
    ("a game about a lonely lighthouse keeper", None, {}),
    ("something relaxing with bubbles", None, {}),
    ("🐝🌼", None, {}),
    ("x", None, {}),
    ("a cozy game where you help a grandmother bake bread before the market opens in 45 seconds", None,
     {"time_limit_s": 45}),
]


def plan_fully(pitch: str, seed: int = 1) -> tuple[Spec, bool]:
    """Plan as a session does; True when the Planner asked for research first."""
    spec, evidence = plan_researched(pitch, seed=seed)
    return spec, evidence is not None


@pytest.mark.browser
@pytest.mark.parametrize("pitch,genre,numbers", PITCHES, ids=[p[0][:40] for p in PITCHES])
def test_pitch_becomes_a_game_that_passes_browser_qa(pitch, genre, numbers, tmp_path: Path, qa_runner):
    spec, researched = plan_fully(pitch)
    if genre is not None:
        assert spec.genre == genre, f"{pitch!r} planned as {spec.genre}"
    else:
        assert spec.rationale, "a pitch without a clear genre must say which genre was chosen and why"
    for key, value in numbers.items():
        assert getattr(spec.numbers, key) == value, f"{pitch!r}: {key} {getattr(spec.numbers, key)} != {value}"
    assert 3 <= len(spec.criteria) <= 7
    game = tmp_path / "game"
    build_game(spec, game)
    result = qa_runner.check(game, criteria=spec.criteria, out_dir=tmp_path / "qa")
    failed = [p for p in result.probes if not p.ok]
    assert result.ok, f"{pitch!r} ({spec.genre}): {result.error} {[f.message for f in result.findings]} {failed}"


def test_same_pitch_and_seed_give_the_same_files(tmp_path: Path):
    spec, _ = plan_fully("60-second match-3 with combo bonus", seed=42)
    again, _ = plan_fully("60-second match-3 with combo bonus", seed=42)
    assert spec == again
    build_game(spec, tmp_path / "a")
    build_game(again, tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    other, _ = plan_fully("60-second match-3 with combo bonus", seed=43)
    build_game(other, tmp_path / "c")
    assert any((tmp_path / "a" / f).read_bytes() != (tmp_path / "c" / f).read_bytes() for f in files)
