"""Money in, money out and the difference, per calendar month."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from bankcsv.parse import Transaction


def monthly_totals(transactions: Iterable[Transaction]) -> dict[str, dict[str, Decimal]]:
    months: dict[str, dict[str, Decimal]] = {}
    for t in transactions:
        month = months.setdefault(f"{t.day:%Y-%m}", {"in": Decimal(0), "out": Decimal(0), "net": Decimal(0)})
        month["in" if t.amount > 0 else "out"] += t.amount
        month["net"] += t.amount
    return dict(sorted(months.items()))


def format_summary(months: dict[str, dict[str, Decimal]]) -> str:
    lines = [f"{'month':<8}{'in':>12}{'out':>12}{'net':>12}"]
    for month, sums in months.items():
        lines.append(f"{month:<8}" + "".join(f"{sums[k]:>12,.2f}" for k in ("in", "out", "net")))
    return "\n".join(lines)
