"""Mean, median and mode. Each returns None for an empty series: there is no centre."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def mean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    return sum(values) / len(values)


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def modes(values: Sequence[float]) -> list[float]:
    """All the most common values, smallest first (a series may have several)."""
    if not values:
        return []
    counts = Counter(values)
    top = max(counts.values())
    return sorted(v for v, n in counts.items() if n == top)
