"""Estimated cost from tokens, for harnesses that report tokens but no dollars.

prices.toml is generated from the maintained `genai-prices` table (`make prices`, prices_sync.py), dated
in its header; the servers that run on your own machine are free. A model found nowhere there falls to
its provider's catch-all ("provider/*"): `match` says which kind of price was found, and a test fails when
a model a preset names (or a harness's default) has only the catch-all.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Literal

#: providers whose models run on the user's own machine: every model is free
FREE = ("local", "ollama", "llamacpp", "vllm", "lmstudio")
Match = Literal["exact", "family", "free", "catch-all"]


@lru_cache(maxsize=1)
def price_table() -> dict[str, dict[str, float]]:
    """The packaged table: {"provider/model": {"input": $/Mtok, "output": $/Mtok}}."""
    text = resources.files("crumb.actors.harness").joinpath("prices.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return {k.lower(): {"input": float(v["input"]), "output": float(v["output"])}
            for k, v in data.items() if isinstance(v, dict) and "input" in v}


def match(provider: str, model: str | None,
          table: Mapping[str, Mapping[str, float]] | None = None) -> tuple[Mapping[str, float], Match] | None:
    """The price for a model and how it was found, None when its provider has no price at all."""
    table = price_table() if table is None else table
    provider = provider.lower()
    if provider in FREE:
        return {"input": 0.0, "output": 0.0}, "free"
    if model:
        model = model.lower()
        # "ollama/qwen2.5-coder" names the provider inside the model string
        for key in (f"{provider}/{model}", model):
            if key in table:
                return table[key], "exact"
        # a dated or tagged variant ("gpt-5-2026-01-01", "sonnet-4.5") takes its family's price
        family = [k for k in table if k.startswith(f"{provider}/") and not k.endswith("/*") and model.startswith(k.split("/", 1)[1])]
        if family:
            return table[max(family, key=len)], "family"
    fallback = table.get(f"{provider}/*")
    return (fallback, "catch-all") if fallback is not None else None


def lookup(provider: str, model: str | None, table: Mapping[str, Mapping[str, float]] | None = None) -> Mapping[str, float] | None:
    """$/Mtok for a model (its own, its family's, or its provider's catch-all), None if none."""
    found = match(provider, model, table)
    return found[0] if found else None


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
