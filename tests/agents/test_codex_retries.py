"""Codex against the real CLI (0.171, pinned) and a fake Responses server answering 500s: its own retries
are bounded by CRUMB (requests counted at the server) and shown as progress; and with no model named
anywhere, the model recorded is the one codex really asked the server for."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.actors.base import ActorError
from crumb.actors.harness.codex import REQUEST_MAX_RETRIES, STREAM_MAX_RETRIES
from crumb.actors.harness.prices import match
from tests.agents.clis import CODEX_KEY_VAR
from tests.agents.conftest import Vendor, vendor_for
from tests.agents.test_roles import run
from tests.harness.conftest import Progress


def provider_config(vendor: Vendor, extra: str = "") -> None:
    """config.toml naming a provider with no retry settings and no model (the user's usual setup)."""
    (vendor.home / ".codex" / "config.toml").write_text(
        f'model_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "{vendor.server.base_url}/v1"\n'
        f'env_key = "{CODEX_KEY_VAR}"\nwire_api = "responses"\n{extra}')


@pytest.fixture
def codex(throwaway_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vendor]:
    yield from vendor_for("codex", throwaway_home, monkeypatch)


def test_codex_own_retries_are_bounded_and_shown_as_progress(codex: Vendor, tmp_path: Path) -> None:
    provider_config(codex)
    codex.script.always = "500"
    progress = Progress()
    started = time.monotonic()
    with pytest.raises(ActorError, match=r"codex planner: exit 1: "):
        run(codex, "planner", tmp_path, progress=progress)
    took = time.monotonic() - started
    attempts = (1 + REQUEST_MAX_RETRIES) * (1 + STREAM_MAX_RETRIES)
    assert len(codex.server.role_requests("planner")) == attempts  # codex's defaults make 30 (~25 s)
    retries = [u.message for u in progress.updates if u.tool == "api_retry"]
    assert retries and all("codex retries: Reconnecting..." in m for m in retries), progress.updates
    print(f"codex, 500 always: {attempts} requests, {took:.1f} s")


def test_the_user_own_retry_settings_win(codex: Vendor, tmp_path: Path) -> None:
    provider_config(codex, "request_max_retries = 0\nstream_max_retries = 0\n")
    codex.script.always = "500"
    with pytest.raises(ActorError):
        run(codex, "planner", tmp_path)
    assert len(codex.server.role_requests("planner")) == 1


def test_with_no_model_named_the_model_codex_asked_for_is_recorded_and_priced(codex: Vendor, tmp_path: Path) -> None:
    provider_config(codex)
    result, _, _ = run(codex, "planner", tmp_path)
    asked = {r.body.get("model") for r in codex.server.role_requests("planner")}
    assert len(asked) == 1 and result.usage.model in asked, (asked, result.usage)
    priced = match("openai", result.usage.model)
    assert result.usage.cost_estimated and priced is not None
    print(f"codex without a model: asked for {result.usage.model}, price found as {priced[1]}")
