"""The openai harness plays all three roles in turn, with real QA (headless Chromium) between builder and
verifier: planner spec -> builder files in the game folder -> QA probes -> sealed verifier folder."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest

from crumb.actors.base import Binding
from crumb.actors.harness import get_adapter, prepare_verifier_dir
from crumb.protocol.game import JudgeScore, QAResult, Spec
from tests.agents.answers import GAME_HTML

from .conftest import PITCH, make_request

#: harnesses whose build goes through real QA here: a CLI writing with its tools, and the text file format
QA_HARNESSES = ("claude", "openai")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def qa():
    from crumb.qa import QARunner, find_chromium

    try:
        find_chromium()
    except Exception as exc:
        pytest.skip(f"no browser: {exc}")
    with QARunner() as runner:
        yield runner


def binding_for(name: str, server) -> Binding:
    if name == "openai":
        return Binding(harness="openai", provider="ollama", model="m", options={"base_url": server.base_url})
    return Binding(harness=name)


@pytest.mark.parametrize("harness", ["openai"])  # the agent CLIs: real ones, in tests/agents/test_sessions.py
def test_a_full_round_per_harness(harness, openai_server, qa, tmp_path, progress):
    binding = binding_for(harness, openai_server)
    adapter = get_adapter(harness)
    cancel = threading.Event()
    session = tmp_path / "sessions" / "S"
    plan = adapter.run(make_request("planner", session / "work" / "planner", binding), progress, cancel)
    spec = Spec.model_validate(plan.payload["spec"])

    game = session / "artifacts" / "game"
    game.mkdir(parents=True)
    builder_input = {"spec": spec.model_dump(mode="json"), "feedback": None, "qa": None, "steering": [], "round": 1,
                     "fault": None, "seed": spec.seed}
    build = adapter.run(make_request("builder", game, binding, input=builder_input), progress, cancel)
    assert (game / "index.html").is_file() and "index.html" in build.files

    if harness in QA_HARNESSES:
        result = qa.check(game, criteria=spec.criteria, build_id="B1")
        assert result.ok, result.model_dump_json(indent=1)
        assert all(p.ok for p in result.probes) and len(result.probes) == len(spec.criteria)
    else:  # the same game, written through the same tool path: QA once per file-writing path is enough
        assert (game / "index.html").read_text() == GAME_HTML
        result = QAResult(build="B1", ok=True)

    (session / "transcript.jsonl").write_text('{"secret": true}\n')
    projected = {"goal": {"id": "G1", "pitch": PITCH}, "spec": {"id": "S1", **spec.model_dump(mode="json")},
                 "build": {"id": "B1", "manifest": {"dir": "artifacts/game"}},
                 "qa": {"id": "Q1", **result.model_dump(mode="json")}}
    with tempfile.TemporaryDirectory(prefix="crumb-verify-") as tmp:
        vdir = prepare_verifier_dir(Path(tmp) / "E3", projected, game)
        verdict = adapter.run(make_request("verifier", vdir, binding, input=projected), progress, cancel)
    judge = JudgeScore.model_validate(verdict.payload["judge"])
    assert judge.verdict == "PASS"
    if harness != "openai":
        assert judge.evidence == ["Q1"]  # the CLI read input.json in its sealed folder
    for usage in (plan.usage, build.usage, verdict.usage):
        assert usage.tokens_in and usage.tokens_out and usage.cost_usd is not None
