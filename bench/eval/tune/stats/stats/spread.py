"""How spread out a series is."""

from __future__ import annotations

import math
from collections.abc import Sequence

from stats.central import mean


def variance(values: Sequence[float], sample: bool = True) -> float | None:
    """Sample variance (n - 1) by default; None when there are too few values."""
    n = len(values)
    if n < (2 if sample else 1):
        return None
    centre = mean(values)
    assert centre is not None
    return sum((v - centre) ** 2 for v in values) / (n - 1 if sample else n)


def stdev(values: Sequence[float], sample: bool = True) -> float | None:
    v = variance(values, sample)
    return None if v is None else math.sqrt(v)


def value_range(values: Sequence[float]) -> tuple[float, float] | None:
    return (min(values), max(values)) if values else None


def percentile(values: Sequence[float], p: float) -> float | None:
    """Linear interpolation between closest ranks (the spreadsheet PERCENTILE.INC)."""
    if not 0 <= p <= 100:
        raise ValueError("p is a percentage")
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
