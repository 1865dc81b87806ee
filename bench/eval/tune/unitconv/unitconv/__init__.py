"""Convert between units of measurement: `convert(3, "ft", "m")`, `Quantity.parse("12 km/h")`."""

from unitconv.formatting import format_number, format_quantity
from unitconv.quantity import Quantity
from unitconv.units import (
    IncompatibleUnits,
    UnitError,
    UnknownUnit,
    compatible,
    convert,
    convert_difference,
    describe,
    dimension_of,
    find_unit,
    named_si_unit,
    parse_unit,
    si_unit_for,
    units_of,
)

__all__ = [
    "IncompatibleUnits",
    "Quantity",
    "UnitError",
    "UnknownUnit",
    "compatible",
    "convert",
    "convert_difference",
    "describe",
    "dimension_of",
    "find_unit",
    "format_number",
    "format_quantity",
    "named_si_unit",
    "parse_unit",
    "si_unit_for",
    "units_of",
]
