"""OpenAI-compatible harness against a fake chat-completions server on loopback (tests/agents/fake_chat.py);
the files format and confinement."""

from __future__ import annotations

import threading
import time

import pytest

from crumb.actors.base import ActorError, Binding
from crumb.actors.harness import get_adapter
from crumb.actors.harness.filesformat import FileFormatError, parse_files, write_files
from crumb.protocol.game import JudgeScore, Spec
from tests.loopback import refusing_port

from .conftest import make_request


def binding(server, **options):
    return Binding(harness="openai", provider="ollama", model="qwen2.5-coder:7b",
                   options={"base_url": server.base_url, **options}, origin="test")


def run(role, tmp_path, progress, server, work=None, cancel=None, **kw):
    work = work or tmp_path / "work"
    work.mkdir(exist_ok=True)
    req = make_request(role, work, kw.pop("bind", None) or binding(server), log_path=tmp_path / "run.log", **kw)
    return get_adapter("openai").run(req, progress, cancel or threading.Event())


def test_planner_streams_a_spec(openai_server, tmp_path, progress):
    result = run("planner", tmp_path, progress, openai_server)
    assert Spec.model_validate(result.payload["spec"]).title == "Tap Dash"
    body = openai_server.requests[-1]["body"]
    assert body["model"] == "qwen2.5-coder:7b" and body["stream"] is True
    assert openai_server.requests[-1]["path"] == "/v1/chat/completions"
    assert "acceptance" in body["messages"][1]["content"].lower()
    assert progress.updates and "received" in progress.updates[-1].message


def test_non_streaming_server(openai_server, tmp_path, progress):
    result = run("planner", tmp_path, progress, openai_server, bind=binding(openai_server, stream=False))
    assert "spec" in result.payload and result.usage.finish_reason == "stop"


def test_builder_files_are_written_in_the_work_dir(openai_server, tmp_path, progress):
    openai_server.control = {"files": {"index.html": "<canvas id=game></canvas>", "js/game.js": "let x = 1;\n"}}
    result = run("builder", tmp_path, progress, openai_server)
    assert (tmp_path / "work" / "js" / "game.js").read_text() == "let x = 1;\n"
    assert sorted(result.files) == ["index.html", "js/game.js"]
    assert result.payload == {"notes": ["wrote the game"]}


def test_builder_fix_round_sees_the_current_files(openai_server, tmp_path, progress):
    work = tmp_path / "work"
    work.mkdir()
    (work / "index.html").write_text("<p>OLD GAME MARKER</p>")
    run("builder", tmp_path, progress, openai_server, work=work)
    assert "OLD GAME MARKER" in openai_server.requests[-1]["body"]["messages"][1]["content"]


@pytest.mark.parametrize("path", ["../escape.html", "/etc/evil", "a/../../x", "C:\\win.js", "..\\x"])
def test_paths_outside_the_work_dir_are_refused_and_nothing_written(openai_server, tmp_path, progress, path):
    openai_server.control = {"files": {"index.html": "ok", path: "bad"}}
    with pytest.raises(ActorError, match="nothing was written"):
        run("builder", tmp_path, progress, openai_server)
    assert not (tmp_path / "work" / "index.html").exists()
    assert not (tmp_path / "escape.html").exists() and not (tmp_path / "x").exists()


def test_symlink_escape_is_refused(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "out").symlink_to(tmp_path)
    with pytest.raises(FileFormatError, match="outside the game folder"):
        write_files(work, {"out/x.js": "bad"})
    assert not (tmp_path / "x.js").exists()


def test_unclosed_block_is_refused():
    with pytest.raises(FileFormatError, match="no closing line"):
        parse_files("<<<FILE index.html\n<html>\n")


def test_a_block_keeps_content_exactly():
    files, rest = parse_files("intro\n<<<FILE a.js\nconst s = `<<<FILE`;\n\n  x\nFILE>>>\nafter\n")
    assert files == {"a.js": "const s = `<<<FILE`;\n\n  x\n"} and rest == "intro\nafter\n"


def test_verifier_gets_the_game_in_its_prompt(openai_server, tmp_path, progress):
    work = tmp_path / "v"
    (work / "game").mkdir(parents=True)
    (work / "game" / "index.html").write_text("<canvas id=game>GAME CODE MARKER</canvas>")
    result = run("verifier", tmp_path, progress, openai_server, work=work)
    JudgeScore.model_validate(result.payload["judge"])
    assert "GAME CODE MARKER" in openai_server.requests[-1]["body"]["messages"][1]["content"]


def test_usage_from_server_and_estimated_cost(openai_server, tmp_path, progress):
    openai_server.control = {"usage": {"prompt_tokens": 1234, "completion_tokens": 56}}
    usage = run("planner", tmp_path, progress, openai_server).usage
    assert (usage.tokens_in, usage.tokens_out) == (1234, 56)
    assert usage.finish_reason == "stop"  # the stream's last choice chunk says why the answer ended
    assert usage.provider == "ollama" and usage.cost_usd == 0.0 and usage.cost_estimated


def test_usage_estimated_when_server_gives_none(openai_server, tmp_path, progress):
    openai_server.control = {"usage": None}
    usage = run("planner", tmp_path, progress, openai_server).usage
    assert usage.tokens_in and usage.tokens_in > 500 and usage.tokens_out and usage.tokens_out > 10


@pytest.mark.parametrize(
    "control, words",
    [
        ({"mode": "error", "status": 404, "message": "model 'qwen' not found"}, "HTTP 404: model 'qwen' not found"),
        ({"mode": "garbage"}, "not a chat completion"),
        ({"mode": "badchunk"}, "malformed stream chunk"),
        ({"reply": "I think the game should be fun!"}, "no JSON object found"),
    ],
)
def test_server_failures_are_clear(openai_server, tmp_path, progress, control, words):
    openai_server.control = control
    with pytest.raises(ActorError, match=words):
        run("planner", tmp_path, progress, openai_server)


def test_connection_refused_names_the_fix(tmp_path, progress):
    with refusing_port() as port:
        b = Binding(harness="openai", provider="ollama", model="m", options={"base_url": f"http://127.0.0.1:{port}/v1"})
        with pytest.raises(ActorError, match="connection refused.*ollama serve"):
            run("planner", tmp_path, progress, None, bind=b)


@pytest.mark.parametrize("mode", ["hang", "stall"])
def test_idle_server_hits_the_idle_limit(openai_server, tmp_path, progress, mode):
    openai_server.control = {"mode": mode}
    with pytest.raises(ActorError, match="idle limit"):
        run("planner", tmp_path, progress, openai_server, idle_s=0.5)


def test_cancel(openai_server, tmp_path, progress):
    openai_server.control = {"mode": "hang"}
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(ActorError, match="cancelled"):
        run("planner", tmp_path, progress, openai_server, cancel=cancel)
    assert time.monotonic() - started < 3


def test_model_is_required(tmp_path, progress, openai_server):
    b = binding(openai_server).model_copy(update={"model": None})
    with pytest.raises(ActorError, match="no model"):
        run("planner", tmp_path, progress, openai_server, bind=b)


def test_a_gpt5_model_is_sent_no_temperature_with_a_note(openai_server, tmp_path, progress):
    openai_server.control = {"refuse_temperature": True}
    b = Binding(harness="openai", provider="openai", model="gpt-5-mini", options={"base_url": openai_server.base_url})
    result = run("planner", tmp_path, progress, openai_server, bind=b)
    assert "spec" in result.payload
    assert [("temperature" in r["body"]) for r in openai_server.requests] == [False]
    assert any(u.tool == "note" and "temperature" in u.message for u in progress.updates)


def test_a_server_that_refuses_the_temperature_gets_the_request_again_without_it(openai_server, tmp_path, progress):
    openai_server.control = {"refuse_temperature": True}
    result = run("planner", tmp_path, progress, openai_server)
    assert "spec" in result.payload
    assert [("temperature" in r["body"]) for r in openai_server.requests] == [True, False]
    assert any(u.tool == "note" and "refused a temperature" in u.message for u in progress.updates)


def test_a_429_is_waited_out_as_retry_after_asks(openai_server, tmp_path, progress):
    openai_server.control = {"mode": "error", "status": 429, "times": 2, "retry_after": 1, "message": "slow down"}
    started = time.monotonic()
    result = run("planner", tmp_path, progress, openai_server)
    assert "spec" in result.payload and len(openai_server.requests) == 3
    assert time.monotonic() - started >= 2.0  # waited 1 s twice, as asked
    waits = [u.message for u in progress.updates if u.tool == "rate_limit"]
    assert len(waits) == 2 and "waiting 1 s" in waits[0]


def test_a_429_asking_longer_than_the_wall_limit_fails_at_once(openai_server, tmp_path, progress):
    openai_server.control = {"mode": "error", "status": 429, "retry_after": 600, "message": "slow down"}
    with pytest.raises(ActorError, match=r"HTTP 429: slow down; the server asks to wait 600 s, more than"):
        run("planner", tmp_path, progress, openai_server)
    assert len(openai_server.requests) == 1


def test_the_proxy_named_by_the_environment_is_used(openai_server, tmp_path, progress, monkeypatch):
    """The base URL's host does not resolve; only a request through HTTP_PROXY (the fake server itself,
    which sees the absolute URL) can answer."""
    monkeypatch.setenv("HTTP_PROXY", openai_server.base_url.removesuffix("/v1"))
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    b = binding(openai_server, base_url="http://model-server.invalid:9/v1")
    assert "spec" in run("planner", tmp_path, progress, openai_server, bind=b).payload
    assert openai_server.requests[-1]["path"] == "http://model-server.invalid:9/v1/chat/completions"


def test_researcher_returns_evidence(openai_server, tmp_path, progress):
    result = run("researcher", tmp_path, progress, openai_server)
    assert result.payload["evidence"]["items"][0]["id"] == "r1"


def _verifier_with_film(tmp_path):
    from crumb.actors.harness.verifier_dir import prepare_verifier_dir

    from .filmstrip import session_with_film

    sdir, projected = session_with_film(tmp_path)
    (sdir / "artifacts" / "game").mkdir(parents=True)
    (sdir / "artifacts" / "game" / "index.html").write_text("<canvas id=game></canvas>")
    work = prepare_verifier_dir(tmp_path / "v", projected, sdir / "artifacts" / "game", sdir)
    return work, projected


def _images(request):
    content = request["body"]["messages"][1]["content"]
    return [p["image_url"]["url"] for p in content if p.get("type") == "image_url"] if isinstance(content, list) else []


def test_a_verifier_whose_model_reads_images_is_sent_the_filmstrip(openai_server, tmp_path, progress):
    import base64

    from .filmstrip import COLOURS, png

    work, projected = _verifier_with_film(tmp_path)
    result = run("verifier", tmp_path, progress, openai_server, work=work, input=projected,
                 bind=binding(openai_server, images=True))
    JudgeScore.model_validate(result.payload["judge"])
    urls = _images(openai_server.requests[-1])
    assert len(urls) == 4  # the contact sheet, then the three frames in game-time order
    assert [base64.b64decode(u.split(",", 1)[1]) for u in urls[1:]] == [png(c) for c in COLOURS]
    text = openai_server.requests[-1]["body"]["messages"][1]["content"][0]["text"]
    assert "attached to this message as images" in text and "first frame after 'ArrowLeft'" in text


def test_a_verifier_model_not_said_to_read_images_gets_text_only(openai_server, tmp_path, progress):
    work, projected = _verifier_with_film(tmp_path)
    run("verifier", tmp_path, progress, openai_server, work=work, input=projected)
    content = openai_server.requests[-1]["body"]["messages"][1]["content"]
    assert isinstance(content, str) and "## The filmstrip" not in content and "as images" not in content


def test_a_server_that_refuses_images_gets_the_request_again_without_them(openai_server, tmp_path, progress):
    openai_server.control = {"refuse_images": True}
    work, projected = _verifier_with_film(tmp_path)
    result = run("verifier", tmp_path, progress, openai_server, work=work, input=projected,
                 bind=binding(openai_server, images=True))
    JudgeScore.model_validate(result.payload["judge"])
    assert [len(_images(r)) for r in openai_server.requests] == [4, 0]
    assert any(u.tool == "note" and "refused images" in u.message for u in progress.updates)
