"""Estimated cost from tokens, for harnesses that report tokens but no dollars."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Mapping

#: Harness name -> the provider whose prices apply when a binding names none.
DEFAULT_PROVIDER = {"claude": "anthropic", "codex": "openai", "gemini": "google", "local": "local"}


@lru_cache(maxsize=1)
def price_table() -> dict[str, dict[str, float]]:
    """The packaged table: {"provider/model": {"input": $/Mtok, "output": $/Mtok}}."""
    text = resources.files("crumb.actors.harness").joinpath("prices.toml").read_text("utf-8")
    return {k.lower(): {"input": float(v["input"]), "output": float(v["output"])} for k, v in tomllib.loads(text).items()}


def lookup(provider: str, model: str | None, table: Mapping[str, Mapping[str, float]] | None = None) -> Mapping[str, float] | None:
    table = price_table() if table is None else table
    provider = provider.lower()
    if model:
        model = model.lower()
        # "ollama/qwen2.5-coder" names the provider inside the model string
        for key in (f"{provider}/{model}", model):
            if key in table:
                return table[key]
        # a dated or tagged variant ("gpt-5-2026-01-01", "sonnet-4.5") takes its family's price
        family = [k for k in table if k.startswith(f"{provider}/") and not k.endswith("/*") and model.startswith(k.split("/", 1)[1])]
        if family:
            return table[max(family, key=len)]
    return table.get(f"{provider}/*")


def estimate_cost(provider: str | None, model: str | None, tokens_in: int, tokens_out: int) -> float | None:
    """Dollars for these tokens by the price table; None when the provider has no price there."""
    if provider is None and model and "/" in model:
        provider, model = model.split("/", 1)
    if provider is None:
        return None
    price = lookup(provider, model)
    if price is None:
        return None
    return round((tokens_in * price["input"] + tokens_out * price["output"]) / 1_000_000, 6)
