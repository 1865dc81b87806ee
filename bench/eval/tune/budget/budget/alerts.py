"""How a category stands against its limit: ok, near the limit, or over it."""

from __future__ import annotations

from decimal import Decimal

# From this share of the limit on, a category is "near" its limit.
NEAR_SHARE = Decimal("0.90")


def exceeds(spent: Decimal, limit: Decimal) -> bool:
    """Whether `spent` goes past `limit`: spending the whole limit is still within it."""
    return spent >= limit


def near(spent: Decimal, limit: Decimal) -> bool:
    return spent >= limit * NEAR_SHARE


def category_status(spent: Decimal, limit: Decimal) -> str:
    if exceeds(spent, limit):
        return "over"
    if near(spent, limit):
        return "near"
    return "ok"


def overspent(by_category: dict[str, tuple[Decimal, Decimal]]) -> list[str]:
    """The categories over their limit, worst (most over, in money) first."""
    over = [
        (spent - limit, name)
        for name, (spent, limit) in by_category.items()
        if exceeds(spent, limit)
    ]
    return [name for _, name in sorted(over, key=lambda item: (-item[0], item[1]))]
