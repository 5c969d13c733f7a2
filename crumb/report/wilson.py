"""The Wilson score interval: how far a rate measured on n cells can be trusted.

A batch has few cells per set-up (tens, not thousands), and rates near 0 or 1 are common (a set-up that
always passes): the normal approximation gives intervals past [0, 1] and of width 0 there; Wilson's does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95 % interval


@dataclass(frozen=True)
class Rate:
    """k of n, with its 95 % Wilson interval; n == 0 has no rate (None), never a made-up 0."""

    k: int
    n: int
    rate: float | None
    low: float | None
    high: float | None

    def text(self) -> str:
        """`67% [21–94]` as the terminal table shows it; `-` with no cell to rate."""
        if self.rate is None or self.low is None or self.high is None:
            return "-"
        return f"{self.rate * 100:.0f}% [{self.low * 100:.0f}–{self.high * 100:.0f}]"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (n > 0)."""
    if n <= 0 or not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n and n > 0, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> Rate:
    if n == 0:
        return Rate(k=k, n=0, rate=None, low=None, high=None)
    low, high = wilson(k, n)
    return Rate(k=k, n=n, rate=k / n, low=low, high=high)
