"""Numbers to a few significant digits, and quantities with a fitting SI prefix."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from unitconv.units import best_prefix

if TYPE_CHECKING:
    from unitconv.quantity import Quantity


def _trim(text: str) -> str:
    """"2.500" -> "2.5", "3.000" -> "3"."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_number(value: float, digits: int = 4) -> str:
    """`value` to `digits` significant digits; very large or small values in e notation."""
    if value == 0 or not math.isfinite(value):
        return str(value if value else 0)
    exponent = math.floor(math.log10(abs(value)))
    mantissa = round(value / 10**exponent, digits - 1)
    if abs(mantissa) >= 10:
        mantissa /= 10
        exponent += 1
    if exponent >= 9 or exponent < -4:
        return f"{_trim(f'{mantissa:.{digits - 1}f}')}e{exponent}"
    decimals = max(0, digits - 1 - exponent)
    return _trim(f"{mantissa * 10**exponent:.{decimals}f}")


def format_quantity(quantity: Quantity, digits: int = 4, prefix: bool = False) -> str:
    """"1.2 m"; with `prefix`, rescaled to read 1 to 999: "4.2 mm", "15.3 kW"."""
    value, unit = quantity.value, quantity.unit
    if prefix:
        value, unit = best_prefix(value, unit)
    return f"{format_number(value, digits)} {unit}"
