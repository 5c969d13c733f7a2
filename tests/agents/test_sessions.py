"""Whole sessions through the daemon with the real CLIs and real QA (headless Chromium): a FAIL verdict
sends the build back for a fix round; the cross preset puts Claude and Codex in one session, each
recorded as what it is; a CLI whose server refuses every call opens the circuit and the embedded studio
takes over."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from crumb.export.otel import PROVIDER_NAMES, spans_of
from crumb.store import paths
from crumb.store.reader import read_events
from tests.agents.fake_base import image_blocks
from tests.daemon.conftest import crumb, events, wait_done

pytestmark = pytest.mark.browser
PITCH = "tap the dot as often as you can in 30 seconds"
USAGE = {"tokens_in": "gen_ai.usage.input_tokens", "tokens_out": "gen_ai.usage.output_tokens", "cost_usd": "crumb.cost_usd",
         "model": "gen_ai.response.model", "provider": "gen_ai.provider.name"}


def spans_carry_the_usage_recorded(root, sid) -> list:
    """Each role run's span (crumb export --otel, the live stream) says what its result's meta says, and
    leaves out what it does not: a CLI that reports no tokens has no token attribute, not a 0."""
    evs = list(read_events(paths.transcript_path(root, sid)))
    by_id = {e["id"]: e for e in evs}
    runs = [s for s in spans_of(sid, evs) if s.name.startswith("invoke_agent ")]
    assert runs
    for span in runs:
        result = by_id.get(str(span.attributes.get("crumb.result.event.id")))
        meta = result["meta"] if result else {}
        for field, attr in USAGE.items():
            if meta.get(field) is None:
                assert attr not in span.attributes or (field == "provider" and span.attributes[attr]), (span.name, attr)
            else:
                want = PROVIDER_NAMES.get(meta[field], meta[field]) if field == "provider" else meta[field]
                assert span.attributes[attr] == want, (span.name, attr)
        reasons = span.attributes.get("gen_ai.response.finish_reasons")
        assert reasons == ([meta["finish_reason"]] if meta.get("finish_reason") else None), (span.name, reasons)
        assert span.status == ("ok" if result and result["kind"] != "effect.failed" else "error"), span
    return runs


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").tobytes()


def test_a_fail_verdict_brings_a_fix_round_through_real_claude(root, daemon, claude):
    claude.script.verdicts = ["FAIL", "PASS"]
    claude.script.look = ["filmstrip/sheet.png", "filmstrip/frame-02.png"]  # the Verifier looks at QA's frames
    sid = crumb(root, "pitch", PITCH, "--preset", "claude").stdout.strip()
    final = wait_done(root, sid, timeout=300)
    assert final.done["reason"] == "pass", final.errors
    verdicts = [e["data"]["verdict"] for e in events(root, sid, "judge.score")]
    assert verdicts == ["FAIL", "PASS"]
    builds = events(root, sid, "build")
    assert len(builds) == 2 and all(b["meta"]["harness"] == "claude" for b in builds)
    fix = [r for r in claude.server.role_requests("builder") if "make the dot bigger" in str(r.body.get("messages"))]
    assert fix, "the second build was not given the Verifier's feedback"
    assert (paths.artifacts_dir(root, sid) / "game" / "index.html").is_file()
    # each round's Verifier was told of its round's filmstrip, read two of its images with the CLI's own
    # Read tool, and the CLI sent them to the model as image blocks: the very pictures QA wrote that round
    # (the CLI may encode a PNG anew: the pixels are compared)
    sdir = paths.session_dir(root, sid)
    for n, qa in enumerate(events(root, sid, "qa.result"), 1):
        film = qa["data"]["filmstrip"]
        assert film["sheet"] == f"artifacts/qa/round-{n}/sheet.png"
        prompts = [r for r in claude.server.role_requests("verifier") if f"round-{n}/sheet.png" in str(r.body.get("messages"))]
        assert prompts and "filmstrip/frame-01.png" in str(prompts[0].body["messages"][0])
        seen = [[pixels(png) for png in image_blocks(r.body)] for r in prompts]
        wanted = [pixels((sdir / film["sheet"]).read_bytes()), pixels((sdir / film["frames"][1]["path"]).read_bytes())]
        # the two reads run at once: their results come back in either order
        assert any(sorted(got) == sorted(wanted) for got in seen), f"round {n}: the model never got the frames it asked to read"
    runs = spans_carry_the_usage_recorded(root, sid)
    builders = [s.attributes for s in runs if s.name == "invoke_agent builder"]
    assert len(builders) == 2 and all(a["gen_ai.usage.input_tokens"] > 0 and a["crumb.harness"] == "claude" and
                                      a["gen_ai.provider.name"] == "anthropic" for a in builders), builders
    # the fake model ends each answer with stop_reason end_turn; claude's result passes it on
    assert all(a["gen_ai.response.finish_reasons"] == ["end_turn"] for a in builders), builders


def test_the_cross_preset_runs_claude_and_codex_in_one_session(root, daemon, vendors):
    sid = crumb(root, "pitch", PITCH, "--preset", "cross").stdout.strip()
    final = wait_done(root, sid, timeout=300)
    assert final.done["reason"] == "pass", final.errors
    build = events(root, sid, "build")[0]["meta"]
    judge = events(root, sid, "judge.score")[0]["meta"]
    assert build["harness"] == "claude" and judge["harness"] == "codex"
    assert judge["model"] == "gpt-5.5" and judge["cost_estimated"]  # config.toml's model, priced as such
    assert vendors["codex"].server.role_requests("verifier") and vendors["claude"].server.role_requests("builder")
    assert not vendors["gemini"].server.role_requests()


def test_a_refused_key_opens_the_circuit_and_the_offline_studio_takes_over(root, daemon, codex):
    codex.script.always = "401"
    sid = crumb(root, "pitch", "60-second snake", "--role", "builder=codex").stdout.strip()
    final = wait_done(root, sid, timeout=300)
    failed = events(root, sid, "effect.failed")
    assert [f["data"]["adapter"] for f in failed] == ["codex"] * 3
    assert all("401" in f["data"]["error"] for f in failed)
    swapped = events(root, sid, "adapter.swapped")[0]["data"]
    assert (swapped["before"], swapped["after"]) == ("codex", "local")
    assert final.done["reason"] == "pass" and events(root, sid, "build")[0]["meta"]["harness"] == "local"
    runs = spans_carry_the_usage_recorded(root, sid)
    refused = [s for s in runs if s.attributes["crumb.harness"] == "codex"]
    assert len(refused) == 3 and all(s.attributes["error.type"] == "effect.failed" and "401" in s.status_message
                                     for s in refused)


@pytest.mark.parametrize("harness", ["codex", "gemini"])
def test_a_whole_session_through_each_real_cli(root, daemon, throwaway_home, monkeypatch, harness):
    from tests.agents.conftest import vendor_for

    for vendor in vendor_for(harness, throwaway_home, monkeypatch):
        sid = crumb(root, "pitch", PITCH, "--preset", harness).stdout.strip()
        final = wait_done(root, sid, timeout=300)
        assert final.done["reason"] == "pass", final.errors
        for kind in ("spec", "build", "judge.score"):
            meta = events(root, sid, kind)[0]["meta"]
            assert meta["harness"] == harness and meta["model"] not in (None, "auto"), (kind, meta)
            assert meta["tokens_in"] > 0 and meta["cost_estimated"]
        assert {r.role for r in vendor.server.role_requests()} >= {"planner", "builder", "verifier"}
        progress = [e["data"] for e in events(root, sid, "progress") if e["data"]["actor"] == "builder"]
        assert any("index.html" in p["files"] for p in progress), progress
        started = [e["data"] for e in events(root, sid, "effect.started") if e["data"]["actor"] == "builder"]
        log = (paths.session_dir(root, sid) / started[0]["log"]).read_text()
        assert log.startswith("$ ") and "# exit 0" in log
