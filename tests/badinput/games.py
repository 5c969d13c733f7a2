"""Drive QA with broken games: the small games of tests/qa/games/ (reused by path, never copied), or a
copy of one of them broken in one more way by the case (`inject`, `files`, `raw`, `remove`, `pad`,
`copies`, `links`; `manifest = "stale"` measures the manifest before the change)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from crumb.dispatcher.manifest import measure
from crumb.protocol.game import Manifest
from tests.badinput.agents import tree
from tests.badinput.corpus import Case, one_line
from tests.qa.conftest import GAMES, SCORE_UP, TIMER_10, criteria

CRITERIA = {"timer_10": TIMER_10, "score_up": SCORE_UP}
EDITS = ("inject", "files", "raw", "remove", "pad", "copies", "links")


def build_game(tmp: Path, inp: dict[str, Any]) -> tuple[Path, Manifest | None]:
    """The game the case names, changed as the case says; and the build manifest when the case wants one."""
    base = GAMES / inp["game"]
    if not any(k in inp for k in EDITS) and "manifest" not in inp:
        return base, None
    game = tmp / "game"
    shutil.copytree(base, game)
    manifest = measure(game, relative_to=tmp)[0] if inp.get("manifest") == "stale" else None
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secret.js").write_text("window.leaked = true;\n")
    if "inject" in inp:
        index = game / "index.html"
        index.write_text(index.read_text().replace("</body>", inp["inject"] + "\n</body>"))
    for rel, text in inp.get("files", {}).items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_text(text)
    for rel, hexed in inp.get("raw", {}).items():
        (game / rel).write_bytes(bytes.fromhex(hexed))
    for rel in inp.get("remove", []):
        (game / rel).unlink()
    for rel, size in inp.get("pad", {}).items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_bytes(b"\0" * size)
    for i in range(int(inp.get("copies", 0))):
        (game / "assets").mkdir(exist_ok=True)
        (game / "assets" / f"tile-{i}.txt").write_text(f"{i}\n")
    for rel, target in inp.get("links", {}).items():
        (game / rel).symlink_to(target.replace("{OUTSIDE}", str(outside)))
    return game, manifest


def run_game(qa_runner: Any, tmp: Path, case: Case) -> None:
    inp = case.input
    game, manifest = build_game(tmp, inp)
    before = tree(game)
    outside_before = tree(tmp / "outside") if (tmp / "outside").exists() else None
    result = qa_runner.check(game, criteria=criteria(*(CRITERIA[c] for c in inp.get("criteria", []))),
                             manifest=manifest, controls=inp.get("controls", []))
    if inp.get("ok", False):  # a Minor finding: QA lets the game through, but must still say what it saw
        assert result.ok, f"a Minor finding failed the game: {[(f.code, f.message) for f in result.findings]}"
    else:
        assert not result.ok, "a broken game passed QA"
    assert result.error is None, f"QA itself failed instead of judging the game: {result.error}"
    matching = [f for f in result.findings if f.code == case.outcome]
    assert matching, f"no {case.outcome} finding; got {[(f.code, f.message) for f in result.findings]}"
    messages = [one_line(f.message) for f in matching]
    assert any(all(e in m for e in case.expect) for m in messages), (case.expect, messages)
    if "blocked" in inp:
        assert result.blocked == inp["blocked"], result.blocked
    assert tree(game) == before, "QA changed the game folder"
    if outside_before is not None:
        assert tree(tmp / "outside") == outside_before, "QA changed something outside the game folder"
