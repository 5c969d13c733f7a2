"""The genre registry: every registered folder is complete and its game boots on the shared runtime;
a broken or extra folder costs one warning line and never the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.builder import build_game
from crumb.actors.embedded.research import plan_researched
from crumb.actors.embedded.subjects import subject_ids
from crumb.actors.embedded.unbuilt import _still_unbuilt
from crumb.genres import LANGUAGES, PALETTE_KEYS, configure, registry
from crumb.genres.model import RUNTIME_STATE_KEYS
from crumb.genres.registry import BUILTIN_DIR, ENV_VAR, Source, discover, load_folder
from crumb.protocol.game import Spec
from tests.genres.docexample import write_example

REGISTERED = registry().genres


def plan_fully(pitch: str) -> Spec:
    """Plan as a session does: research first when the Planner asks to."""
    return plan_researched(pitch)[0]


def test_the_builtin_folders_all_load() -> None:
    assert registry().warnings == (), "a built-in genre folder is broken"
    folders = sorted(p.name for p in BUILTIN_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    assert [g.genre.id for g in REGISTERED if g.folder.parent == BUILTIN_DIR] == \
        sorted(folders, key=lambda f: next(g.genre.order for g in REGISTERED if g.genre.id == f))
    assert len(REGISTERED) >= 16


#: what a game's code names when it has the mechanic (minesweeper's bombs are its mines, dodge's its hazards)
DECLARED_IN_CODE = {"bombs": ("bomb", "mine", "hazard"), "upgrades": ("upgrade",), "wrap-around edges": ("wrap",),
                    "boss": ("boss",), "combo bonus": ("combo", "streak", "chain"), "power-ups": ("power",),
                    "shooting": ("shoot", "shot", "fire"), "chasing enemies": ("chase", "hunt")}


@pytest.mark.parametrize("loaded", REGISTERED, ids=lambda g: g.genre.id)
def test_every_registered_folder_is_complete(loaded) -> None:
    g = loaded.genre
    assert (loaded.folder / "genre.py").is_file() and loaded.js.is_file() and loaded.folder.name == g.id
    for lang in LANGUAGES:
        assert g.names.get(lang), f"{g.id} has no name in {lang}"
        words = g.words.get(lang)
        assert words is not None and (words.strong or words.weak), f"{g.id} has no words in {lang}"
    assert g.all_words("strong"), f"nothing names {g.id}"
    assert set(g.palette) == set(PALETTE_KEYS)
    assert g.core_loop and g.rules and g.win and g.lose and g.references and g.controls.keys
    assert set(g.defaults) <= set(g.supported()), "a default the game does not honour"
    assert g.state_keys
    js = loaded.js.read_text()
    assert "CrumbGame.register" in js and f'genre: "{g.id}"' in js
    assert set(g.extras) <= {e.id for e in cat.EXTRAS}, f"{g.id} declares extras the catalogue does not know"
    assert ("sound" in g.extras) == ("api.beep(" in js), f"{g.id}: extras says sound only when game.js beeps"
    for extra, words in DECLARED_IN_CODE.items():  # a declared mechanic the code never names is not built
        assert extra not in g.extras or any(w in js.lower() for w in words), f"{g.id} declares {extra!r}; game.js has none of {words}"
    assert set(g.draws) | set(g.can_draw) <= set(subject_ids()), f"{g.id} declares draws the subjects do not know"
    assert g.hero is None or (g.hero in g.draws and g.can_draw), f"{g.id}: a hero is one of draws a can_draw subject replaces"
    for subject in (*g.draws, *g.can_draw):  # a drawn thing the code never names is not drawn
        assert subject.removesuffix("s") in js.lower(), f"{g.id} declares it draws {subject}; game.js never names one"
    for pitch in g.pitches:
        assert plan_fully(pitch).genre == g.id, f"{pitch!r} is not read as {g.id}"


@pytest.mark.browser
def test_every_registered_genre_builds_and_its_game_reports_its_state(browser, tmp_path: Path) -> None:
    """Build each genre with the embedded studio's Builder and boot it in Chromium: the runtime takes it
    and the test hook reports the runtime's keys and every state key the folder declares."""
    for loaded in REGISTERED:
        g = loaded.genre
        out = tmp_path / g.id
        notes = build_game(Spec(title=f"All {g.name}", genre=g.id, seed=5), out)
        assert notes[0].startswith(f"built {g.id} ({g.id}.js)")
        assert (out / f"{g.id}.js").read_bytes() == loaded.js.read_bytes()
        context = browser.new_context(viewport={"width": 480, "height": 720})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto((out / "index.html").as_uri())
        page.wait_for_function("window.__crumb && window.__crumb.state().phase === 'title'", timeout=15_000)
        page.keyboard.press("Enter")
        page.wait_for_function("window.__crumb.state().phase === 'playing'", timeout=15_000)
        state = page.evaluate("window.__crumb.state()")
        context.close()
        assert not errors, f"{g.id}: {errors}"
        assert state["genre"] == g.id
        missing = [k for k in (*RUNTIME_STATE_KEYS, *g.state_keys) if k not in state]
        assert not missing, f"{g.id}'s hook does not report {missing}"


def _folder(base: Path, name: str, genre_py: str | None, js: str | None) -> Path:
    folder = base / name
    folder.mkdir(parents=True)
    if genre_py is not None:
        (folder / "genre.py").write_text(genre_py)
    if js is not None:
        (folder / "game.js").write_text(js)
    return folder


def test_a_broken_folder_is_one_warning_naming_it_and_what_is_missing(tmp_path: Path) -> None:
    example = write_example(tmp_path / "example") / "balloon"
    good_py, good_js = (example / "genre.py").read_text(), (example / "game.js").read_text()
    extra = tmp_path / "extra"
    cases = {
        "nojs": (good_py.replace('"balloon"', '"nojs"'), None, "no game.js"),
        "nomodule": (None, good_js, "no genre.py"),
        "syntax": ("GENRE = (", good_js, "genre.py does not load: SyntaxError"),
        "nokorean": (good_py.replace('"balloon"', '"nokorean"').replace('"ko": Words(strong=("풍선",)),', ""),
                     good_js.replace('"balloon"', '"nokorean"'), "genre.py: words has no strong or weak word for ko"),
        "misnamed": (good_py, good_js, "GENRE.id is 'balloon' but the folder is named 'misnamed'"),
        "nohook": (good_py.replace('"balloon"', '"nohook"'), good_js.replace('"balloon"', '"nohook"').replace("hook:", "hoook:"),
                   "game.js has no hook function"),
        "snake": (good_py.replace('"balloon"', '"snake"'), good_js.replace('"balloon"', '"snake"'),
                  "genre 'snake' is already registered"),
        "badcount": (good_py.replace('"balloon"', '"badcount"').replace(
            'honours={"lives": None},', 'honours={"lives": None}, counts=(Count(words=("rows",), field="grid", values={3: 3}),),')
            .replace("from crumb.genres import Genre,", "from crumb.genres import Count, Genre,"),
            good_js.replace('"balloon"', '"badcount"'), "counts carries 'rows' in grid, which honours does not list"),
    }
    for name, (py, js, _) in cases.items():
        _folder(extra, name, py, js)
    reg = discover([Source(BUILTIN_DIR, "built-in"), Source(extra, "test"), Source(tmp_path / "gone", "test")])
    assert reg.ids()[:16] == registry().ids()[:16], "the built-in genres are all still there"
    assert "balloon" not in reg.ids() and not {"nojs", "nomodule", "syntax", "nokorean", "nohook", "badcount"} & set(reg.ids())
    assert len(reg.warnings) == len(cases) + 1
    for name, (_, _, what) in cases.items():
        line = next(w for w in reg.warnings if f"{extra / name}:" in w)
        assert what in line and "\n" not in line and line.endswith("it is skipped"), line
    assert any(f"{tmp_path / 'gone'}" in w and "does not exist" in w for w in reg.warnings)


def test_the_cli_warns_about_a_broken_folder_in_one_line_and_still_plans(tmp_path: Path) -> None:
    _folder(tmp_path / "mine", "half", None, "CrumbGame.register({})")
    (tmp_path / "crumb.toml").write_text('[genres]\npaths = ["mine"]\n')
    out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "plan", "60-second snake"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if line.startswith("crumb: warning:")]
    assert warnings == [f"crumb: warning: genre folder {tmp_path / 'mine' / 'half'}: no genre.py "
                        "(it must define GENRE = Genre(...)); it is skipped"]
    assert "snake" in out.stdout


@pytest.mark.parametrize(("toml", "said"), [('[genres]\npaths = "my-genres"\n', "[genres] paths must be a list of folder paths"),
                                           ('[genres]\npath = ["my-genres"]\n', "[genres] takes only paths = [...], not path")])
def test_a_bad_genres_setting_is_one_warning(tmp_path: Path, toml: str, said: str) -> None:
    (tmp_path / "crumb.toml").write_text(toml)
    out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "plan", "60-second snake"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if line.startswith("crumb: warning:")]
    assert len(warnings) == 1 and said in warnings[0], out.stderr


def test_the_environment_variable_adds_folders_and_their_pitches_are_read_as_the_genre(tmp_path: Path) -> None:
    example = write_example(tmp_path / "envgenres")
    env = {**os.environ, ENV_VAR: str(example)}
    for pitch in load_folder(example / "balloon").pitches:
        out = subprocess.run([sys.executable, "-m", "crumb", "--root", str(tmp_path), "plan", "--json", pitch],
                             capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["genre"] == "balloon", pitch


def test_an_entry_point_package_adds_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "site" / "my_genres"
    write_example(pkg)
    (pkg / "__init__.py").write_text("")
    dist = tmp_path / "site" / "my_genres-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-genres\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[crumb.genres]\nballoons = my_genres\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    from crumb.genres.registry import _entry_point_paths

    sources = [s for s in _entry_point_paths() if "balloons" in s.where]
    assert sources and sources[0].path == pkg.resolve()
    assert "balloon" in discover([Source(BUILTIN_DIR, "built-in"), *sources]).ids()


def test_a_folder_for_a_genre_the_studio_lacked_is_built_not_answered_with_the_nearest(tmp_path: Path) -> None:
    """A pinball folder takes the unbuilt entry's place: its pitches get that folder's game."""
    example = write_example(tmp_path / "x") / "balloon"
    py = (example / "genre.py").read_text().replace('"balloon"', '"pinball"').replace('("balloon*",)', '("pinball",)')
    _folder(tmp_path / "extra", "pinball", py, (example / "game.js").read_text().replace('"balloon"', '"pinball"'))
    reg = discover([Source(BUILTIN_DIR, "built-in"), Source(tmp_path / "extra", "test")])
    assert "pinball" in reg.ids()
    assert "pinball" not in {u.id for u in _still_unbuilt(reg)}
    assert "pinball" in {u.id for u in _still_unbuilt(registry())}


def test_load_folder_reads_one_genre(tmp_path: Path) -> None:
    example = write_example(tmp_path) / "balloon"
    g = load_folder(example)
    assert g.id == "balloon" and g.name == "Balloon Pop" and g.supported()["lives"] is None


def test_configuring_a_root_that_adds_nothing_keeps_the_registry(tmp_path: Path) -> None:
    """Readers cache what they derive from the genres: a root naming no extra folder must not swap
    the registry under them (the in-process CLI configures one per command)."""
    before = registry()
    configure(tmp_path)
    assert registry() is before
    configure(None)
    assert registry() is before
