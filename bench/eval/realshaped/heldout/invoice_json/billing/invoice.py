"""Invoices: lines with a quantity, a unit price and a VAT rate. Money is Decimal, in pounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

PENNY = Decimal("0.01")
STANDARD_VAT = Decimal("0.20")


def pennies(amount: Decimal) -> Decimal:
    return amount.quantize(PENNY, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_price: Decimal
    vat_rate: Decimal = STANDARD_VAT

    @property
    def net(self) -> Decimal:
        return pennies(self.quantity * self.unit_price)

    @property
    def vat(self) -> Decimal:
        return pennies(self.net * self.vat_rate)


@dataclass
class Invoice:
    number: str
    customer: str
    issued: date
    due: date
    lines: list[Line] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.due < self.issued:
            raise ValueError("an invoice cannot be due before it is issued")

    def add(self, description: str, quantity: int, unit_price: Decimal | str, vat_rate: Decimal | str = STANDARD_VAT) -> Line:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        line = Line(description, quantity, Decimal(unit_price), Decimal(vat_rate))
        self.lines.append(line)
        return line

    @property
    def subtotal(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal("0.00"))

    @property
    def vat(self) -> Decimal:
        return sum((line.vat for line in self.lines), Decimal("0.00"))

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.vat

    def is_overdue(self, today: date) -> bool:
        return today > self.due
