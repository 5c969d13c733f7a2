"""The Wilson score interval against published values (Newcombe, Statistics in Medicine 1998, table I)."""

from __future__ import annotations

import pytest

from crumb.report.wilson import rate, wilson


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_matches_the_published_intervals(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_no_cell_is_no_rate_not_zero() -> None:
    r = rate(0, 0)
    assert (r.rate, r.low, r.high, r.text()) == (None, None, None, "-")
    with pytest.raises(ValueError):
        wilson(3, 2)
