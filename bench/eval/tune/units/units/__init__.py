"""Unit conversions and quantities written as text ("5 ft", "2.5 kg")."""

from units.convert import UnitError, category_of, convert
from units.quantity import Quantity, parse_quantity

__all__ = ["Quantity", "UnitError", "category_of", "convert", "parse_quantity"]
