"""A number with a unit, read from and written as text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from units.convert import UnitError, canonical, category_of, convert

_QUANTITY = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([A-Za-z_/0-9]+)\s*$")


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # always the canonical name

    def to(self, unit: str) -> Quantity:
        return Quantity(convert(self.value, self.unit, unit), canonical(unit))

    @property
    def category(self) -> str:
        return category_of(self.unit)

    def __add__(self, other: Quantity) -> Quantity:
        return Quantity(self.value + other.to(self.unit).value, self.unit)

    def __str__(self) -> str:
        return f"{self.value:g} {self.unit}"


def parse_quantity(text: str) -> Quantity:
    match = _QUANTITY.match(text)
    if not match:
        raise UnitError(f"cannot read a quantity from {text!r}")
    return Quantity(float(match[1]), canonical(match[2]))
