"""Money as Decimal pence-exact amounts. Floats never hold money here."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

PENNY = Decimal("0.01")


def to_money(value: str | int | Decimal) -> Decimal:
    """Parse an amount as written on an order ("12.50", 3, Decimal)."""
    if isinstance(value, float):
        raise TypeError("pass money as a string or Decimal, never a float")
    return Decimal(str(value))


def round_money(amount: Decimal) -> Decimal:
    """Round to the penny, half up: 0.125 -> 0.13, as invoices are rounded by hand."""
    return amount.quantize(PENNY, rounding=ROUND_HALF_EVEN)


def format_money(amount: Decimal, currency: str = "GBP") -> str:
    symbol = {"GBP": "£", "EUR": "€", "USD": "$"}.get(currency, currency + " ")
    sign = "-" if amount < 0 else ""
    return f"{sign}{symbol}{abs(round_money(amount)):,.2f}"
