"""Budget categories: a name, a monthly limit, and the payees that belong to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from budget.money import parse_amount


@dataclass(frozen=True)
class Category:
    name: str
    limit: Decimal
    payees: frozenset[str] = field(default_factory=frozenset)

    def matches(self, payee: str) -> bool:
        """Whether a transaction with this payee is spending in this category."""
        payee = payee.strip().lower()
        return any(payee.startswith(known) for known in self.payees)


def load_categories(text: str) -> list[Category]:
    """Read lines like "groceries 400.00 tesco, aldi, lidl" (blank lines and # skipped)."""
    categories = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, limit, *rest = line.split(None, 2)
        payees = rest[0].split(",") if rest else []
        categories.append(
            Category(
                name=name.lower(),
                limit=parse_amount(limit),
                payees=frozenset(p.strip().lower() for p in payees if p.strip()),
            )
        )
    return categories
