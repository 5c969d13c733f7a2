"""Every harness x role through the real CLI (pinned in package.json) against its vendor's fake
model server: CRUMB's flags are accepted, its parsers read the real output, the builder's file is
written by the CLI's own tool, and the model that answered is recorded with its cost."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from crumb.actors.base import Binding
from crumb.actors.harness import get_adapter
from crumb.actors.harness.prices import lookup
from crumb.protocol.game import JudgeScore, Spec
from tests.agents.conftest import Vendor
from tests.harness.conftest import PITCH, Progress, make_request

ROLES = ("planner", "researcher", "builder", "verifier")
#: the flag each CLI gets per role: only the builder may write
WRITE_FLAGS = {"claude": ("--permission-mode", "acceptEdits", "dontAsk"), "codex": ("--sandbox", "workspace-write", "read-only"),
               "gemini": ("--approval-mode", "auto_edit", "default")}


def run(vendor: Vendor, role: str, tmp_path: Path, binding: Binding | None = None, progress: Progress | None = None,
        cancel: threading.Event | None = None, **kw):
    """Run `role` through the vendor's real CLI in tmp_path/work-<role>, logging to tmp_path/logs/<role>.log."""
    work = tmp_path / f"work-{role}"
    work.mkdir(exist_ok=True)
    if role == "verifier":
        (work / "input.json").write_text(json.dumps({"qa": {"id": "Q1"}}))
    progress = progress if progress is not None else Progress()
    kw.setdefault("wall_s", 120)
    kw.setdefault("idle_s", 60)
    req = make_request(role, work, binding or Binding(harness=vendor.harness),
                       log_path=tmp_path / "logs" / f"{role}.log", **kw)
    return get_adapter(vendor.harness).run(req, progress, cancel or threading.Event()), progress, work


@pytest.mark.parametrize("role", ROLES)
def test_each_role_through_the_real_cli(vendor, role, tmp_path):
    result, progress, work = run(vendor, role, tmp_path)
    asked = vendor.server.role_requests(role)
    assert asked, f"the {vendor.harness} CLI never asked the model for the {role}"
    if role == "planner":
        assert Spec.model_validate(result.payload["spec"]).title == "Tap Dash"
    elif role == "researcher":
        assert result.payload["evidence"]["items"][0]["id"] == "r1"
    elif role == "verifier":
        judge = JudgeScore.model_validate(result.payload["judge"])
        assert judge.verdict == "PASS" and judge.evidence == ["Q1"]
    else:
        assert "window.__crumb" in (work / "index.html").read_text()  # written by the CLI's own tool
        assert result.files == ["index.html"]
        assert "index.html" in progress.files
    argv = (tmp_path / "logs" / f"{role}.log").read_text().splitlines()[0].split(" ")
    flag, write, read = WRITE_FLAGS[vendor.harness]
    assert argv[argv.index(flag) + 1] == (write if role == "builder" else read)
    assert PITCH not in " ".join(argv)  # the prompt goes by stdin
    usage = result.usage
    assert usage.harness == vendor.harness and usage.tokens_in and usage.tokens_out
    assert usage.model not in (None, "auto")
    if vendor.harness == "claude":
        assert usage.cost_usd and not usage.cost_estimated  # Claude Code reports its own dollars
    else:
        assert usage.model == vendor.server.model  # the model that answered, not the binding's absence
        price = lookup(usage.provider or "", usage.model)
        assert price is not None and usage.cost_estimated
        expected = (usage.tokens_in * price["input"] + usage.tokens_out * price["output"]) / 1e6
        assert usage.cost_usd == pytest.approx(expected, abs=1e-6)  # costs are kept to the micro-dollar


def test_nothing_of_the_conversation_remains_under_home(vendor, tmp_path):
    """After a builder and a planner, no file under HOME holds any of the prompts or the game: what is
    left is configuration and caches."""
    for role in ("planner", "builder"):
        run(vendor, role, tmp_path)
    leaked = []
    for path in vendor.home_files():
        try:
            text = path.read_bytes()
        except OSError:
            continue
        if PITCH.encode() in text or b"CRUMB role" in text or b"window.__crumb" in text:
            leaked.append(str(path.relative_to(vendor.home)))
    assert leaked == [], f"{vendor.harness} left the conversation under HOME: {leaked}"


#: per CLI, the binding option that takes the builder's write permission away
READ_ONLY = {"claude": {"permission_mode": "dontAsk", "allowed_tools": ["Read", "Glob", "Grep"]},
             "codex": {"sandbox": "read-only"}, "gemini": {"approval_mode": "default"}}


def test_a_builder_without_write_permission_writes_nothing(vendor, tmp_path):
    """The model asks for the write all the same; the real CLI refuses it, and CRUMB fails the run."""
    from crumb.actors.base import ActorError

    binding = Binding(harness=vendor.harness, options=READ_ONLY[vendor.harness])
    with pytest.raises(ActorError, match="index.html is not in the game folder"):
        run(vendor, "builder", tmp_path, binding=binding)
    assert vendor.server.role_requests("builder")
    assert not (tmp_path / "work-builder" / "index.html").exists()


@pytest.mark.parametrize("harness", ["claude", "gemini"])
def test_a_verifier_opens_the_filmstrip_in_its_folder_and_the_model_gets_the_pictures(harness, throwaway_home,
                                                                                     monkeypatch, tmp_path):
    """The Verifier's folder holds QA's frames (prepare_verifier_dir, as the dispatcher calls it), its prompt
    names them, and when the model reads two with the CLI's own file tool, the next request carries them."""
    from crumb.actors.harness.verifier_dir import prepare_verifier_dir
    from tests.agents.conftest import vendor_for
    from tests.agents.fake_base import gemini_images, image_blocks
    from tests.harness.filmstrip import COLOURS, session_with_film

    sdir, projected = session_with_film(tmp_path)
    work = prepare_verifier_dir(tmp_path / "v" / "work", projected, sdir / "no-game", sdir)
    assert sorted(p.name for p in (work / "filmstrip").iterdir()) == ["frame-01.png", "frame-02.png", "frame-03.png", "sheet.png"]
    for v in vendor_for(harness, throwaway_home, monkeypatch):
        v.script.look = ["filmstrip/frame-01.png", "filmstrip/frame-03.png"]
        req = make_request("verifier", work, Binding(harness=harness), input=projected, log_path=tmp_path / "v.log")
        result = get_adapter(harness).run(req, Progress(), threading.Event())
        assert JudgeScore.model_validate(result.payload["judge"]).verdict == "PASS"
        asked = v.server.role_requests("verifier")
        assert "filmstrip/frame-02.png" in json.dumps(asked[0].body)  # the prompt lists every frame
        images = gemini_images if harness == "gemini" else image_blocks
        colours = [sorted(pixel_colours(png) for png in images(r.body)) for r in asked]
        assert sorted([COLOURS[0], COLOURS[2]]) in colours, colours


def pixel_colours(png: bytes) -> str:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        r, g, b = im.convert("RGB").getpixel((0, 0))
    return f"#{r:02x}{g:02x}{b:02x}"
