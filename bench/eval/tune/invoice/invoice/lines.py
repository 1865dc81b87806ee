"""One line of an invoice: what was sold, how many, at what unit price and VAT rate."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from invoice.money import round_money, to_money

VAT_RATES = {"standard": Decimal("0.20"), "reduced": Decimal("0.05"), "zero": Decimal("0")}


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_price: Decimal
    vat_band: str = "standard"

    @classmethod
    def of(cls, description: str, quantity: int, unit_price: str, vat_band: str = "standard"):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        if vat_band not in VAT_RATES:
            raise ValueError(f"unknown VAT band {vat_band!r}")
        return cls(description, quantity, to_money(unit_price), vat_band)

    @property
    def net(self) -> Decimal:
        return round_money(self.unit_price * self.quantity)

    @property
    def vat(self) -> Decimal:
        return round_money(self.net * VAT_RATES[self.vat_band])

    @property
    def gross(self) -> Decimal:
        return self.net + self.vat
