"""Quantities: a number and a unit. Mass in g or kg, volume in ml or l, or a plain count."""

from __future__ import annotations

import re

FACTORS = {"g": 1, "kg": 1000, "ml": 1, "l": 1000, "": 1}
BASE = {"g": "g", "kg": "g", "ml": "ml", "l": "ml", "": ""}
_QUANTITY = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*([a-zA-Z]*)\s*$")


class UnitError(ValueError):
    pass


def parse_quantity(text: str) -> tuple[float, str]:
    """'250 g' -> (250.0, 'g'); '1,5 kg' -> (1.5, 'kg'); '3' -> (3.0, '')."""
    match = _QUANTITY.match(text)
    if not match:
        raise UnitError(f"not a quantity: {text!r}")
    number, unit = match.groups()
    unit = unit.lower()
    if unit not in FACTORS:
        raise UnitError(f"unknown unit {unit!r} in {text!r}")
    return float(number.replace(",", ".")), unit


def fmt_number(value: float) -> str:
    """At most two decimals, no trailing zeros: 1.5, 2, 0.25."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def format_quantity(amount: float, unit: str) -> str:
    return f"{fmt_number(amount)} {unit}".rstrip()
