"""Role prompts, the verifier's sealed folder, progress throttling, the price table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crumb import prompts
from crumb.actors.base import ActorError, ProgressUpdate
from crumb.actors.harness import estimate_cost, prepare_verifier_dir
from crumb.actors.harness.progress import Throttle
from crumb.actors.harness.roles import answer_schema, extract_json, payload_from

from .conftest import role_input

REPO = Path(__file__).resolve().parents[2]


def test_game_contract_copy_matches_docs():
    assert prompts.template("game-contract.md") == (REPO / "docs" / "game-contract.md").read_text()


@pytest.mark.parametrize("role", ["planner", "builder"])
def test_planner_and_builder_prompts_carry_the_test_hook_contract(role, tmp_path):
    text = prompts.render(role, role_input(role, tmp_path), schema=answer_schema(role))
    assert "window.__crumb" in text and "state()" in text and "hint" in text
    assert text.startswith(f"# CRUMB role: {role}")
    assert "{{" not in text


def test_planner_prompt_explains_the_probes_and_carries_the_pitch(tmp_path):
    text = prompts.render("planner", role_input("planner", tmp_path), schema=answer_schema("planner"))
    for word in ('"do": "wait"', "increased", "expect", "tap the dot as often"):
        assert word in text


def test_text_mode_builder_prompt_documents_the_file_format(tmp_path):
    text = prompts.render("builder", role_input("builder", tmp_path), schema=answer_schema("builder"), mode="text")
    assert "<<<FILE index.html" in text and "FILE>>>" in text and ".." in text


def test_user_text_is_not_expanded_as_a_template(tmp_path):
    data = {**role_input("planner", tmp_path), "pitch": "a game about {{> builder.md}} and {{input}}"}
    text = prompts.render("planner", data, schema=answer_schema("planner"))
    assert "{{> builder.md}}" in text and "# CRUMB role: builder" not in text


def test_unknown_role_prompt():
    with pytest.raises(ValueError, match="no prompt for role 'qa'"):
        prompts.render("qa", {}, schema={})


def test_verifier_dir_holds_only_input_and_a_copy_of_the_game(tmp_path):
    session = tmp_path / "sessions" / "S"
    game = session / "artifacts" / "game"
    (game / "js").mkdir(parents=True)
    (game / "index.html").write_text("<canvas>")
    (game / "js" / "g.js").write_text("1")
    (session / "transcript.jsonl").write_text('{"secret": "earlier scores"}\n')
    (game / "peek.jsonl").symlink_to(session / "transcript.jsonl")
    base = tmp_path / "verify" / "E1"
    out = prepare_verifier_dir(base, {"qa": {"id": "Q1"}}, game)
    found = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert found == ["game/index.html", "game/js/g.js", "input.json"]
    assert json.loads((out / "input.json").read_text()) == {"qa": {"id": "Q1"}}
    (game / "index.html").write_text("changed later")
    assert (out / "game" / "index.html").read_text() == "<canvas>"  # a copy, not a link
    prepare_verifier_dir(base, {"qa": {"id": "Q2"}}, game)  # re-run replaces, nothing stale remains
    assert json.loads((out / "input.json").read_text())["qa"]["id"] == "Q2"


def test_throttle_merges_updates_and_keeps_files():
    now = [0.0]
    sent: list[ProgressUpdate] = []
    t = Throttle(sent.append, 1.0, clock=lambda: now[0])
    t(ProgressUpdate(message="a", files=["x"]))
    for i in range(50):
        now[0] += 0.01
        t(ProgressUpdate(message=f"b{i}", files=[f"f{i % 3}"]))
    assert len(sent) == 1
    now[0] += 1.0
    t(ProgressUpdate(message="c"))
    assert len(sent) == 2 and sent[1].files == ["f0", "f1", "f2"] and sent[1].message == "c (+50 more)"
    t.flush()
    assert len(sent) == 2  # nothing pending
    t(ProgressUpdate(message="d", files=["z"]))
    t.flush()
    assert sent[-1].files == ["z"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', {"a": 1}),
        ('Sure!\n```json\n{"a": 1}\n```\nthen\n```json\n{"a": 2}\n```', {"a": 2}),
        ('I wrote it. {"notes": ["x {y}"]} done', {"notes": ["x {y}"]}),
    ],
)
def test_extract_json(text, expected):
    assert extract_json(text) == expected


def test_extract_json_says_what_it_saw():
    with pytest.raises(ValueError, match="no JSON object found in the answer \\(it begins: 'hello"):
        extract_json("hello there")


def test_payload_bare_spec_is_wrapped_and_both_is_refused():
    from tests.agents.answers import spec

    assert "spec" in payload_from("planner", spec(), harness="t")
    with pytest.raises(ActorError, match="exactly one"):
        payload_from("planner", {"spec": spec(), "research": {"questions": ["q"]}}, harness="t")


def test_estimate_cost():
    assert estimate_cost("openai", "gpt-5", 1_000_000, 1_000_000) == pytest.approx(11.25)
    assert estimate_cost("openai", "gpt-5-mini-2026-01-01", 1_000_000, 0) == pytest.approx(0.25)
    assert estimate_cost(None, "ollama/qwen2.5-coder", 10_000, 10_000) == 0.0
    assert estimate_cost("google", "some-new-model", 1_000_000, 0) == pytest.approx(1.25)
    assert estimate_cost("mystery", "m", 1, 1) is None and estimate_cost(None, None, 1, 1) is None


