"""One summary of a series, as a report prints it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stats.central import mean, median
from stats.spread import percentile, stdev, value_range


@dataclass(frozen=True)
class Summary:
    count: int
    mean: float | None
    median: float | None
    stdev: float | None
    low: float | None
    high: float | None
    p90: float | None

    def describe(self) -> str:
        if not self.count:
            return "no values"
        parts = [f"n={self.count}", f"mean={self.mean:.2f}", f"median={self.median:.2f}"]
        if self.stdev is not None:
            parts.append(f"sd={self.stdev:.2f}")
        parts.append(f"range={self.low:g}..{self.high:g}")
        return " ".join(parts)


def summarise(values: Sequence[float]) -> Summary:
    bounds = value_range(values)
    low, high = bounds if bounds else (None, None)
    return Summary(
        count=len(values),
        mean=mean(values),
        median=median(values),
        stdev=stdev(values),
        low=low,
        high=high,
        p90=percentile(values, 90),
    )
