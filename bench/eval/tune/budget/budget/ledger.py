"""The ledger: transactions of one month, sorted into categories."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from budget.alerts import category_status, overspent
from budget.categories import Category
from budget.money import format_amount, parse_amount

UNCATEGORISED = "other"


@dataclass(frozen=True)
class Transaction:
    day: dt.date
    payee: str
    amount: Decimal  # spending is positive, refunds negative

    @classmethod
    def from_line(cls, line: str) -> Transaction:
        """"2024-05-03;Tesco Metro;23.40" -> Transaction."""
        day, payee, amount = (part.strip() for part in line.split(";"))
        return cls(dt.date.fromisoformat(day), payee, parse_amount(amount))


class Ledger:
    def __init__(self, categories: list[Category]):
        self.categories = {c.name: c for c in categories}
        self.transactions: list[Transaction] = []

    def add(self, transaction: Transaction) -> None:
        self.transactions.append(transaction)

    def add_lines(self, text: str) -> None:
        for line in text.splitlines():
            if line.strip():
                self.add(Transaction.from_line(line))

    def category_of(self, transaction: Transaction) -> str:
        for category in self.categories.values():
            if category.matches(transaction.payee):
                return category.name
        return UNCATEGORISED

    def spent(self) -> dict[str, Decimal]:
        """Total spent per category (every category listed, even at zero)."""
        totals: dict[str, Decimal] = defaultdict(Decimal)
        for name in self.categories:
            totals[name] = Decimal("0.00")
        for transaction in self.transactions:
            totals[self.category_of(transaction)] += transaction.amount
        return dict(totals)

    def status(self, name: str) -> str:
        """"ok", "near" or "over" for one category this month."""
        category = self.categories[name]
        return category_status(self.spent()[name], category.limit)

    def overspent(self) -> list[str]:
        spent = self.spent()
        return overspent({n: (spent[n], c.limit) for n, c in self.categories.items()})

    def summary(self) -> str:
        lines = []
        spent = self.spent()
        for name, category in self.categories.items():
            left = category.limit - spent[name]
            lines.append(
                f"{name:<12}{format_amount(spent[name]):>10} of {format_amount(category.limit):>10}"
                f"  {format_amount(left):>10} left  {self.status(name)}"
            )
        if spent.get(UNCATEGORISED):
            lines.append(f"{UNCATEGORISED:<12}{format_amount(spent[UNCATEGORISED]):>10}")
        return "\n".join(lines)
