"""How the categories of work count towards the final average."""

from __future__ import annotations

DEFAULT_WEIGHTS = {
    "homework": 0.20,
    "quizzes": 0.15,
    "midterm": 0.25,
    "final": 0.40,
}

# In these categories the lowest score is dropped when there are enough of them.
DROP_LOWEST = {"homework": 1, "quizzes": 1}


def category_average(scores: list[float], drop: int = 0) -> float | None:
    """Mean of `scores` (each out of 100) without the `drop` lowest; None when empty."""
    if not scores:
        return None
    kept = sorted(scores)[drop:] if len(scores) > drop else list(scores)
    return sum(kept) / len(kept)


def weighted_average(
    by_category: dict[str, list[float]], weights: dict[str, float] = DEFAULT_WEIGHTS
) -> float:
    """The weighted mean over the categories that have scores, reweighted to sum to 1."""
    total = 0.0
    weight_used = 0.0
    for category, weight in weights.items():
        average = category_average(by_category.get(category, []), DROP_LOWEST.get(category, 0))
        if average is None:
            continue
        total += weight * average
        weight_used += weight
    if weight_used == 0:
        raise ValueError("no scores in any weighted category")
    return total / weight_used
