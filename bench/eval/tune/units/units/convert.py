"""Unit conversions for everyday quantities: one function per pair, plus a generic `convert`.

Each category keeps its units as factors to one base unit (metre, kilogram, litre ...),
and every named function converts through that base, so `feet_to_metres(x)` is
`x * LENGTH["foot"] / LENGTH["metre"]`. US customary volumes are US liquid measures.
The named functions exist so call sites read as what they mean and so a typo is an
AttributeError, not a silent wrong unit.
"""

from __future__ import annotations

# length: factors to one metre
LENGTH: dict[str, float] = {
    "millimetre": 0.001,
    "centimetre": 0.01,
    "metre": 1.0,
    "kilometre": 1000.0,
    "inch": 0.0254,
    "foot": 0.3048,
    "yard": 0.9144,
    "mile": 1609.344,
    "nautical_mile": 1852.0,
    "fathom": 1.8288,
}
LENGTH_SYMBOLS: dict[str, str] = {
    "mm": "millimetre",
    "cm": "centimetre",
    "m": "metre",
    "km": "kilometre",
    "in": "inch",
    "ft": "foot",
    "yd": "yard",
    "mi": "mile",
    "nmi": "nautical_mile",
    "ftm": "fathom",
}

# mass: factors to one kilogram
MASS: dict[str, float] = {
    "milligram": 1e-06,
    "gram": 0.001,
    "kilogram": 1.0,
    "tonne": 1000.0,
    "ounce": 0.028349523125,
    "pound": 0.45359237,
    "stone": 6.35029318,
    "short_ton": 907.18474,
}
MASS_SYMBOLS: dict[str, str] = {
    "mg": "milligram",
    "g": "gram",
    "kg": "kilogram",
    "t": "tonne",
    "oz": "ounce",
    "lb": "pound",
    "st": "stone",
    "ton": "short_ton",
}

# volume: factors to one litre
VOLUME: dict[str, float] = {
    "millilitre": 0.001,
    "litre": 1.0,
    "cubic_metre": 1000.0,
    "teaspoon": 0.00492892159375,
    "tablespoon": 0.01478676478125,
    "fluid_ounce": 0.0295735295625,
    "cup": 0.2365882365,
    "pint": 0.473176473,
    "quart": 0.946352946,
    "gallon": 3.785411784,
}
VOLUME_SYMBOLS: dict[str, str] = {
    "ml": "millilitre",
    "l": "litre",
    "m3": "cubic_metre",
    "tsp": "teaspoon",
    "tbsp": "tablespoon",
    "floz": "fluid_ounce",
    "cup": "cup",
    "pt": "pint",
    "qt": "quart",
    "gal": "gallon",
}

# area: factors to one square_metre
AREA: dict[str, float] = {
    "square_centimetre": 0.0001,
    "square_metre": 1.0,
    "hectare": 10000.0,
    "square_kilometre": 1000000.0,
    "square_foot": 0.09290304,
    "acre": 4046.8564224,
}
AREA_SYMBOLS: dict[str, str] = {
    "cm2": "square_centimetre",
    "m2": "square_metre",
    "ha": "hectare",
    "km2": "square_kilometre",
    "ft2": "square_foot",
    "ac": "acre",
}

# duration: factors to one second
DURATION: dict[str, float] = {
    "millisecond": 0.001,
    "second": 1.0,
    "minute": 60.0,
    "hour": 3600.0,
    "day": 86400.0,
    "week": 604800.0,
}
DURATION_SYMBOLS: dict[str, str] = {
    "ms": "millisecond",
    "s": "second",
    "min": "minute",
    "h": "hour",
    "d": "day",
    "wk": "week",
}

# speed: factors to one metre_per_second
SPEED: dict[str, float] = {
    "metre_per_second": 1.0,
    "kilometre_per_hour": 0.2777777777777778,
    "mile_per_hour": 0.44704,
    "knot": 0.514444444,
}
SPEED_SYMBOLS: dict[str, str] = {
    "m/s": "metre_per_second",
    "km/h": "kilometre_per_hour",
    "mph": "mile_per_hour",
    "kn": "knot",
}

# pressure: factors to one pascal
PRESSURE: dict[str, float] = {
    "pascal": 1.0,
    "kilopascal": 1000.0,
    "bar": 100000.0,
    "atmosphere": 101325.0,
    "psi": 6894.757293168,
}
PRESSURE_SYMBOLS: dict[str, str] = {
    "Pa": "pascal",
    "kPa": "kilopascal",
    "bar": "bar",
    "atm": "atmosphere",
    "psi": "psi",
}

# energy: factors to one joule
ENERGY: dict[str, float] = {
    "joule": 1.0,
    "kilojoule": 1000.0,
    "calorie": 4.184,
    "kilocalorie": 4184.0,
    "watt_hour": 3600.0,
    "kilowatt_hour": 3600000.0,
}
ENERGY_SYMBOLS: dict[str, str] = {
    "J": "joule",
    "kJ": "kilojoule",
    "cal": "calorie",
    "kcal": "kilocalorie",
    "Wh": "watt_hour",
    "kWh": "kilowatt_hour",
}

TABLES: dict[str, dict[str, float]] = {
    "length": LENGTH,
    "mass": MASS,
    "volume": VOLUME,
    "area": AREA,
    "duration": DURATION,
    "speed": SPEED,
    "pressure": PRESSURE,
    "energy": ENERGY,
}
SYMBOLS: dict[str, dict[str, str]] = {
    "length": LENGTH_SYMBOLS,
    "mass": MASS_SYMBOLS,
    "volume": VOLUME_SYMBOLS,
    "area": AREA_SYMBOLS,
    "duration": DURATION_SYMBOLS,
    "speed": SPEED_SYMBOLS,
    "pressure": PRESSURE_SYMBOLS,
    "energy": ENERGY_SYMBOLS,
}


class UnitError(ValueError):
    """An unknown unit, or two units that measure different things."""


def category_of(unit: str) -> str:
    """The category a unit (name or symbol) belongs to."""
    for category, table in TABLES.items():
        if unit in table or unit in SYMBOLS[category]:
            return category
    raise UnitError(f"unknown unit {unit!r}")


def canonical(unit: str) -> str:
    """A unit's full name, from its name or its symbol."""
    category = category_of(unit)
    return SYMBOLS[category].get(unit, unit)


def convert(value: float, source: str, target: str) -> float:
    """`value` in `source` units, expressed in `target` units (names or symbols)."""
    category = category_of(source)
    if category_of(target) != category:
        raise UnitError(f"cannot convert {source} ({category}) to {target}")
    table = TABLES[category]
    return value * table[canonical(source)] / table[canonical(target)]


def celsius_to_fahrenheit(value: float) -> float:
    return value * 9 / 5 + 32


def fahrenheit_to_celsius(value: float) -> float:
    return (value - 32) * 5 / 9


def celsius_to_kelvin(value: float) -> float:
    if value < -273.15:
        raise UnitError("below absolute zero")
    return value + 273.15


def kelvin_to_celsius(value: float) -> float:
    if value < 0:
        raise UnitError("below absolute zero")
    return value - 273.15


def fahrenheit_to_kelvin(value: float) -> float:
    return celsius_to_kelvin(fahrenheit_to_celsius(value))


def kelvin_to_fahrenheit(value: float) -> float:
    return celsius_to_fahrenheit(kelvin_to_celsius(value))


# --- length ---


def millimetres_to_centimetres(value: float) -> float:
    """mm -> cm."""
    return value * LENGTH["millimetre"] / LENGTH["centimetre"]


def millimetres_to_metres(value: float) -> float:
    """mm -> m."""
    return value * LENGTH["millimetre"] / LENGTH["metre"]


def millimetres_to_kilometres(value: float) -> float:
    """mm -> km."""
    return value * LENGTH["millimetre"] / LENGTH["kilometre"]


def millimetres_to_inches(value: float) -> float:
    """mm -> in."""
    return value * LENGTH["millimetre"] / LENGTH["inch"]


def millimetres_to_feet(value: float) -> float:
    """mm -> ft."""
    return value * LENGTH["millimetre"] / LENGTH["foot"]


def millimetres_to_yards(value: float) -> float:
    """mm -> yd."""
    return value * LENGTH["millimetre"] / LENGTH["yard"]


def millimetres_to_miles(value: float) -> float:
    """mm -> mi."""
    return value * LENGTH["millimetre"] / LENGTH["mile"]


def millimetres_to_nautical_miles(value: float) -> float:
    """mm -> nmi."""
    return value * LENGTH["millimetre"] / LENGTH["nautical_mile"]


def millimetres_to_fathoms(value: float) -> float:
    """mm -> ftm."""
    return value * LENGTH["millimetre"] / LENGTH["fathom"]


def centimetres_to_millimetres(value: float) -> float:
    """cm -> mm."""
    return value * LENGTH["centimetre"] / LENGTH["millimetre"]


def centimetres_to_metres(value: float) -> float:
    """cm -> m."""
    return value * LENGTH["centimetre"] / LENGTH["metre"]


def centimetres_to_kilometres(value: float) -> float:
    """cm -> km."""
    return value * LENGTH["centimetre"] / LENGTH["kilometre"]


def centimetres_to_inches(value: float) -> float:
    """cm -> in."""
    return value * LENGTH["centimetre"] / LENGTH["inch"]


def centimetres_to_feet(value: float) -> float:
    """cm -> ft."""
    return value * LENGTH["centimetre"] / LENGTH["foot"]


def centimetres_to_yards(value: float) -> float:
    """cm -> yd."""
    return value * LENGTH["centimetre"] / LENGTH["yard"]


def centimetres_to_miles(value: float) -> float:
    """cm -> mi."""
    return value * LENGTH["centimetre"] / LENGTH["mile"]


def centimetres_to_nautical_miles(value: float) -> float:
    """cm -> nmi."""
    return value * LENGTH["centimetre"] / LENGTH["nautical_mile"]


def centimetres_to_fathoms(value: float) -> float:
    """cm -> ftm."""
    return value * LENGTH["centimetre"] / LENGTH["fathom"]


def metres_to_millimetres(value: float) -> float:
    """m -> mm."""
    return value * LENGTH["metre"] / LENGTH["millimetre"]


def metres_to_centimetres(value: float) -> float:
    """m -> cm."""
    return value * LENGTH["metre"] / LENGTH["centimetre"]


def metres_to_kilometres(value: float) -> float:
    """m -> km."""
    return value * LENGTH["metre"] / LENGTH["kilometre"]


def metres_to_inches(value: float) -> float:
    """m -> in."""
    return value * LENGTH["metre"] / LENGTH["inch"]


def metres_to_feet(value: float) -> float:
    """m -> ft."""
    return value * LENGTH["metre"] / LENGTH["foot"]


def metres_to_yards(value: float) -> float:
    """m -> yd."""
    return value * LENGTH["metre"] / LENGTH["yard"]


def metres_to_miles(value: float) -> float:
    """m -> mi."""
    return value * LENGTH["metre"] / LENGTH["mile"]


def metres_to_nautical_miles(value: float) -> float:
    """m -> nmi."""
    return value * LENGTH["metre"] / LENGTH["nautical_mile"]


def metres_to_fathoms(value: float) -> float:
    """m -> ftm."""
    return value * LENGTH["metre"] / LENGTH["fathom"]


def kilometres_to_millimetres(value: float) -> float:
    """km -> mm."""
    return value * LENGTH["kilometre"] / LENGTH["millimetre"]


def kilometres_to_centimetres(value: float) -> float:
    """km -> cm."""
    return value * LENGTH["kilometre"] / LENGTH["centimetre"]


def kilometres_to_metres(value: float) -> float:
    """km -> m."""
    return value * LENGTH["kilometre"] / LENGTH["metre"]


def kilometres_to_inches(value: float) -> float:
    """km -> in."""
    return value * LENGTH["kilometre"] / LENGTH["inch"]


def kilometres_to_feet(value: float) -> float:
    """km -> ft."""
    return value * LENGTH["kilometre"] / LENGTH["foot"]


def kilometres_to_yards(value: float) -> float:
    """km -> yd."""
    return value * LENGTH["kilometre"] / LENGTH["yard"]


def kilometres_to_miles(value: float) -> float:
    """km -> mi."""
    return value * LENGTH["kilometre"] / LENGTH["mile"]


def kilometres_to_nautical_miles(value: float) -> float:
    """km -> nmi."""
    return value * LENGTH["kilometre"] / LENGTH["nautical_mile"]


def kilometres_to_fathoms(value: float) -> float:
    """km -> ftm."""
    return value * LENGTH["kilometre"] / LENGTH["fathom"]


def inches_to_millimetres(value: float) -> float:
    """in -> mm."""
    return value * LENGTH["inch"] / LENGTH["millimetre"]


def inches_to_centimetres(value: float) -> float:
    """in -> cm."""
    return value * LENGTH["inch"] / LENGTH["centimetre"]


def inches_to_metres(value: float) -> float:
    """in -> m."""
    return value * LENGTH["inch"] / LENGTH["metre"]


def inches_to_kilometres(value: float) -> float:
    """in -> km."""
    return value * LENGTH["inch"] / LENGTH["kilometre"]


def inches_to_feet(value: float) -> float:
    """in -> ft."""
    return value * LENGTH["inch"] / LENGTH["foot"]


def inches_to_yards(value: float) -> float:
    """in -> yd."""
    return value * LENGTH["inch"] / LENGTH["yard"]


def inches_to_miles(value: float) -> float:
    """in -> mi."""
    return value * LENGTH["inch"] / LENGTH["mile"]


def inches_to_nautical_miles(value: float) -> float:
    """in -> nmi."""
    return value * LENGTH["inch"] / LENGTH["nautical_mile"]


def inches_to_fathoms(value: float) -> float:
    """in -> ftm."""
    return value * LENGTH["inch"] / LENGTH["fathom"]


def feet_to_millimetres(value: float) -> float:
    """ft -> mm."""
    return value * LENGTH["foot"] / LENGTH["millimetre"]


def feet_to_centimetres(value: float) -> float:
    """ft -> cm."""
    return value * LENGTH["foot"] / LENGTH["centimetre"]


def feet_to_metres(value: float) -> float:
    """ft -> m."""
    return value * LENGTH["foot"] / LENGTH["metre"]


def feet_to_kilometres(value: float) -> float:
    """ft -> km."""
    return value * LENGTH["foot"] / LENGTH["kilometre"]


def feet_to_inches(value: float) -> float:
    """ft -> in."""
    return value * LENGTH["foot"] / LENGTH["inch"]


def feet_to_yards(value: float) -> float:
    """ft -> yd."""
    return value * LENGTH["foot"] / LENGTH["yard"]


def feet_to_miles(value: float) -> float:
    """ft -> mi."""
    return value * LENGTH["foot"] / LENGTH["mile"]


def feet_to_nautical_miles(value: float) -> float:
    """ft -> nmi."""
    return value * LENGTH["foot"] / LENGTH["nautical_mile"]


def feet_to_fathoms(value: float) -> float:
    """ft -> ftm."""
    return value * LENGTH["foot"] / LENGTH["fathom"]


def yards_to_millimetres(value: float) -> float:
    """yd -> mm."""
    return value * LENGTH["yard"] / LENGTH["millimetre"]


def yards_to_centimetres(value: float) -> float:
    """yd -> cm."""
    return value * LENGTH["yard"] / LENGTH["centimetre"]


def yards_to_metres(value: float) -> float:
    """yd -> m."""
    return value * LENGTH["yard"] / LENGTH["metre"]


def yards_to_kilometres(value: float) -> float:
    """yd -> km."""
    return value * LENGTH["yard"] / LENGTH["kilometre"]


def yards_to_inches(value: float) -> float:
    """yd -> in."""
    return value * LENGTH["yard"] / LENGTH["inch"]


def yards_to_feet(value: float) -> float:
    """yd -> ft."""
    return value * LENGTH["yard"] / LENGTH["foot"]


def yards_to_miles(value: float) -> float:
    """yd -> mi."""
    return value * LENGTH["yard"] / LENGTH["mile"]


def yards_to_nautical_miles(value: float) -> float:
    """yd -> nmi."""
    return value * LENGTH["yard"] / LENGTH["nautical_mile"]


def yards_to_fathoms(value: float) -> float:
    """yd -> ftm."""
    return value * LENGTH["yard"] / LENGTH["fathom"]


def miles_to_millimetres(value: float) -> float:
    """mi -> mm."""
    return value * LENGTH["mile"] / LENGTH["millimetre"]


def miles_to_centimetres(value: float) -> float:
    """mi -> cm."""
    return value * LENGTH["mile"] / LENGTH["centimetre"]


def miles_to_metres(value: float) -> float:
    """mi -> m."""
    return value * LENGTH["mile"] / LENGTH["metre"]


def miles_to_kilometres(value: float) -> float:
    """mi -> km."""
    return value * LENGTH["mile"] / LENGTH["kilometre"]


def miles_to_inches(value: float) -> float:
    """mi -> in."""
    return value * LENGTH["mile"] / LENGTH["inch"]


def miles_to_feet(value: float) -> float:
    """mi -> ft."""
    return value * LENGTH["mile"] / LENGTH["foot"]


def miles_to_yards(value: float) -> float:
    """mi -> yd."""
    return value * LENGTH["mile"] / LENGTH["yard"]


def miles_to_nautical_miles(value: float) -> float:
    """mi -> nmi."""
    return value * LENGTH["mile"] / LENGTH["nautical_mile"]


def miles_to_fathoms(value: float) -> float:
    """mi -> ftm."""
    return value * LENGTH["mile"] / LENGTH["fathom"]


def nautical_miles_to_millimetres(value: float) -> float:
    """nmi -> mm."""
    return value * LENGTH["nautical_mile"] / LENGTH["millimetre"]


def nautical_miles_to_centimetres(value: float) -> float:
    """nmi -> cm."""
    return value * LENGTH["nautical_mile"] / LENGTH["centimetre"]


def nautical_miles_to_metres(value: float) -> float:
    """nmi -> m."""
    return value * LENGTH["nautical_mile"] / LENGTH["metre"]


def nautical_miles_to_kilometres(value: float) -> float:
    """nmi -> km."""
    return value * LENGTH["nautical_mile"] / LENGTH["kilometre"]


def nautical_miles_to_inches(value: float) -> float:
    """nmi -> in."""
    return value * LENGTH["nautical_mile"] / LENGTH["inch"]


def nautical_miles_to_feet(value: float) -> float:
    """nmi -> ft."""
    return value * LENGTH["nautical_mile"] / LENGTH["foot"]


def nautical_miles_to_yards(value: float) -> float:
    """nmi -> yd."""
    return value * LENGTH["nautical_mile"] / LENGTH["yard"]


def nautical_miles_to_miles(value: float) -> float:
    """nmi -> mi."""
    return value * LENGTH["nautical_mile"] / LENGTH["mile"]


def nautical_miles_to_fathoms(value: float) -> float:
    """nmi -> ftm."""
    return value * LENGTH["nautical_mile"] / LENGTH["fathom"]


def fathoms_to_millimetres(value: float) -> float:
    """ftm -> mm."""
    return value * LENGTH["fathom"] / LENGTH["millimetre"]


def fathoms_to_centimetres(value: float) -> float:
    """ftm -> cm."""
    return value * LENGTH["fathom"] / LENGTH["centimetre"]


def fathoms_to_metres(value: float) -> float:
    """ftm -> m."""
    return value * LENGTH["fathom"] / LENGTH["metre"]


def fathoms_to_kilometres(value: float) -> float:
    """ftm -> km."""
    return value * LENGTH["fathom"] / LENGTH["kilometre"]


def fathoms_to_inches(value: float) -> float:
    """ftm -> in."""
    return value * LENGTH["fathom"] / LENGTH["inch"]


def fathoms_to_feet(value: float) -> float:
    """ftm -> ft."""
    return value * LENGTH["fathom"] / LENGTH["foot"]


def fathoms_to_yards(value: float) -> float:
    """ftm -> yd."""
    return value * LENGTH["fathom"] / LENGTH["yard"]


def fathoms_to_miles(value: float) -> float:
    """ftm -> mi."""
    return value * LENGTH["fathom"] / LENGTH["mile"]


def fathoms_to_nautical_miles(value: float) -> float:
    """ftm -> nmi."""
    return value * LENGTH["fathom"] / LENGTH["nautical_mile"]

# --- mass ---


def milligrams_to_grams(value: float) -> float:
    """mg -> g."""
    return value * MASS["milligram"] / MASS["gram"]


def milligrams_to_kilograms(value: float) -> float:
    """mg -> kg."""
    return value * MASS["milligram"] / MASS["kilogram"]


def milligrams_to_tonnes(value: float) -> float:
    """mg -> t."""
    return value * MASS["milligram"] / MASS["tonne"]


def milligrams_to_ounces(value: float) -> float:
    """mg -> oz."""
    return value * MASS["milligram"] / MASS["ounce"]


def milligrams_to_pounds(value: float) -> float:
    """mg -> lb."""
    return value * MASS["milligram"] / MASS["pound"]


def milligrams_to_stones(value: float) -> float:
    """mg -> st."""
    return value * MASS["milligram"] / MASS["stone"]


def milligrams_to_short_tons(value: float) -> float:
    """mg -> ton."""
    return value * MASS["milligram"] / MASS["short_ton"]


def grams_to_milligrams(value: float) -> float:
    """g -> mg."""
    return value * MASS["gram"] / MASS["milligram"]


def grams_to_kilograms(value: float) -> float:
    """g -> kg."""
    return value * MASS["gram"] / MASS["kilogram"]


def grams_to_tonnes(value: float) -> float:
    """g -> t."""
    return value * MASS["gram"] / MASS["tonne"]


def grams_to_ounces(value: float) -> float:
    """g -> oz."""
    return value * MASS["gram"] / MASS["ounce"]


def grams_to_pounds(value: float) -> float:
    """g -> lb."""
    return value * MASS["gram"] / MASS["pound"]


def grams_to_stones(value: float) -> float:
    """g -> st."""
    return value * MASS["gram"] / MASS["stone"]


def grams_to_short_tons(value: float) -> float:
    """g -> ton."""
    return value * MASS["gram"] / MASS["short_ton"]


def kilograms_to_milligrams(value: float) -> float:
    """kg -> mg."""
    return value * MASS["kilogram"] / MASS["milligram"]


def kilograms_to_grams(value: float) -> float:
    """kg -> g."""
    return value * MASS["kilogram"] / MASS["gram"]


def kilograms_to_tonnes(value: float) -> float:
    """kg -> t."""
    return value * MASS["kilogram"] / MASS["tonne"]


def kilograms_to_ounces(value: float) -> float:
    """kg -> oz."""
    return value * MASS["kilogram"] / MASS["ounce"]


def kilograms_to_pounds(value: float) -> float:
    """kg -> lb."""
    return value * MASS["kilogram"] / MASS["pound"]


def kilograms_to_stones(value: float) -> float:
    """kg -> st."""
    return value * MASS["kilogram"] / MASS["stone"]


def kilograms_to_short_tons(value: float) -> float:
    """kg -> ton."""
    return value * MASS["kilogram"] / MASS["short_ton"]


def tonnes_to_milligrams(value: float) -> float:
    """t -> mg."""
    return value * MASS["tonne"] / MASS["milligram"]


def tonnes_to_grams(value: float) -> float:
    """t -> g."""
    return value * MASS["tonne"] / MASS["gram"]


def tonnes_to_kilograms(value: float) -> float:
    """t -> kg."""
    return value * MASS["tonne"] / MASS["kilogram"]


def tonnes_to_ounces(value: float) -> float:
    """t -> oz."""
    return value * MASS["tonne"] / MASS["ounce"]


def tonnes_to_pounds(value: float) -> float:
    """t -> lb."""
    return value * MASS["tonne"] / MASS["pound"]


def tonnes_to_stones(value: float) -> float:
    """t -> st."""
    return value * MASS["tonne"] / MASS["stone"]


def tonnes_to_short_tons(value: float) -> float:
    """t -> ton."""
    return value * MASS["tonne"] / MASS["short_ton"]


def ounces_to_milligrams(value: float) -> float:
    """oz -> mg."""
    return value * MASS["ounce"] / MASS["milligram"]


def ounces_to_grams(value: float) -> float:
    """oz -> g."""
    return value * MASS["ounce"] / MASS["gram"]


def ounces_to_kilograms(value: float) -> float:
    """oz -> kg."""
    return value * MASS["ounce"] / MASS["kilogram"]


def ounces_to_tonnes(value: float) -> float:
    """oz -> t."""
    return value * MASS["ounce"] / MASS["tonne"]


def ounces_to_pounds(value: float) -> float:
    """oz -> lb."""
    return value * MASS["ounce"] / MASS["pound"]


def ounces_to_stones(value: float) -> float:
    """oz -> st."""
    return value * MASS["ounce"] / MASS["stone"]


def ounces_to_short_tons(value: float) -> float:
    """oz -> ton."""
    return value * MASS["ounce"] / MASS["short_ton"]


def pounds_to_milligrams(value: float) -> float:
    """lb -> mg."""
    return value * MASS["pound"] / MASS["milligram"]


def pounds_to_grams(value: float) -> float:
    """lb -> g."""
    return value * MASS["pound"] / MASS["gram"]


def pounds_to_kilograms(value: float) -> float:
    """lb -> kg."""
    return value * MASS["pound"] / MASS["kilogram"]


def pounds_to_tonnes(value: float) -> float:
    """lb -> t."""
    return value * MASS["pound"] / MASS["tonne"]


def pounds_to_ounces(value: float) -> float:
    """lb -> oz."""
    return value * MASS["pound"] / MASS["ounce"]


def pounds_to_stones(value: float) -> float:
    """lb -> st."""
    return value * MASS["pound"] / MASS["stone"]


def pounds_to_short_tons(value: float) -> float:
    """lb -> ton."""
    return value * MASS["pound"] / MASS["short_ton"]


def stones_to_milligrams(value: float) -> float:
    """st -> mg."""
    return value * MASS["stone"] / MASS["milligram"]


def stones_to_grams(value: float) -> float:
    """st -> g."""
    return value * MASS["stone"] / MASS["gram"]


def stones_to_kilograms(value: float) -> float:
    """st -> kg."""
    return value * MASS["stone"] / MASS["kilogram"]


def stones_to_tonnes(value: float) -> float:
    """st -> t."""
    return value * MASS["stone"] / MASS["tonne"]


def stones_to_ounces(value: float) -> float:
    """st -> oz."""
    return value * MASS["stone"] / MASS["ounce"]


def stones_to_pounds(value: float) -> float:
    """st -> lb."""
    return value * MASS["stone"] / MASS["pound"]


def stones_to_short_tons(value: float) -> float:
    """st -> ton."""
    return value * MASS["stone"] / MASS["short_ton"]


def short_tons_to_milligrams(value: float) -> float:
    """ton -> mg."""
    return value * MASS["short_ton"] / MASS["milligram"]


def short_tons_to_grams(value: float) -> float:
    """ton -> g."""
    return value * MASS["short_ton"] / MASS["gram"]


def short_tons_to_kilograms(value: float) -> float:
    """ton -> kg."""
    return value * MASS["short_ton"] / MASS["kilogram"]


def short_tons_to_tonnes(value: float) -> float:
    """ton -> t."""
    return value * MASS["short_ton"] / MASS["tonne"]


def short_tons_to_ounces(value: float) -> float:
    """ton -> oz."""
    return value * MASS["short_ton"] / MASS["ounce"]


def short_tons_to_pounds(value: float) -> float:
    """ton -> lb."""
    return value * MASS["short_ton"] / MASS["pound"]


def short_tons_to_stones(value: float) -> float:
    """ton -> st."""
    return value * MASS["short_ton"] / MASS["stone"]

# --- volume ---


def millilitres_to_litres(value: float) -> float:
    """ml -> l."""
    return value * VOLUME["millilitre"] / VOLUME["litre"]


def millilitres_to_cubic_metres(value: float) -> float:
    """ml -> m3."""
    return value * VOLUME["millilitre"] / VOLUME["cubic_metre"]


def millilitres_to_teaspoons(value: float) -> float:
    """ml -> tsp."""
    return value * VOLUME["millilitre"] / VOLUME["teaspoon"]


def millilitres_to_tablespoons(value: float) -> float:
    """ml -> tbsp."""
    return value * VOLUME["millilitre"] / VOLUME["tablespoon"]


def millilitres_to_fluid_ounces(value: float) -> float:
    """ml -> floz."""
    return value * VOLUME["millilitre"] / VOLUME["fluid_ounce"]


def millilitres_to_cups(value: float) -> float:
    """ml -> cup."""
    return value * VOLUME["millilitre"] / VOLUME["cup"]


def millilitres_to_pints(value: float) -> float:
    """ml -> pt."""
    return value * VOLUME["millilitre"] / VOLUME["pint"]


def millilitres_to_quarts(value: float) -> float:
    """ml -> qt."""
    return value * VOLUME["millilitre"] / VOLUME["quart"]


def millilitres_to_gallons(value: float) -> float:
    """ml -> gal."""
    return value * VOLUME["millilitre"] / VOLUME["gallon"]


def litres_to_millilitres(value: float) -> float:
    """l -> ml."""
    return value * VOLUME["litre"] / VOLUME["millilitre"]


def litres_to_cubic_metres(value: float) -> float:
    """l -> m3."""
    return value * VOLUME["litre"] / VOLUME["cubic_metre"]


def litres_to_teaspoons(value: float) -> float:
    """l -> tsp."""
    return value * VOLUME["litre"] / VOLUME["teaspoon"]


def litres_to_tablespoons(value: float) -> float:
    """l -> tbsp."""
    return value * VOLUME["litre"] / VOLUME["tablespoon"]


def litres_to_fluid_ounces(value: float) -> float:
    """l -> floz."""
    return value * VOLUME["litre"] / VOLUME["fluid_ounce"]


def litres_to_cups(value: float) -> float:
    """l -> cup."""
    return value * VOLUME["litre"] / VOLUME["cup"]


def litres_to_pints(value: float) -> float:
    """l -> pt."""
    return value * VOLUME["litre"] / VOLUME["pint"]


def litres_to_quarts(value: float) -> float:
    """l -> qt."""
    return value * VOLUME["litre"] / VOLUME["quart"]


def litres_to_gallons(value: float) -> float:
    """l -> gal."""
    return value * VOLUME["litre"] / VOLUME["gallon"]


def cubic_metres_to_millilitres(value: float) -> float:
    """m3 -> ml."""
    return value * VOLUME["cubic_metre"] / VOLUME["millilitre"]


def cubic_metres_to_litres(value: float) -> float:
    """m3 -> l."""
    return value * VOLUME["cubic_metre"] / VOLUME["litre"]


def cubic_metres_to_teaspoons(value: float) -> float:
    """m3 -> tsp."""
    return value * VOLUME["cubic_metre"] / VOLUME["teaspoon"]


def cubic_metres_to_tablespoons(value: float) -> float:
    """m3 -> tbsp."""
    return value * VOLUME["cubic_metre"] / VOLUME["tablespoon"]


def cubic_metres_to_fluid_ounces(value: float) -> float:
    """m3 -> floz."""
    return value * VOLUME["cubic_metre"] / VOLUME["fluid_ounce"]


def cubic_metres_to_cups(value: float) -> float:
    """m3 -> cup."""
    return value * VOLUME["cubic_metre"] / VOLUME["cup"]


def cubic_metres_to_pints(value: float) -> float:
    """m3 -> pt."""
    return value * VOLUME["cubic_metre"] / VOLUME["pint"]


def cubic_metres_to_quarts(value: float) -> float:
    """m3 -> qt."""
    return value * VOLUME["cubic_metre"] / VOLUME["quart"]


def cubic_metres_to_gallons(value: float) -> float:
    """m3 -> gal."""
    return value * VOLUME["cubic_metre"] / VOLUME["gallon"]


def teaspoons_to_millilitres(value: float) -> float:
    """tsp -> ml."""
    return value * VOLUME["teaspoon"] / VOLUME["millilitre"]


def teaspoons_to_litres(value: float) -> float:
    """tsp -> l."""
    return value * VOLUME["teaspoon"] / VOLUME["litre"]


def teaspoons_to_cubic_metres(value: float) -> float:
    """tsp -> m3."""
    return value * VOLUME["teaspoon"] / VOLUME["cubic_metre"]


def teaspoons_to_tablespoons(value: float) -> float:
    """tsp -> tbsp."""
    return value * VOLUME["teaspoon"] / VOLUME["tablespoon"]


def teaspoons_to_fluid_ounces(value: float) -> float:
    """tsp -> floz."""
    return value * VOLUME["teaspoon"] / VOLUME["fluid_ounce"]


def teaspoons_to_cups(value: float) -> float:
    """tsp -> cup."""
    return value * VOLUME["teaspoon"] / VOLUME["cup"]


def teaspoons_to_pints(value: float) -> float:
    """tsp -> pt."""
    return value * VOLUME["teaspoon"] / VOLUME["pint"]


def teaspoons_to_quarts(value: float) -> float:
    """tsp -> qt."""
    return value * VOLUME["teaspoon"] / VOLUME["quart"]


def teaspoons_to_gallons(value: float) -> float:
    """tsp -> gal."""
    return value * VOLUME["teaspoon"] / VOLUME["gallon"]


def tablespoons_to_millilitres(value: float) -> float:
    """tbsp -> ml."""
    return value * VOLUME["tablespoon"] / VOLUME["millilitre"]


def tablespoons_to_litres(value: float) -> float:
    """tbsp -> l."""
    return value * VOLUME["tablespoon"] / VOLUME["litre"]


def tablespoons_to_cubic_metres(value: float) -> float:
    """tbsp -> m3."""
    return value * VOLUME["tablespoon"] / VOLUME["cubic_metre"]


def tablespoons_to_teaspoons(value: float) -> float:
    """tbsp -> tsp."""
    return value * VOLUME["tablespoon"] / VOLUME["teaspoon"]


def tablespoons_to_fluid_ounces(value: float) -> float:
    """tbsp -> floz."""
    return value * VOLUME["tablespoon"] / VOLUME["fluid_ounce"]


def tablespoons_to_cups(value: float) -> float:
    """tbsp -> cup."""
    return value * VOLUME["tablespoon"] / VOLUME["cup"]


def tablespoons_to_pints(value: float) -> float:
    """tbsp -> pt."""
    return value * VOLUME["tablespoon"] / VOLUME["pint"]


def tablespoons_to_quarts(value: float) -> float:
    """tbsp -> qt."""
    return value * VOLUME["tablespoon"] / VOLUME["quart"]


def tablespoons_to_gallons(value: float) -> float:
    """tbsp -> gal."""
    return value * VOLUME["tablespoon"] / VOLUME["gallon"]


def fluid_ounces_to_millilitres(value: float) -> float:
    """floz -> ml."""
    return value * VOLUME["fluid_ounce"] / VOLUME["millilitre"]


def fluid_ounces_to_litres(value: float) -> float:
    """floz -> l."""
    return value * VOLUME["fluid_ounce"] / VOLUME["litre"]


def fluid_ounces_to_cubic_metres(value: float) -> float:
    """floz -> m3."""
    return value * VOLUME["fluid_ounce"] / VOLUME["cubic_metre"]


def fluid_ounces_to_teaspoons(value: float) -> float:
    """floz -> tsp."""
    return value * VOLUME["fluid_ounce"] / VOLUME["teaspoon"]


def fluid_ounces_to_tablespoons(value: float) -> float:
    """floz -> tbsp."""
    return value * VOLUME["fluid_ounce"] / VOLUME["tablespoon"]


def fluid_ounces_to_cups(value: float) -> float:
    """floz -> cup."""
    return value * VOLUME["fluid_ounce"] / VOLUME["cup"]


def fluid_ounces_to_pints(value: float) -> float:
    """floz -> pt."""
    return value * VOLUME["fluid_ounce"] / VOLUME["pint"]


def fluid_ounces_to_quarts(value: float) -> float:
    """floz -> qt."""
    return value * VOLUME["fluid_ounce"] / VOLUME["quart"]


def fluid_ounces_to_gallons(value: float) -> float:
    """floz -> gal."""
    return value * VOLUME["fluid_ounce"] / VOLUME["gallon"]


def cups_to_millilitres(value: float) -> float:
    """cup -> ml."""
    return value * VOLUME["cup"] / VOLUME["millilitre"]


def cups_to_litres(value: float) -> float:
    """cup -> l."""
    return value * VOLUME["cup"] / VOLUME["litre"]


def cups_to_cubic_metres(value: float) -> float:
    """cup -> m3."""
    return value * VOLUME["cup"] / VOLUME["cubic_metre"]


def cups_to_teaspoons(value: float) -> float:
    """cup -> tsp."""
    return value * VOLUME["cup"] / VOLUME["teaspoon"]


def cups_to_tablespoons(value: float) -> float:
    """cup -> tbsp."""
    return value * VOLUME["cup"] / VOLUME["tablespoon"]


def cups_to_fluid_ounces(value: float) -> float:
    """cup -> floz."""
    return value * VOLUME["cup"] / VOLUME["fluid_ounce"]


def cups_to_pints(value: float) -> float:
    """cup -> pt."""
    return value * VOLUME["cup"] / VOLUME["pint"]


def cups_to_quarts(value: float) -> float:
    """cup -> qt."""
    return value * VOLUME["cup"] / VOLUME["quart"]


def cups_to_gallons(value: float) -> float:
    """cup -> gal."""
    return value * VOLUME["cup"] / VOLUME["gallon"]


def pints_to_millilitres(value: float) -> float:
    """pt -> ml."""
    return value * VOLUME["pint"] / VOLUME["millilitre"]


def pints_to_litres(value: float) -> float:
    """pt -> l."""
    return value * VOLUME["pint"] / VOLUME["litre"]


def pints_to_cubic_metres(value: float) -> float:
    """pt -> m3."""
    return value * VOLUME["pint"] / VOLUME["cubic_metre"]


def pints_to_teaspoons(value: float) -> float:
    """pt -> tsp."""
    return value * VOLUME["pint"] / VOLUME["teaspoon"]


def pints_to_tablespoons(value: float) -> float:
    """pt -> tbsp."""
    return value * VOLUME["pint"] / VOLUME["tablespoon"]


def pints_to_fluid_ounces(value: float) -> float:
    """pt -> floz."""
    return value * VOLUME["pint"] / VOLUME["fluid_ounce"]


def pints_to_cups(value: float) -> float:
    """pt -> cup."""
    return value * VOLUME["pint"] / VOLUME["cup"]


def pints_to_quarts(value: float) -> float:
    """pt -> qt."""
    return value * VOLUME["pint"] / VOLUME["quart"]


def pints_to_gallons(value: float) -> float:
    """pt -> gal."""
    return value * VOLUME["pint"] / VOLUME["gallon"]


def quarts_to_millilitres(value: float) -> float:
    """qt -> ml."""
    return value * VOLUME["quart"] / VOLUME["millilitre"]


def quarts_to_litres(value: float) -> float:
    """qt -> l."""
    return value * VOLUME["quart"] / VOLUME["litre"]


def quarts_to_cubic_metres(value: float) -> float:
    """qt -> m3."""
    return value * VOLUME["quart"] / VOLUME["cubic_metre"]


def quarts_to_teaspoons(value: float) -> float:
    """qt -> tsp."""
    return value * VOLUME["quart"] / VOLUME["teaspoon"]


def quarts_to_tablespoons(value: float) -> float:
    """qt -> tbsp."""
    return value * VOLUME["quart"] / VOLUME["tablespoon"]


def quarts_to_fluid_ounces(value: float) -> float:
    """qt -> floz."""
    return value * VOLUME["quart"] / VOLUME["fluid_ounce"]


def quarts_to_cups(value: float) -> float:
    """qt -> cup."""
    return value * VOLUME["quart"] / VOLUME["cup"]


def quarts_to_pints(value: float) -> float:
    """qt -> pt."""
    return value * VOLUME["quart"] / VOLUME["pint"]


def quarts_to_gallons(value: float) -> float:
    """qt -> gal."""
    return value * VOLUME["quart"] / VOLUME["gallon"]


def gallons_to_millilitres(value: float) -> float:
    """gal -> ml."""
    return value * VOLUME["gallon"] / VOLUME["millilitre"]


def gallons_to_litres(value: float) -> float:
    """gal -> l."""
    return value * VOLUME["litre"] / VOLUME["gallon"]


def gallons_to_cubic_metres(value: float) -> float:
    """gal -> m3."""
    return value * VOLUME["gallon"] / VOLUME["cubic_metre"]


def gallons_to_teaspoons(value: float) -> float:
    """gal -> tsp."""
    return value * VOLUME["gallon"] / VOLUME["teaspoon"]


def gallons_to_tablespoons(value: float) -> float:
    """gal -> tbsp."""
    return value * VOLUME["gallon"] / VOLUME["tablespoon"]


def gallons_to_fluid_ounces(value: float) -> float:
    """gal -> floz."""
    return value * VOLUME["gallon"] / VOLUME["fluid_ounce"]


def gallons_to_cups(value: float) -> float:
    """gal -> cup."""
    return value * VOLUME["gallon"] / VOLUME["cup"]


def gallons_to_pints(value: float) -> float:
    """gal -> pt."""
    return value * VOLUME["gallon"] / VOLUME["pint"]


def gallons_to_quarts(value: float) -> float:
    """gal -> qt."""
    return value * VOLUME["gallon"] / VOLUME["quart"]

# --- area ---


def square_centimetres_to_square_metres(value: float) -> float:
    """cm2 -> m2."""
    return value * AREA["square_centimetre"] / AREA["square_metre"]


def square_centimetres_to_hectares(value: float) -> float:
    """cm2 -> ha."""
    return value * AREA["square_centimetre"] / AREA["hectare"]


def square_centimetres_to_square_kilometres(value: float) -> float:
    """cm2 -> km2."""
    return value * AREA["square_centimetre"] / AREA["square_kilometre"]


def square_centimetres_to_square_feet(value: float) -> float:
    """cm2 -> ft2."""
    return value * AREA["square_centimetre"] / AREA["square_foot"]


def square_centimetres_to_acres(value: float) -> float:
    """cm2 -> ac."""
    return value * AREA["square_centimetre"] / AREA["acre"]


def square_metres_to_square_centimetres(value: float) -> float:
    """m2 -> cm2."""
    return value * AREA["square_metre"] / AREA["square_centimetre"]


def square_metres_to_hectares(value: float) -> float:
    """m2 -> ha."""
    return value * AREA["square_metre"] / AREA["hectare"]


def square_metres_to_square_kilometres(value: float) -> float:
    """m2 -> km2."""
    return value * AREA["square_metre"] / AREA["square_kilometre"]


def square_metres_to_square_feet(value: float) -> float:
    """m2 -> ft2."""
    return value * AREA["square_metre"] / AREA["square_foot"]


def square_metres_to_acres(value: float) -> float:
    """m2 -> ac."""
    return value * AREA["square_metre"] / AREA["acre"]


def hectares_to_square_centimetres(value: float) -> float:
    """ha -> cm2."""
    return value * AREA["hectare"] / AREA["square_centimetre"]


def hectares_to_square_metres(value: float) -> float:
    """ha -> m2."""
    return value * AREA["hectare"] / AREA["square_metre"]


def hectares_to_square_kilometres(value: float) -> float:
    """ha -> km2."""
    return value * AREA["hectare"] / AREA["square_kilometre"]


def hectares_to_square_feet(value: float) -> float:
    """ha -> ft2."""
    return value * AREA["hectare"] / AREA["square_foot"]


def hectares_to_acres(value: float) -> float:
    """ha -> ac."""
    return value * AREA["hectare"] / AREA["acre"]


def square_kilometres_to_square_centimetres(value: float) -> float:
    """km2 -> cm2."""
    return value * AREA["square_kilometre"] / AREA["square_centimetre"]


def square_kilometres_to_square_metres(value: float) -> float:
    """km2 -> m2."""
    return value * AREA["square_kilometre"] / AREA["square_metre"]


def square_kilometres_to_hectares(value: float) -> float:
    """km2 -> ha."""
    return value * AREA["square_kilometre"] / AREA["hectare"]


def square_kilometres_to_square_feet(value: float) -> float:
    """km2 -> ft2."""
    return value * AREA["square_kilometre"] / AREA["square_foot"]


def square_kilometres_to_acres(value: float) -> float:
    """km2 -> ac."""
    return value * AREA["square_kilometre"] / AREA["acre"]


def square_feet_to_square_centimetres(value: float) -> float:
    """ft2 -> cm2."""
    return value * AREA["square_foot"] / AREA["square_centimetre"]


def square_feet_to_square_metres(value: float) -> float:
    """ft2 -> m2."""
    return value * AREA["square_foot"] / AREA["square_metre"]


def square_feet_to_hectares(value: float) -> float:
    """ft2 -> ha."""
    return value * AREA["square_foot"] / AREA["hectare"]


def square_feet_to_square_kilometres(value: float) -> float:
    """ft2 -> km2."""
    return value * AREA["square_foot"] / AREA["square_kilometre"]


def square_feet_to_acres(value: float) -> float:
    """ft2 -> ac."""
    return value * AREA["square_foot"] / AREA["acre"]


def acres_to_square_centimetres(value: float) -> float:
    """ac -> cm2."""
    return value * AREA["acre"] / AREA["square_centimetre"]


def acres_to_square_metres(value: float) -> float:
    """ac -> m2."""
    return value * AREA["acre"] / AREA["square_metre"]


def acres_to_hectares(value: float) -> float:
    """ac -> ha."""
    return value * AREA["acre"] / AREA["hectare"]


def acres_to_square_kilometres(value: float) -> float:
    """ac -> km2."""
    return value * AREA["acre"] / AREA["square_kilometre"]


def acres_to_square_feet(value: float) -> float:
    """ac -> ft2."""
    return value * AREA["acre"] / AREA["square_foot"]

# --- duration ---


def milliseconds_to_seconds(value: float) -> float:
    """ms -> s."""
    return value * DURATION["millisecond"] / DURATION["second"]


def milliseconds_to_minutes(value: float) -> float:
    """ms -> min."""
    return value * DURATION["millisecond"] / DURATION["minute"]


def milliseconds_to_hours(value: float) -> float:
    """ms -> h."""
    return value * DURATION["millisecond"] / DURATION["hour"]


def milliseconds_to_days(value: float) -> float:
    """ms -> d."""
    return value * DURATION["millisecond"] / DURATION["day"]


def milliseconds_to_weeks(value: float) -> float:
    """ms -> wk."""
    return value * DURATION["millisecond"] / DURATION["week"]


def seconds_to_milliseconds(value: float) -> float:
    """s -> ms."""
    return value * DURATION["second"] / DURATION["millisecond"]


def seconds_to_minutes(value: float) -> float:
    """s -> min."""
    return value * DURATION["second"] / DURATION["minute"]


def seconds_to_hours(value: float) -> float:
    """s -> h."""
    return value * DURATION["second"] / DURATION["hour"]


def seconds_to_days(value: float) -> float:
    """s -> d."""
    return value * DURATION["second"] / DURATION["day"]


def seconds_to_weeks(value: float) -> float:
    """s -> wk."""
    return value * DURATION["second"] / DURATION["week"]


def minutes_to_milliseconds(value: float) -> float:
    """min -> ms."""
    return value * DURATION["minute"] / DURATION["millisecond"]


def minutes_to_seconds(value: float) -> float:
    """min -> s."""
    return value * DURATION["minute"] / DURATION["second"]


def minutes_to_hours(value: float) -> float:
    """min -> h."""
    return value * DURATION["minute"] / DURATION["hour"]


def minutes_to_days(value: float) -> float:
    """min -> d."""
    return value * DURATION["minute"] / DURATION["day"]


def minutes_to_weeks(value: float) -> float:
    """min -> wk."""
    return value * DURATION["minute"] / DURATION["week"]


def hours_to_milliseconds(value: float) -> float:
    """h -> ms."""
    return value * DURATION["hour"] / DURATION["millisecond"]


def hours_to_seconds(value: float) -> float:
    """h -> s."""
    return value * DURATION["hour"] / DURATION["second"]


def hours_to_minutes(value: float) -> float:
    """h -> min."""
    return value * DURATION["hour"] / DURATION["minute"]


def hours_to_days(value: float) -> float:
    """h -> d."""
    return value * DURATION["hour"] / DURATION["day"]


def hours_to_weeks(value: float) -> float:
    """h -> wk."""
    return value * DURATION["hour"] / DURATION["week"]


def days_to_milliseconds(value: float) -> float:
    """d -> ms."""
    return value * DURATION["day"] / DURATION["millisecond"]


def days_to_seconds(value: float) -> float:
    """d -> s."""
    return value * DURATION["day"] / DURATION["second"]


def days_to_minutes(value: float) -> float:
    """d -> min."""
    return value * DURATION["day"] / DURATION["minute"]


def days_to_hours(value: float) -> float:
    """d -> h."""
    return value * DURATION["day"] / DURATION["hour"]


def days_to_weeks(value: float) -> float:
    """d -> wk."""
    return value * DURATION["day"] / DURATION["week"]


def weeks_to_milliseconds(value: float) -> float:
    """wk -> ms."""
    return value * DURATION["week"] / DURATION["millisecond"]


def weeks_to_seconds(value: float) -> float:
    """wk -> s."""
    return value * DURATION["week"] / DURATION["second"]


def weeks_to_minutes(value: float) -> float:
    """wk -> min."""
    return value * DURATION["week"] / DURATION["minute"]


def weeks_to_hours(value: float) -> float:
    """wk -> h."""
    return value * DURATION["week"] / DURATION["hour"]


def weeks_to_days(value: float) -> float:
    """wk -> d."""
    return value * DURATION["week"] / DURATION["day"]

# --- speed ---


def metres_per_second_to_kilometres_per_hour(value: float) -> float:
    """m/s -> km/h."""
    return value * SPEED["metre_per_second"] / SPEED["kilometre_per_hour"]


def metres_per_second_to_miles_per_hour(value: float) -> float:
    """m/s -> mph."""
    return value * SPEED["metre_per_second"] / SPEED["mile_per_hour"]


def metres_per_second_to_knots(value: float) -> float:
    """m/s -> kn."""
    return value * SPEED["metre_per_second"] / SPEED["knot"]


def kilometres_per_hour_to_metres_per_second(value: float) -> float:
    """km/h -> m/s."""
    return value * SPEED["kilometre_per_hour"] / SPEED["metre_per_second"]


def kilometres_per_hour_to_miles_per_hour(value: float) -> float:
    """km/h -> mph."""
    return value * SPEED["kilometre_per_hour"] / SPEED["mile_per_hour"]


def kilometres_per_hour_to_knots(value: float) -> float:
    """km/h -> kn."""
    return value * SPEED["kilometre_per_hour"] / SPEED["knot"]


def miles_per_hour_to_metres_per_second(value: float) -> float:
    """mph -> m/s."""
    return value * SPEED["mile_per_hour"] / SPEED["metre_per_second"]


def miles_per_hour_to_kilometres_per_hour(value: float) -> float:
    """mph -> km/h."""
    return value * SPEED["mile_per_hour"] / SPEED["kilometre_per_hour"]


def miles_per_hour_to_knots(value: float) -> float:
    """mph -> kn."""
    return value * SPEED["mile_per_hour"] / SPEED["knot"]


def knots_to_metres_per_second(value: float) -> float:
    """kn -> m/s."""
    return value * SPEED["knot"] / SPEED["metre_per_second"]


def knots_to_kilometres_per_hour(value: float) -> float:
    """kn -> km/h."""
    return value * SPEED["knot"] / SPEED["kilometre_per_hour"]


def knots_to_miles_per_hour(value: float) -> float:
    """kn -> mph."""
    return value * SPEED["knot"] / SPEED["mile_per_hour"]

# --- pressure ---


def pascals_to_kilopascals(value: float) -> float:
    """Pa -> kPa."""
    return value * PRESSURE["pascal"] / PRESSURE["kilopascal"]


def pascals_to_bars(value: float) -> float:
    """Pa -> bar."""
    return value * PRESSURE["pascal"] / PRESSURE["bar"]


def pascals_to_atmospheres(value: float) -> float:
    """Pa -> atm."""
    return value * PRESSURE["pascal"] / PRESSURE["atmosphere"]


def pascals_to_psi(value: float) -> float:
    """Pa -> psi."""
    return value * PRESSURE["pascal"] / PRESSURE["psi"]


def kilopascals_to_pascals(value: float) -> float:
    """kPa -> Pa."""
    return value * PRESSURE["kilopascal"] / PRESSURE["pascal"]


def kilopascals_to_bars(value: float) -> float:
    """kPa -> bar."""
    return value * PRESSURE["kilopascal"] / PRESSURE["bar"]


def kilopascals_to_atmospheres(value: float) -> float:
    """kPa -> atm."""
    return value * PRESSURE["kilopascal"] / PRESSURE["atmosphere"]


def kilopascals_to_psi(value: float) -> float:
    """kPa -> psi."""
    return value * PRESSURE["kilopascal"] / PRESSURE["psi"]


def bars_to_pascals(value: float) -> float:
    """bar -> Pa."""
    return value * PRESSURE["bar"] / PRESSURE["pascal"]


def bars_to_kilopascals(value: float) -> float:
    """bar -> kPa."""
    return value * PRESSURE["bar"] / PRESSURE["kilopascal"]


def bars_to_atmospheres(value: float) -> float:
    """bar -> atm."""
    return value * PRESSURE["bar"] / PRESSURE["atmosphere"]


def bars_to_psi(value: float) -> float:
    """bar -> psi."""
    return value * PRESSURE["bar"] / PRESSURE["psi"]


def atmospheres_to_pascals(value: float) -> float:
    """atm -> Pa."""
    return value * PRESSURE["atmosphere"] / PRESSURE["pascal"]


def atmospheres_to_kilopascals(value: float) -> float:
    """atm -> kPa."""
    return value * PRESSURE["atmosphere"] / PRESSURE["kilopascal"]


def atmospheres_to_bars(value: float) -> float:
    """atm -> bar."""
    return value * PRESSURE["atmosphere"] / PRESSURE["bar"]


def atmospheres_to_psi(value: float) -> float:
    """atm -> psi."""
    return value * PRESSURE["atmosphere"] / PRESSURE["psi"]


def psi_to_pascals(value: float) -> float:
    """psi -> Pa."""
    return value * PRESSURE["psi"] / PRESSURE["pascal"]


def psi_to_kilopascals(value: float) -> float:
    """psi -> kPa."""
    return value * PRESSURE["psi"] / PRESSURE["kilopascal"]


def psi_to_bars(value: float) -> float:
    """psi -> bar."""
    return value * PRESSURE["psi"] / PRESSURE["bar"]


def psi_to_atmospheres(value: float) -> float:
    """psi -> atm."""
    return value * PRESSURE["psi"] / PRESSURE["atmosphere"]

# --- energy ---


def joules_to_kilojoules(value: float) -> float:
    """J -> kJ."""
    return value * ENERGY["joule"] / ENERGY["kilojoule"]


def joules_to_calories(value: float) -> float:
    """J -> cal."""
    return value * ENERGY["joule"] / ENERGY["calorie"]


def joules_to_kilocalories(value: float) -> float:
    """J -> kcal."""
    return value * ENERGY["joule"] / ENERGY["kilocalorie"]


def joules_to_watt_hours(value: float) -> float:
    """J -> Wh."""
    return value * ENERGY["joule"] / ENERGY["watt_hour"]


def joules_to_kilowatt_hours(value: float) -> float:
    """J -> kWh."""
    return value * ENERGY["joule"] / ENERGY["kilowatt_hour"]


def kilojoules_to_joules(value: float) -> float:
    """kJ -> J."""
    return value * ENERGY["kilojoule"] / ENERGY["joule"]


def kilojoules_to_calories(value: float) -> float:
    """kJ -> cal."""
    return value * ENERGY["kilojoule"] / ENERGY["calorie"]


def kilojoules_to_kilocalories(value: float) -> float:
    """kJ -> kcal."""
    return value * ENERGY["kilojoule"] / ENERGY["kilocalorie"]


def kilojoules_to_watt_hours(value: float) -> float:
    """kJ -> Wh."""
    return value * ENERGY["kilojoule"] / ENERGY["watt_hour"]


def kilojoules_to_kilowatt_hours(value: float) -> float:
    """kJ -> kWh."""
    return value * ENERGY["kilojoule"] / ENERGY["kilowatt_hour"]


def calories_to_joules(value: float) -> float:
    """cal -> J."""
    return value * ENERGY["calorie"] / ENERGY["joule"]


def calories_to_kilojoules(value: float) -> float:
    """cal -> kJ."""
    return value * ENERGY["calorie"] / ENERGY["kilojoule"]


def calories_to_kilocalories(value: float) -> float:
    """cal -> kcal."""
    return value * ENERGY["calorie"] / ENERGY["kilocalorie"]


def calories_to_watt_hours(value: float) -> float:
    """cal -> Wh."""
    return value * ENERGY["calorie"] / ENERGY["watt_hour"]


def calories_to_kilowatt_hours(value: float) -> float:
    """cal -> kWh."""
    return value * ENERGY["calorie"] / ENERGY["kilowatt_hour"]


def kilocalories_to_joules(value: float) -> float:
    """kcal -> J."""
    return value * ENERGY["kilocalorie"] / ENERGY["joule"]


def kilocalories_to_kilojoules(value: float) -> float:
    """kcal -> kJ."""
    return value * ENERGY["kilocalorie"] / ENERGY["kilojoule"]


def kilocalories_to_calories(value: float) -> float:
    """kcal -> cal."""
    return value * ENERGY["kilocalorie"] / ENERGY["calorie"]


def kilocalories_to_watt_hours(value: float) -> float:
    """kcal -> Wh."""
    return value * ENERGY["kilocalorie"] / ENERGY["watt_hour"]


def kilocalories_to_kilowatt_hours(value: float) -> float:
    """kcal -> kWh."""
    return value * ENERGY["kilocalorie"] / ENERGY["kilowatt_hour"]


def watt_hours_to_joules(value: float) -> float:
    """Wh -> J."""
    return value * ENERGY["watt_hour"] / ENERGY["joule"]


def watt_hours_to_kilojoules(value: float) -> float:
    """Wh -> kJ."""
    return value * ENERGY["watt_hour"] / ENERGY["kilojoule"]


def watt_hours_to_calories(value: float) -> float:
    """Wh -> cal."""
    return value * ENERGY["watt_hour"] / ENERGY["calorie"]


def watt_hours_to_kilocalories(value: float) -> float:
    """Wh -> kcal."""
    return value * ENERGY["watt_hour"] / ENERGY["kilocalorie"]


def watt_hours_to_kilowatt_hours(value: float) -> float:
    """Wh -> kWh."""
    return value * ENERGY["watt_hour"] / ENERGY["kilowatt_hour"]


def kilowatt_hours_to_joules(value: float) -> float:
    """kWh -> J."""
    return value * ENERGY["kilowatt_hour"] / ENERGY["joule"]


def kilowatt_hours_to_kilojoules(value: float) -> float:
    """kWh -> kJ."""
    return value * ENERGY["kilowatt_hour"] / ENERGY["kilojoule"]


def kilowatt_hours_to_calories(value: float) -> float:
    """kWh -> cal."""
    return value * ENERGY["kilowatt_hour"] / ENERGY["calorie"]


def kilowatt_hours_to_kilocalories(value: float) -> float:
    """kWh -> kcal."""
    return value * ENERGY["kilowatt_hour"] / ENERGY["kilocalorie"]


def kilowatt_hours_to_watt_hours(value: float) -> float:
    """kWh -> Wh."""
    return value * ENERGY["kilowatt_hour"] / ENERGY["watt_hour"]
