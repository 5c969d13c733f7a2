"""The openai harness records the model its server says answered (the reply's `model`), not the alias it
asked for, and prices that one: a server answering `gpt-5.5` with a dated snapshot is costed as gpt-5.5."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from crumb.actors.base import Binding
from crumb.actors.harness import get_adapter
from crumb.actors.harness.prices import lookup
from tests.agents.fake_base import FakeServer, Recorded, role_of, send_json, text_of
from tests.harness.conftest import Progress, make_request

SNAPSHOT = "gpt-5.5-2026-04-23"


class DatedChat(FakeServer):
    """Chat completions (whole, not streamed) that name a dated snapshot of the model asked for."""

    def handle(self, h: BaseHTTPRequestHandler, rec: Recorded) -> None:
        prompt = text_of(rec.body.get("messages"))
        rec.role = role_of(prompt)
        text = self.script.answer_text(rec.role or "planner", prompt)
        send_json(h, 200, {"id": "c1", "object": "chat.completion", "model": SNAPSHOT,
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
                           "usage": {"prompt_tokens": 1000, "completion_tokens": 100}})


@pytest.fixture
def server() -> Iterator[DatedChat]:
    with DatedChat() as s:
        yield s


def test_the_model_the_server_names_is_recorded_and_priced(server: DatedChat, tmp_path) -> None:
    binding = Binding(harness="openai", provider="openai", model="gpt-5.5",
                      options={"base_url": f"{server.base_url}/v1", "stream": False})
    request = make_request("planner", tmp_path, binding)
    result = get_adapter("openai").run(request, Progress(), threading.Event())
    assert json.dumps(server.requests[0].body).count('"model": "gpt-5.5"') == 1
    usage = result.usage
    assert (usage.model, usage.provider, usage.cost_estimated) == (SNAPSHOT, "openai", True)
    price = lookup("openai", "gpt-5.5")
    assert price is not None and price != lookup("openai", "*")  # its own price, not the catch-all
    assert usage.cost_usd == pytest.approx((1000 * price["input"] + 100 * price["output"]) / 1e6)
