"""A value with its unit, read from text like "12.5 km/h" or "-40 °F"."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from unitconv.units import UnitError, convert, parse_unit

_QUANTITY = re.compile(r"^\s*(?P<value>[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(?P<unit>\S.*?)\s*$")


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str

    @classmethod
    def parse(cls, text: str) -> Quantity:
        match = _QUANTITY.match(text)
        if match is None:
            raise UnitError(f"not a quantity: {text!r}")
        parse_unit(match["unit"])  # fail early on an unknown unit
        return cls(float(match["value"]), match["unit"])

    def to(self, unit: str) -> Quantity:
        return Quantity(convert(self.value, self.unit, unit), unit)

    def si_value(self) -> float:
        parsed = parse_unit(self.unit)
        return (self.value + parsed.offset) * parsed.scale

    def _same_unit(self, other: Quantity) -> float:
        if parse_unit(self.unit).is_affine or parse_unit(other.unit).is_affine:
            raise UnitError("temperatures on a scale with its own zero cannot be added")
        return convert(other.value, other.unit, self.unit)

    def __add__(self, other: Quantity) -> Quantity:
        return Quantity(self.value + self._same_unit(other), self.unit)

    def __sub__(self, other: Quantity) -> Quantity:
        return Quantity(self.value - self._same_unit(other), self.unit)

    def __mul__(self, number: float) -> Quantity:
        return Quantity(self.value * number, self.unit)

    __rmul__ = __mul__

    def __lt__(self, other: Quantity) -> bool:
        return self.value < convert(other.value, other.unit, self.unit)

    def isclose(self, other: Quantity, rel_tol: float = 1e-9) -> bool:
        return math.isclose(self.value, convert(other.value, other.unit, self.unit), rel_tol=rel_tol)

    def __str__(self) -> str:
        from unitconv.formatting import format_quantity

        return format_quantity(self)
