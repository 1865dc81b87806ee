"""Amounts of money as Decimal, read from and written to text like "1,234.50"."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


class AmountError(ValueError):
    """Text that is not an amount of money."""


def parse_amount(text: str | int | float | Decimal) -> Decimal:
    """"1,234.5" -> Decimal("1234.50"); a leading "-" or "(...)" means negative."""
    if isinstance(text, Decimal):
        return text.quantize(CENT, rounding=ROUND_HALF_UP)
    if isinstance(text, (int, float)):
        return Decimal(str(text)).quantize(CENT, rounding=ROUND_HALF_UP)
    cleaned = text.strip().replace(",", "").replace("$", "")
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    if negative:
        cleaned = cleaned[1:-1]
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise AmountError(f"not an amount: {text!r}") from None
    value = value.quantize(CENT, rounding=ROUND_HALF_UP)
    return -value if negative else value


def format_amount(value: Decimal) -> str:
    """Decimal("-1234.5") -> "-1,234.50"."""
    sign = "-" if value < 0 else ""
    return f"{sign}{abs(value):,.2f}"
