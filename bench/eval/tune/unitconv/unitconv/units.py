"""Units of measurement and conversions between them.

Every unit is a multiple of the coherent SI unit of its dimension: the foot is
0.3048 metres, the calorie 4.184 joules. Temperatures on a scale with its own zero
(Celsius, Fahrenheit, Réaumur) also carry an offset: a value in such a unit is
(value + offset) * factor kelvins.

Units are found by symbol ("ft"), by alias as written ("feet"), by an SI prefix in
front of a prefixable symbol ("km", "MJ", "µs") and by name in any case ("Foot",
"kilometres"). Compound units multiply and divide such terms, with integer powers:
"kg*m^2/s^2", "W/(m^2*K)", "N·m", "m s⁻¹".

    >>> convert(1, "mi", "km")
    1.609344
    >>> round(convert(100, "degC", "degF"), 9)
    212.0
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "DIMENSIONLESS",
    "PREFIXES",
    "UNITS",
    "Dimension",
    "IncompatibleUnits",
    "ParsedUnit",
    "Unit",
    "UnitError",
    "UnknownUnit",
    "best_prefix",
    "compatible",
    "convert",
    "convert_difference",
    "describe",
    "dimension_of",
    "find_unit",
    "named_si_unit",
    "parse_unit",
    "si_unit_for",
    "units_of",
]


class UnitError(ValueError):
    """A unit that cannot be read, or a conversion that makes no sense."""


class UnknownUnit(UnitError):
    def __init__(self, text: str):
        super().__init__(f"unknown unit {text!r}")
        self.text = text


class IncompatibleUnits(UnitError):
    pass


# ---------------------------------------------------------------------------
# Dimensions
# ---------------------------------------------------------------------------

_BASES = (
    "length",
    "mass",
    "time",
    "current",
    "temperature",
    "amount",
    "luminosity",
    "angle",
    "information",
)

_BASE_SYMBOLS = {
    "length": "m",
    "mass": "kg",
    "time": "s",
    "current": "A",
    "temperature": "K",
    "amount": "mol",
    "luminosity": "cd",
    "angle": "rad",
    "information": "bit",
}


@dataclass(frozen=True)
class Dimension:
    """Exponents of the base quantities: speed is length 1, time -1."""

    length: int = 0
    mass: int = 0
    time: int = 0
    current: int = 0
    temperature: int = 0
    amount: int = 0
    luminosity: int = 0
    angle: int = 0
    information: int = 0

    def exponents(self) -> tuple[int, ...]:
        return tuple(getattr(self, base) for base in _BASES)

    @classmethod
    def from_exponents(cls, exponents: tuple[int, ...]) -> Dimension:
        return cls(**dict(zip(_BASES, exponents)))

    def __mul__(self, other: Dimension) -> Dimension:
        return Dimension.from_exponents(
            tuple(a + b for a, b in zip(self.exponents(), other.exponents()))
        )

    def __truediv__(self, other: Dimension) -> Dimension:
        return Dimension.from_exponents(
            tuple(a - b for a, b in zip(self.exponents(), other.exponents()))
        )

    def __pow__(self, power: int) -> Dimension:
        return Dimension.from_exponents(tuple(a * power for a in self.exponents()))

    @property
    def is_dimensionless(self) -> bool:
        return not any(self.exponents())

    def __str__(self) -> str:
        name = DIMENSION_NAMES.get(self)
        if name:
            return name
        parts = []
        for base, exponent in zip(_BASES, self.exponents()):
            if exponent == 1:
                parts.append(base)
            elif exponent:
                parts.append(f"{base}^{exponent}")
        return "·".join(parts) or "dimensionless"


DIMENSIONLESS = Dimension()
LENGTH = Dimension(length=1)
MASS = Dimension(mass=1)
TIME = Dimension(time=1)
CURRENT = Dimension(current=1)
TEMPERATURE = Dimension(temperature=1)
AMOUNT = Dimension(amount=1)
LUMINOUS_INTENSITY = Dimension(luminosity=1)
ANGLE = Dimension(angle=1)
INFORMATION = Dimension(information=1)

AREA = LENGTH**2
VOLUME = LENGTH**3
SPEED = LENGTH / TIME
ACCELERATION = SPEED / TIME
FREQUENCY = DIMENSIONLESS / TIME
FORCE = MASS * ACCELERATION
PRESSURE = FORCE / AREA
ENERGY = FORCE * LENGTH
POWER = ENERGY / TIME
CHARGE = CURRENT * TIME
VOLTAGE = POWER / CURRENT
RESISTANCE = VOLTAGE / CURRENT
CONDUCTANCE = CURRENT / VOLTAGE
CAPACITANCE = CHARGE / VOLTAGE
MAGNETIC_FLUX = VOLTAGE * TIME
INDUCTANCE = MAGNETIC_FLUX / CURRENT
FLUX_DENSITY = MAGNETIC_FLUX / AREA
SOLID_ANGLE = ANGLE**2
LUMINOUS_FLUX = LUMINOUS_INTENSITY * SOLID_ANGLE
ILLUMINANCE = LUMINOUS_FLUX / AREA
LUMINANCE = LUMINOUS_INTENSITY / AREA
DOSE = ENERGY / MASS
EXPOSURE = CHARGE / MASS
DYNAMIC_VISCOSITY = PRESSURE * TIME
KINEMATIC_VISCOSITY = AREA / TIME
FLOW = VOLUME / TIME
CATALYTIC_ACTIVITY = AMOUNT / TIME

DIMENSION_NAMES = {
    DIMENSIONLESS: "dimensionless",
    LENGTH: "length",
    MASS: "mass",
    TIME: "time",
    CURRENT: "electric current",
    TEMPERATURE: "temperature",
    AMOUNT: "amount of substance",
    LUMINOUS_INTENSITY: "luminous intensity",
    ANGLE: "angle",
    INFORMATION: "information",
    AREA: "area",
    VOLUME: "volume",
    SPEED: "speed",
    ACCELERATION: "acceleration",
    FREQUENCY: "frequency",
    FORCE: "force",
    PRESSURE: "pressure",
    ENERGY: "energy",
    POWER: "power",
    CHARGE: "electric charge",
    VOLTAGE: "voltage",
    RESISTANCE: "resistance",
    CONDUCTANCE: "conductance",
    CAPACITANCE: "capacitance",
    MAGNETIC_FLUX: "magnetic flux",
    INDUCTANCE: "inductance",
    FLUX_DENSITY: "magnetic flux density",
    SOLID_ANGLE: "solid angle",
    LUMINOUS_FLUX: "luminous flux",
    ILLUMINANCE: "illuminance",
    LUMINANCE: "luminance",
    DOSE: "absorbed dose",
    EXPOSURE: "exposure",
    DYNAMIC_VISCOSITY: "dynamic viscosity",
    KINEMATIC_VISCOSITY: "kinematic viscosity",
    FLOW: "volumetric flow",
    CATALYTIC_ACTIVITY: "catalytic activity",
}


# ---------------------------------------------------------------------------
# Units and prefixes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    name: str
    symbol: str
    dimension: Dimension
    factor: float
    aliases: tuple[str, ...] = ()
    offset: float = 0.0
    prefixable: bool = False

    @property
    def is_affine(self) -> bool:
        """Whether the unit's zero is not the zero of its SI unit (°C, °F)."""
        return self.offset != 0.0


# SI prefixes, and the names they have when a unit is written out ("kilometre").
PREFIXES = {
    "Q": 1e30,
    "R": 1e27,
    "Y": 1e24,
    "Z": 1e21,
    "E": 1e18,
    "P": 1e15,
    "T": 1e12,
    "G": 1e9,
    "M": 1e6,
    "k": 1e3,
    "h": 1e2,
    "da": 1e1,
    "d": 1e-1,
    "c": 1e-2,
    "m": 1e-3,
    "µ": 1e-6,
    "μ": 1e-6,
    "u": 1e-6,
    "n": 1e-9,
    "p": 1e-12,
    "f": 1e-15,
    "a": 1e-18,
    "z": 1e-21,
    "y": 1e-24,
    "r": 1e-27,
    "q": 1e-30,
}

PREFIX_NAMES = {
    "quetta": "Q",
    "ronna": "R",
    "yotta": "Y",
    "zetta": "Z",
    "exa": "E",
    "peta": "P",
    "tera": "T",
    "giga": "G",
    "mega": "M",
    "kilo": "k",
    "hecto": "h",
    "deca": "da",
    "deka": "da",
    "deci": "d",
    "centi": "c",
    "milli": "m",
    "micro": "µ",
    "nano": "n",
    "pico": "p",
    "femto": "f",
    "atto": "a",
    "zepto": "z",
    "yocto": "y",
    "ronto": "r",
    "quecto": "q",
}

# The prefixes `best_prefix` picks from: powers of a thousand only.
ENGINEERING_PREFIXES = ("a", "f", "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E")


UNITS: tuple[Unit, ...] = (
    # Length. Base: the metre.
    Unit(
        name="metre",
        symbol="m",
        dimension=LENGTH,
        factor=1.0,
        aliases=("meter", "metres", "meters"),
        prefixable=True,
    ),
    Unit(
        name="ångström",
        symbol="Å",
        dimension=LENGTH,
        factor=1e-10,
        aliases=("angstrom", "angstroms", "ångströms", "angstromses"),
    ),
    Unit(
        name="micron",
        symbol="micron",
        dimension=LENGTH,
        factor=1e-6,
        aliases=("microns",),
    ),
    Unit(
        name="fermi",
        symbol="fermi",
        dimension=LENGTH,
        factor=1e-15,
        aliases=("fermis",),
    ),
    Unit(
        name="inch",
        symbol="in",
        dimension=LENGTH,
        factor=0.0254,
        aliases=("inches",),
    ),
    Unit(
        name="foot",
        symbol="ft",
        dimension=LENGTH,
        factor=0.3048,
        aliases=("feet",),
    ),
    Unit(
        name="yard",
        symbol="yd",
        dimension=LENGTH,
        factor=0.9144,
        aliases=("yards",),
    ),
    Unit(
        name="mile",
        symbol="mi",
        dimension=LENGTH,
        factor=1609.344,
        aliases=("statute mile", "miles"),
    ),
    Unit(
        name="nautical mile",
        symbol="nmi",
        dimension=LENGTH,
        factor=1852.0,
        aliases=("nautical miles",),
    ),
    Unit(
        name="thou",
        symbol="mil",
        dimension=LENGTH,
        factor=2.54e-5,
        aliases=("thous",),
    ),
    Unit(
        name="hand",
        symbol="hh",
        dimension=LENGTH,
        factor=0.1016,
        aliases=("hands",),
    ),
    Unit(
        name="chain",
        symbol="ch",
        dimension=LENGTH,
        factor=20.1168,
        aliases=("gunter's chain", "chains"),
    ),
    Unit(
        name="furlong",
        symbol="fur",
        dimension=LENGTH,
        factor=201.168,
        aliases=("furlongs",),
    ),
    Unit(
        name="rod",
        symbol="rd",
        dimension=LENGTH,
        factor=5.0292,
        aliases=("pole", "perch", "rods", "poles", "perches"),
    ),
    Unit(
        name="link",
        symbol="li",
        dimension=LENGTH,
        factor=0.201168,
        aliases=("links",),
    ),
    Unit(
        name="fathom",
        symbol="ftm",
        dimension=LENGTH,
        factor=1.8288,
        aliases=("fathoms",),
    ),
    Unit(
        name="league",
        symbol="lea",
        dimension=LENGTH,
        factor=4828.032,
        aliases=("leagues",),
    ),
    Unit(
        name="cable",
        symbol="cb",
        dimension=LENGTH,
        factor=185.2,
        aliases=("cable length", "cables"),
    ),
    Unit(
        name="astronomical unit",
        symbol="au",
        dimension=LENGTH,
        factor=149597870700.0,
        aliases=("AU", "astronomical units"),
    ),
    Unit(
        name="light-year",
        symbol="ly",
        dimension=LENGTH,
        factor=9.4607304725808e15,
        aliases=("light year", "lightyear", "light-years", "lightyears"),
    ),
    Unit(
        name="light-second",
        symbol="ls",
        dimension=LENGTH,
        factor=299792458.0,
        aliases=("light second", "light-seconds"),
    ),
    Unit(
        name="parsec",
        symbol="pc",
        dimension=LENGTH,
        factor=3.0856775814913673e16,
        aliases=("parsecs",),
        prefixable=True,
    ),
    Unit(
        name="US survey foot",
        symbol="ft_us",
        dimension=LENGTH,
        factor=1200 / 3937,
        aliases=("survey foot", "US survey feet"),
    ),
    Unit(
        name="US survey mile",
        symbol="mi_us",
        dimension=LENGTH,
        factor=6336 / 3937,
        aliases=("survey mile", "US survey miles"),
    ),
    Unit(
        name="typographic point",
        symbol="point",
        dimension=LENGTH,
        factor=0.0254 / 72,
        aliases=("points",),
    ),
    Unit(
        name="pica",
        symbol="pica",
        dimension=LENGTH,
        factor=0.0254 / 6,
        aliases=("picas",),
    ),
    Unit(
        name="pixel",
        symbol="px",
        dimension=LENGTH,
        factor=0.0254 / 96,
        aliases=("CSS pixel", "pixels"),
    ),
    Unit(
        name="cubit",
        symbol="cubit",
        dimension=LENGTH,
        factor=0.4572,
        aliases=("cubits",),
    ),
    Unit(
        name="span",
        symbol="span",
        dimension=LENGTH,
        factor=0.2286,
        aliases=("spans",),
    ),
    Unit(
        name="barleycorn",
        symbol="barleycorn",
        dimension=LENGTH,
        factor=0.0254 / 3,
        aliases=("barleycorns",),
    ),
    Unit(
        name="Scandinavian mile",
        symbol="mil_sc",
        dimension=LENGTH,
        factor=10000.0,
        aliases=("mil scandinavian", "Scandinavian miles"),
    ),
    Unit(
        name="rack unit",
        symbol="U",
        dimension=LENGTH,
        factor=0.04445,
        aliases=("RU", "rack units"),
    ),
    Unit(
        name="Bohr radius",
        symbol="a0",
        dimension=LENGTH,
        factor=5.29177210903e-11,
        aliases=("bohr",),
    ),
    Unit(
        name="Planck length",
        symbol="l_P",
        dimension=LENGTH,
        factor=1.616255e-35,
        aliases=("Planck lengths",),
    ),
    Unit(
        name="Earth radius",
        symbol="R_earth",
        dimension=LENGTH,
        factor=6371008.8,
    ),

    # Area. Base: the square metre.
    Unit(
        name="are",
        symbol="a",
        dimension=AREA,
        factor=100.0,
        aliases=("ares",),
        prefixable=True,
    ),
    Unit(
        name="hectare",
        symbol="ha",
        dimension=AREA,
        factor=10000.0,
        aliases=("hectares",),
    ),
    Unit(
        name="acre",
        symbol="ac",
        dimension=AREA,
        factor=4046.8564224,
        aliases=("acres",),
    ),
    Unit(
        name="rood",
        symbol="rood",
        dimension=AREA,
        factor=1011.7141056,
        aliases=("roods",),
    ),
    Unit(
        name="square inch",
        symbol="sq_in",
        dimension=AREA,
        factor=0.00064516,
        aliases=("square inches",),
    ),
    Unit(
        name="square foot",
        symbol="sq_ft",
        dimension=AREA,
        factor=0.09290304,
        aliases=("square feet",),
    ),
    Unit(
        name="square yard",
        symbol="sq_yd",
        dimension=AREA,
        factor=0.83612736,
        aliases=("square yards",),
    ),
    Unit(
        name="square mile",
        symbol="sq_mi",
        dimension=AREA,
        factor=2589988.110336,
        aliases=("section", "square miles", "sections"),
    ),
    Unit(
        name="barn",
        symbol="b",
        dimension=AREA,
        factor=1e-28,
        aliases=("barns",),
        prefixable=True,
    ),
    Unit(
        name="circular mil",
        symbol="cmil",
        dimension=AREA,
        factor=5.067074790974977e-10,
        aliases=("circular mils",),
    ),
    Unit(
        name="dunam",
        symbol="dunam",
        dimension=AREA,
        factor=1000.0,
        aliases=("dunum", "dunams", "dunums"),
    ),
    Unit(
        name="tsubo",
        symbol="tsubo",
        dimension=AREA,
        factor=400 / 121,
        aliases=("tsubos",),
    ),
    Unit(
        name="township",
        symbol="twp",
        dimension=AREA,
        factor=93239571.972096,
        aliases=("townships",),
    ),

    # Volume. Base: the cubic metre; US customary units unless marked imperial.
    Unit(
        name="litre",
        symbol="l",
        dimension=VOLUME,
        factor=1e-3,
        aliases=("L", "liter", "litres", "liters"),
        prefixable=True,
    ),
    Unit(
        name="cubic centimetre",
        symbol="cc",
        dimension=VOLUME,
        factor=1e-6,
        aliases=("cubic centimeter", "cubic centimetres"),
    ),
    Unit(
        name="US gallon",
        symbol="gal",
        dimension=VOLUME,
        factor=3.785411784e-3,
        aliases=("gallon", "gallons", "US gallons", "gallonses"),
    ),
    Unit(
        name="imperial gallon",
        symbol="gal_imp",
        dimension=VOLUME,
        factor=4.54609e-3,
        aliases=("UK gallon", "imperial gallons"),
    ),
    Unit(
        name="US quart",
        symbol="qt",
        dimension=VOLUME,
        factor=9.46352946e-4,
        aliases=("quart", "quarts", "US quarts", "quartses"),
    ),
    Unit(
        name="imperial quart",
        symbol="qt_imp",
        dimension=VOLUME,
        factor=1.1365225e-3,
        aliases=("imperial quarts",),
    ),
    Unit(
        name="US pint",
        symbol="pt",
        dimension=VOLUME,
        factor=4.73176473e-4,
        aliases=("pint", "pints", "US pints", "pintses"),
    ),
    Unit(
        name="imperial pint",
        symbol="pt_imp",
        dimension=VOLUME,
        factor=5.6826125e-4,
        aliases=("UK pint", "imperial pints"),
    ),
    Unit(
        name="US cup",
        symbol="cup",
        dimension=VOLUME,
        factor=2.365882365e-4,
        aliases=("cups",),
    ),
    Unit(
        name="metric cup",
        symbol="cup_metric",
        dimension=VOLUME,
        factor=2.5e-4,
        aliases=("metric cups",),
    ),
    Unit(
        name="US fluid ounce",
        symbol="fl_oz",
        dimension=VOLUME,
        factor=2.95735295625e-5,
        aliases=("fluid ounce", "fluid ounces", "US fluid ounces"),
    ),
    Unit(
        name="imperial fluid ounce",
        symbol="fl_oz_imp",
        dimension=VOLUME,
        factor=2.84130625e-5,
        aliases=("imperial fluid ounces",),
    ),
    Unit(
        name="tablespoon",
        symbol="tbsp",
        dimension=VOLUME,
        factor=1.478676478125e-5,
        aliases=("Tbsp", "tablespoons"),
    ),
    Unit(
        name="teaspoon",
        symbol="tsp",
        dimension=VOLUME,
        factor=4.92892159375e-6,
        aliases=("teaspoons",),
    ),
    Unit(
        name="dessert spoon",
        symbol="dstspn",
        dimension=VOLUME,
        factor=1e-5,
        aliases=("dessert spoons",),
    ),
    Unit(
        name="gill",
        symbol="gi",
        dimension=VOLUME,
        factor=1.1829411825e-4,
        aliases=("gills",),
    ),
    Unit(
        name="jigger",
        symbol="jigger",
        dimension=VOLUME,
        factor=4.436e-5,
        aliases=("shot", "jiggers", "shots"),
    ),
    Unit(
        name="minim",
        symbol="minim",
        dimension=VOLUME,
        factor=6.1611519921875e-8,
        aliases=("minims",),
    ),
    Unit(
        name="fluid dram",
        symbol="fl_dr",
        dimension=VOLUME,
        factor=3.6966911953125e-6,
        aliases=("fluid drams",),
    ),
    Unit(
        name="oil barrel",
        symbol="bbl",
        dimension=VOLUME,
        factor=0.158987294928,
        aliases=("barrel", "barrels", "oil barrels", "barrelses"),
    ),
    Unit(
        name="hogshead",
        symbol="hhd",
        dimension=VOLUME,
        factor=0.238480942392,
        aliases=("hogsheads",),
    ),
    Unit(
        name="US bushel",
        symbol="bu",
        dimension=VOLUME,
        factor=0.03523907016688,
        aliases=("bushel", "bushels", "US bushels", "bushelses"),
    ),
    Unit(
        name="US peck",
        symbol="pk",
        dimension=VOLUME,
        factor=0.00880976754172,
        aliases=("peck", "pecks", "US pecks", "peckses"),
    ),
    Unit(
        name="US dry quart",
        symbol="dry_qt",
        dimension=VOLUME,
        factor=1.101220942715e-3,
        aliases=("US dry quarts",),
    ),
    Unit(
        name="US dry pint",
        symbol="dry_pt",
        dimension=VOLUME,
        factor=5.506104713575e-4,
        aliases=("US dry pints",),
    ),
    Unit(
        name="cubic inch",
        symbol="cu_in",
        dimension=VOLUME,
        factor=1.6387064e-5,
        aliases=("cubic inches",),
    ),
    Unit(
        name="cubic foot",
        symbol="cu_ft",
        dimension=VOLUME,
        factor=0.028316846592,
        aliases=("cubic feet",),
    ),
    Unit(
        name="cubic yard",
        symbol="cu_yd",
        dimension=VOLUME,
        factor=0.764554857984,
        aliases=("cubic yards",),
    ),
    Unit(
        name="acre-foot",
        symbol="ac_ft",
        dimension=VOLUME,
        factor=1233.48183754752,
        aliases=("acre foot", "acre-feet"),
    ),
    Unit(
        name="board foot",
        symbol="fbm",
        dimension=VOLUME,
        factor=2.359737216e-3,
        aliases=("board feet",),
    ),
    Unit(
        name="cord",
        symbol="cord",
        dimension=VOLUME,
        factor=3.624556363776,
        aliases=("cords",),
    ),
    Unit(
        name="stere",
        symbol="stere",
        dimension=VOLUME,
        factor=1.0,
        aliases=("steres",),
    ),

    # Mass. Base: the kilogram (the gram takes the prefixes).
    Unit(
        name="gram",
        symbol="g",
        dimension=MASS,
        factor=1e-3,
        aliases=("gramme", "grams", "grammes"),
        prefixable=True,
    ),
    Unit(
        name="tonne",
        symbol="t",
        dimension=MASS,
        factor=1000.0,
        aliases=("metric ton", "tonnes"),
        prefixable=True,
    ),
    Unit(
        name="pound",
        symbol="lb",
        dimension=MASS,
        factor=0.45359237,
        aliases=("lbs", "pounds"),
    ),
    Unit(
        name="ounce",
        symbol="oz",
        dimension=MASS,
        factor=0.028349523125,
        aliases=("ounces",),
    ),
    Unit(
        name="stone",
        symbol="st",
        dimension=MASS,
        factor=6.35029318,
        aliases=("stones",),
    ),
    Unit(
        name="grain",
        symbol="gr",
        dimension=MASS,
        factor=6.479891e-5,
        aliases=("grains",),
    ),
    Unit(
        name="dram",
        symbol="dr",
        dimension=MASS,
        factor=1.7718451953125e-3,
        aliases=("drachm", "drams", "drachms"),
    ),
    Unit(
        name="troy ounce",
        symbol="oz_t",
        dimension=MASS,
        factor=0.0311034768,
        aliases=("troy ounces",),
    ),
    Unit(
        name="troy pound",
        symbol="lb_t",
        dimension=MASS,
        factor=0.3732417216,
        aliases=("troy pounds",),
    ),
    Unit(
        name="pennyweight",
        symbol="dwt",
        dimension=MASS,
        factor=1.55517384e-3,
        aliases=("pennyweights",),
    ),
    Unit(
        name="scruple",
        symbol="scruple",
        dimension=MASS,
        factor=1.2959782e-3,
        aliases=("scruples",),
    ),
    Unit(
        name="carat",
        symbol="ct",
        dimension=MASS,
        factor=2e-4,
        aliases=("carats",),
    ),
    Unit(
        name="short ton",
        symbol="ton",
        dimension=MASS,
        factor=907.18474,
        aliases=("US ton", "short tons"),
    ),
    Unit(
        name="long ton",
        symbol="ton_uk",
        dimension=MASS,
        factor=1016.0469088,
        aliases=("imperial ton", "long tons"),
    ),
    Unit(
        name="short hundredweight",
        symbol="cwt",
        dimension=MASS,
        factor=45.359237,
        aliases=("short hundredweights",),
    ),
    Unit(
        name="long hundredweight",
        symbol="cwt_uk",
        dimension=MASS,
        factor=50.80234544,
        aliases=("long hundredweights",),
    ),
    Unit(
        name="quintal",
        symbol="q",
        dimension=MASS,
        factor=100.0,
        aliases=("quintals",),
    ),
    Unit(
        name="slug",
        symbol="slug",
        dimension=MASS,
        factor=14.593902937206364,
        aliases=("slugs",),
    ),
    Unit(
        name="atomic mass unit",
        symbol="u",
        dimension=MASS,
        factor=1.66053906660e-27,
        aliases=("amu", "atomic mass units"),
    ),
    Unit(
        name="dalton",
        symbol="Da",
        dimension=MASS,
        factor=1.66053906660e-27,
        aliases=("daltons",),
        prefixable=True,
    ),
    Unit(
        name="electron mass",
        symbol="m_e",
        dimension=MASS,
        factor=9.1093837015e-31,
        aliases=("electron masses",),
    ),
    Unit(
        name="Earth mass",
        symbol="M_earth",
        dimension=MASS,
        factor=5.9722e24,
        aliases=("Earth masses",),
    ),
    Unit(
        name="solar mass",
        symbol="M_sun",
        dimension=MASS,
        factor=1.98847e30,
        aliases=("solar masses",),
    ),

    # Time. Base: the second. Months and years are mean Gregorian and Julian ones.
    Unit(
        name="second",
        symbol="s",
        dimension=TIME,
        factor=1.0,
        aliases=("sec", "secs", "seconds", "secses"),
        prefixable=True,
    ),
    Unit(
        name="minute",
        symbol="min",
        dimension=TIME,
        factor=60.0,
        aliases=("mins", "minutes", "minses"),
    ),
    Unit(
        name="hour",
        symbol="h",
        dimension=TIME,
        factor=3600.0,
        aliases=("hr", "hrs", "hours"),
    ),
    Unit(
        name="day",
        symbol="d",
        dimension=TIME,
        factor=86400.0,
        aliases=("days",),
    ),
    Unit(
        name="sidereal day",
        symbol="d_sid",
        dimension=TIME,
        factor=86164.0905,
        aliases=("sidereal days",),
    ),
    Unit(
        name="week",
        symbol="wk",
        dimension=TIME,
        factor=604800.0,
        aliases=("weeks",),
    ),
    Unit(
        name="fortnight",
        symbol="fortnight",
        dimension=TIME,
        factor=1209600.0,
        aliases=("fortnights",),
    ),
    Unit(
        name="month",
        symbol="mo",
        dimension=TIME,
        factor=2629746.0,
        aliases=("months",),
    ),
    Unit(
        name="year",
        symbol="yr",
        dimension=TIME,
        factor=31557600.0,
        aliases=("julian year", "years"),
    ),
    Unit(
        name="decade",
        symbol="decade",
        dimension=TIME,
        factor=315576000.0,
        aliases=("decades",),
    ),
    Unit(
        name="century",
        symbol="century",
        dimension=TIME,
        factor=3155760000.0,
        aliases=("centuries",),
    ),
    Unit(
        name="millennium",
        symbol="millennium",
        dimension=TIME,
        factor=31557600000.0,
        aliases=("millennia",),
    ),
    Unit(
        name="shake",
        symbol="shake",
        dimension=TIME,
        factor=1e-8,
        aliases=("shakes",),
    ),

    # Speed. Base: metres per second (any length/time pair also parses).
    Unit(
        name="mile per hour",
        symbol="mph",
        dimension=SPEED,
        factor=0.44704,
        aliases=("miles per hour",),
    ),
    Unit(
        name="kilometre per hour",
        symbol="kph",
        dimension=SPEED,
        factor=1 / 3.6,
        aliases=("kmh", "kilometres per hour"),
    ),
    Unit(
        name="foot per second",
        symbol="fps",
        dimension=SPEED,
        factor=0.3048,
        aliases=("feet per second",),
    ),
    Unit(
        name="knot",
        symbol="kn",
        dimension=SPEED,
        factor=1852 / 3600,
        aliases=("knots",),
    ),
    Unit(
        name="speed of light",
        symbol="c",
        dimension=SPEED,
        factor=299792458.0,
    ),
    Unit(
        name="mach",
        symbol="mach",
        dimension=SPEED,
        factor=340.29,
    ),

    # Acceleration.
    Unit(
        name="gal",
        symbol="Gal",
        dimension=ACCELERATION,
        factor=0.01,
        aliases=("galileo",),
        prefixable=True,
    ),
    Unit(
        name="standard gravity",
        symbol="g0",
        dimension=ACCELERATION,
        factor=9.80665,
        aliases=("gee", "g_n"),
    ),

    # Force. Base: the newton.
    Unit(
        name="newton",
        symbol="N",
        dimension=FORCE,
        factor=1.0,
        aliases=("newtons",),
        prefixable=True,
    ),
    Unit(
        name="dyne",
        symbol="dyn",
        dimension=FORCE,
        factor=1e-5,
        aliases=("dynes",),
    ),
    Unit(
        name="pound-force",
        symbol="lbf",
        dimension=FORCE,
        factor=4.4482216152605,
        aliases=("pound force",),
    ),
    Unit(
        name="kilogram-force",
        symbol="kgf",
        dimension=FORCE,
        factor=9.80665,
        aliases=("kilopond", "kp"),
    ),
    Unit(
        name="ounce-force",
        symbol="ozf",
        dimension=FORCE,
        factor=0.27801385095378125,
    ),
    Unit(
        name="poundal",
        symbol="pdl",
        dimension=FORCE,
        factor=0.138254954376,
        aliases=("poundals",),
    ),
    Unit(
        name="kip",
        symbol="kip",
        dimension=FORCE,
        factor=4448.2216152605,
        aliases=("kips",),
    ),
    Unit(
        name="ton-force",
        symbol="tnf",
        dimension=FORCE,
        factor=8896.443230521,
    ),
    Unit(
        name="sthène",
        symbol="sn",
        dimension=FORCE,
        factor=1000.0,
        aliases=("sthene", "sthènes", "sthenes"),
    ),

    # Pressure. Base: the pascal.
    Unit(
        name="pascal",
        symbol="Pa",
        dimension=PRESSURE,
        factor=1.0,
        aliases=("pascals",),
        prefixable=True,
    ),
    Unit(
        name="bar",
        symbol="bar",
        dimension=PRESSURE,
        factor=1e5,
        aliases=("bars",),
        prefixable=True,
    ),
    Unit(
        name="standard atmosphere",
        symbol="atm",
        dimension=PRESSURE,
        factor=101325.0,
        aliases=("atmosphere", "atmospheres", "standard atmospheres", "atmosphereses"),
    ),
    Unit(
        name="technical atmosphere",
        symbol="at",
        dimension=PRESSURE,
        factor=98066.5,
        aliases=("technical atmospheres",),
    ),
    Unit(
        name="torr",
        symbol="Torr",
        dimension=PRESSURE,
        factor=101325 / 760,
    ),
    Unit(
        name="millimetre of mercury",
        symbol="mmHg",
        dimension=PRESSURE,
        factor=133.322387415,
    ),
    Unit(
        name="inch of mercury",
        symbol="inHg",
        dimension=PRESSURE,
        factor=3386.389,
    ),
    Unit(
        name="pound per square inch",
        symbol="psi",
        dimension=PRESSURE,
        factor=6894.757293168361,
    ),
    Unit(
        name="kilopound per square inch",
        symbol="ksi",
        dimension=PRESSURE,
        factor=6894757.293168361,
    ),
    Unit(
        name="barye",
        symbol="Ba",
        dimension=PRESSURE,
        factor=0.1,
        aliases=("baryes",),
    ),
    Unit(
        name="centimetre of water",
        symbol="cmH2O",
        dimension=PRESSURE,
        factor=98.0665,
    ),
    Unit(
        name="inch of water",
        symbol="inH2O",
        dimension=PRESSURE,
        factor=249.08891,
    ),
    Unit(
        name="foot of water",
        symbol="ftH2O",
        dimension=PRESSURE,
        factor=2989.0669,
    ),

    # Energy. Base: the joule.
    Unit(
        name="joule",
        symbol="J",
        dimension=ENERGY,
        factor=1.0,
        aliases=("joules",),
        prefixable=True,
    ),
    Unit(
        name="calorie",
        symbol="cal",
        dimension=ENERGY,
        factor=4.184,
        aliases=("thermochemical calorie", "calories"),
        prefixable=True,
    ),
    Unit(
        name="food calorie",
        symbol="Cal",
        dimension=ENERGY,
        factor=4184.0,
        aliases=("kilocalorie (food)", "food calories"),
    ),
    Unit(
        name="electronvolt",
        symbol="eV",
        dimension=ENERGY,
        factor=1.602176634e-19,
        aliases=("electron volt", "electronvolts"),
        prefixable=True,
    ),
    Unit(
        name="watt-hour",
        symbol="Wh",
        dimension=ENERGY,
        factor=3600.0,
        aliases=("watt hour", "watt-hours"),
        prefixable=True,
    ),
    Unit(
        name="British thermal unit",
        symbol="BTU",
        dimension=ENERGY,
        factor=1055.05585262,
        aliases=("Btu", "British thermal units"),
    ),
    Unit(
        name="therm",
        symbol="thm",
        dimension=ENERGY,
        factor=105505585.262,
        aliases=("therms",),
    ),
    Unit(
        name="quad",
        symbol="quad",
        dimension=ENERGY,
        factor=1.05505585262e18,
        aliases=("quads",),
    ),
    Unit(
        name="erg",
        symbol="erg",
        dimension=ENERGY,
        factor=1e-7,
        aliases=("ergs",),
    ),
    Unit(
        name="foot-pound",
        symbol="ft_lbf",
        dimension=ENERGY,
        factor=1.3558179483314004,
        aliases=("foot pound", "foot-pounds"),
    ),
    Unit(
        name="hartree",
        symbol="E_h",
        dimension=ENERGY,
        factor=4.3597447222071e-18,
        aliases=("hartrees",),
    ),
    Unit(
        name="rydberg",
        symbol="Ry",
        dimension=ENERGY,
        factor=2.1798723611035e-18,
        aliases=("rydbergs",),
    ),
    Unit(
        name="ton of TNT",
        symbol="tTNT",
        dimension=ENERGY,
        factor=4.184e9,
    ),
    Unit(
        name="tonne of oil equivalent",
        symbol="toe",
        dimension=ENERGY,
        factor=4.1868e10,
    ),
    Unit(
        name="barrel of oil equivalent",
        symbol="boe",
        dimension=ENERGY,
        factor=6.1178632e9,
    ),

    # Power. Base: the watt.
    Unit(
        name="watt",
        symbol="W",
        dimension=POWER,
        factor=1.0,
        aliases=("watts",),
        prefixable=True,
    ),
    Unit(
        name="horsepower",
        symbol="hp",
        dimension=POWER,
        factor=745.6998715822702,
        aliases=("mechanical horsepower",),
    ),
    Unit(
        name="metric horsepower",
        symbol="PS",
        dimension=POWER,
        factor=735.49875,
        aliases=("cv",),
    ),
    Unit(
        name="electrical horsepower",
        symbol="hp_e",
        dimension=POWER,
        factor=746.0,
    ),
    Unit(
        name="boiler horsepower",
        symbol="hp_boiler",
        dimension=POWER,
        factor=9812.5,
    ),
    Unit(
        name="ton of refrigeration",
        symbol="TR",
        dimension=POWER,
        factor=3516.8528420667,
    ),
    Unit(
        name="BTU per hour",
        symbol="BTU_h",
        dimension=POWER,
        factor=0.29307107017222,
    ),

    # Frequency and activity.
    Unit(
        name="hertz",
        symbol="Hz",
        dimension=FREQUENCY,
        factor=1.0,
        prefixable=True,
    ),
    Unit(
        name="revolution per minute",
        symbol="rpm",
        dimension=FREQUENCY,
        factor=1 / 60,
        aliases=("revolutions per minute",),
    ),
    Unit(
        name="becquerel",
        symbol="Bq",
        dimension=FREQUENCY,
        factor=1.0,
        aliases=("becquerels",),
        prefixable=True,
    ),
    Unit(
        name="curie",
        symbol="Ci",
        dimension=FREQUENCY,
        factor=3.7e10,
        aliases=("curies",),
        prefixable=True,
    ),
    Unit(
        name="rutherford",
        symbol="Rd",
        dimension=FREQUENCY,
        factor=1e6,
        aliases=("rutherfords",),
    ),

    # Plane angle. Base: the radian.
    Unit(
        name="radian",
        symbol="rad",
        dimension=ANGLE,
        factor=1.0,
        aliases=("radians",),
        prefixable=True,
    ),
    Unit(
        name="degree",
        symbol="deg",
        dimension=ANGLE,
        factor=math.pi / 180,
        aliases=("°", "degrees"),
    ),
    Unit(
        name="arcminute",
        symbol="arcmin",
        dimension=ANGLE,
        factor=math.pi / 10800,
        aliases=("′", "arcminutes"),
    ),
    Unit(
        name="arcsecond",
        symbol="arcsec",
        dimension=ANGLE,
        factor=math.pi / 648000,
        aliases=("″", "arcseconds"),
        prefixable=True,
    ),
    Unit(
        name="gradian",
        symbol="grad",
        dimension=ANGLE,
        factor=math.pi / 200,
        aliases=("gon", "gradians"),
    ),
    Unit(
        name="turn",
        symbol="turn",
        dimension=ANGLE,
        factor=2 * math.pi,
        aliases=("cycle", "turns", "cycles"),
    ),
    Unit(
        name="revolution",
        symbol="rev",
        dimension=ANGLE,
        factor=2 * math.pi,
        aliases=("revolutions",),
    ),
    Unit(
        name="angular mil",
        symbol="angmil",
        dimension=ANGLE,
        factor=2 * math.pi / 6400,
        aliases=("NATO mil", "angular mils"),
    ),

    # Solid angle.
    Unit(
        name="steradian",
        symbol="sr",
        dimension=SOLID_ANGLE,
        factor=1.0,
        aliases=("steradians",),
        prefixable=True,
    ),
    Unit(
        name="square degree",
        symbol="deg2",
        dimension=SOLID_ANGLE,
        factor=(math.pi / 180) ** 2,
        aliases=("square degrees",),
    ),

    # Information. Base: the bit. Binary multiples are units of their own.
    Unit(
        name="bit",
        symbol="bit",
        dimension=INFORMATION,
        factor=1.0,
        aliases=("bits",),
        prefixable=True,
    ),
    Unit(
        name="byte",
        symbol="B",
        dimension=INFORMATION,
        factor=8.0,
        aliases=("octet", "bytes", "octets"),
        prefixable=True,
    ),
    Unit(
        name="nibble",
        symbol="nibble",
        dimension=INFORMATION,
        factor=4.0,
        aliases=("nibbles",),
    ),
    Unit(
        name="kibibit",
        symbol="Kibit",
        dimension=INFORMATION,
        factor=1024.0,
        aliases=("kibibits",),
    ),
    Unit(
        name="mebibit",
        symbol="Mibit",
        dimension=INFORMATION,
        factor=1024.0 ** 2,
        aliases=("mebibits",),
    ),
    Unit(
        name="gibibit",
        symbol="Gibit",
        dimension=INFORMATION,
        factor=1024.0 ** 3,
        aliases=("gibibits",),
    ),
    Unit(
        name="kibibyte",
        symbol="KiB",
        dimension=INFORMATION,
        factor=8 * 1024.0,
        aliases=("kibibytes",),
    ),
    Unit(
        name="mebibyte",
        symbol="MiB",
        dimension=INFORMATION,
        factor=8 * 1024.0 ** 2,
        aliases=("mebibytes",),
    ),
    Unit(
        name="gibibyte",
        symbol="GiB",
        dimension=INFORMATION,
        factor=8 * 1024.0 ** 3,
        aliases=("gibibytes",),
    ),
    Unit(
        name="tebibyte",
        symbol="TiB",
        dimension=INFORMATION,
        factor=8 * 1024.0 ** 4,
        aliases=("tebibytes",),
    ),
    Unit(
        name="pebibyte",
        symbol="PiB",
        dimension=INFORMATION,
        factor=8 * 1024.0 ** 5,
        aliases=("pebibytes",),
    ),
    Unit(
        name="exbibyte",
        symbol="EiB",
        dimension=INFORMATION,
        factor=8 * 1024.0 ** 6,
        aliases=("exbibytes",),
    ),

    # Electric current.
    Unit(
        name="ampere",
        symbol="A",
        dimension=CURRENT,
        factor=1.0,
        aliases=("amp", "amps", "amperes", "ampses"),
        prefixable=True,
    ),
    Unit(
        name="abampere",
        symbol="abA",
        dimension=CURRENT,
        factor=10.0,
        aliases=("biot", "abamperes", "biots"),
    ),
    Unit(
        name="statampere",
        symbol="statA",
        dimension=CURRENT,
        factor=3.33564e-10,
        aliases=("statamperes",),
    ),

    # Electric charge.
    Unit(
        name="coulomb",
        symbol="C",
        dimension=CHARGE,
        factor=1.0,
        aliases=("coulombs",),
        prefixable=True,
    ),
    Unit(
        name="ampere-hour",
        symbol="Ah",
        dimension=CHARGE,
        factor=3600.0,
        aliases=("amp hour", "ampere-hours"),
        prefixable=True,
    ),
    Unit(
        name="statcoulomb",
        symbol="statC",
        dimension=CHARGE,
        factor=3.33564e-10,
        aliases=("franklin", "statcoulombs", "franklins"),
    ),
    Unit(
        name="faraday",
        symbol="faraday",
        dimension=CHARGE,
        factor=96485.33212,
        aliases=("faradays",),
    ),

    # Other electromagnetic units.
    Unit(
        name="volt",
        symbol="V",
        dimension=VOLTAGE,
        factor=1.0,
        aliases=("volts",),
        prefixable=True,
    ),
    Unit(
        name="ohm",
        symbol="Ω",
        dimension=RESISTANCE,
        factor=1.0,
        aliases=("ohms",),
        prefixable=True,
    ),
    Unit(
        name="siemens",
        symbol="S",
        dimension=CONDUCTANCE,
        factor=1.0,
        aliases=("mho",),
        prefixable=True,
    ),
    Unit(
        name="farad",
        symbol="F",
        dimension=CAPACITANCE,
        factor=1.0,
        aliases=("farads",),
        prefixable=True,
    ),
    Unit(
        name="henry",
        symbol="H",
        dimension=INDUCTANCE,
        factor=1.0,
        aliases=("henries",),
        prefixable=True,
    ),
    Unit(
        name="weber",
        symbol="Wb",
        dimension=MAGNETIC_FLUX,
        factor=1.0,
        aliases=("webers",),
        prefixable=True,
    ),
    Unit(
        name="maxwell",
        symbol="Mx",
        dimension=MAGNETIC_FLUX,
        factor=1e-8,
        aliases=("maxwells",),
    ),
    Unit(
        name="tesla",
        symbol="T",
        dimension=FLUX_DENSITY,
        factor=1.0,
        aliases=("teslas",),
        prefixable=True,
    ),
    Unit(
        name="gauss",
        symbol="Gs",
        dimension=FLUX_DENSITY,
        factor=1e-4,
        prefixable=True,
    ),

    # Temperature. Base: the kelvin; base = (value + offset) * factor.
    Unit(
        name="kelvin",
        symbol="K",
        dimension=TEMPERATURE,
        factor=1.0,
        aliases=("kelvins",),
        prefixable=True,
    ),
    Unit(
        name="degree Celsius",
        symbol="degC",
        dimension=TEMPERATURE,
        factor=1.0,
        aliases=("°C", "celsius"),
        offset=273.15,
    ),
    Unit(
        name="degree Fahrenheit",
        symbol="degF",
        dimension=TEMPERATURE,
        factor=5 / 9,
        aliases=("°F", "fahrenheit"),
        offset=459.67,
    ),
    Unit(
        name="degree Rankine",
        symbol="degR",
        dimension=TEMPERATURE,
        factor=5 / 9,
        aliases=("°R", "rankine"),
    ),
    Unit(
        name="degree Réaumur",
        symbol="degRe",
        dimension=TEMPERATURE,
        factor=1.25,
        aliases=("°Ré", "reaumur"),
        offset=218.52,
    ),

    # Amount of substance and catalytic activity.
    Unit(
        name="mole",
        symbol="mol",
        dimension=AMOUNT,
        factor=1.0,
        aliases=("moles",),
        prefixable=True,
    ),
    Unit(
        name="pound-mole",
        symbol="lbmol",
        dimension=AMOUNT,
        factor=453.59237,
        aliases=("pound-moles",),
    ),
    Unit(
        name="katal",
        symbol="kat",
        dimension=CATALYTIC_ACTIVITY,
        factor=1.0,
        aliases=("katals",),
        prefixable=True,
    ),
    Unit(
        name="enzyme unit",
        symbol="U_enz",
        dimension=CATALYTIC_ACTIVITY,
        factor=1 / 60e6,
        aliases=("enzyme units",),
    ),

    # Photometry.
    Unit(
        name="candela",
        symbol="cd",
        dimension=LUMINOUS_INTENSITY,
        factor=1.0,
        aliases=("candelas",),
        prefixable=True,
    ),
    Unit(
        name="lumen",
        symbol="lm",
        dimension=LUMINOUS_FLUX,
        factor=1.0,
        aliases=("lumens",),
        prefixable=True,
    ),
    Unit(
        name="lux",
        symbol="lx",
        dimension=ILLUMINANCE,
        factor=1.0,
        prefixable=True,
    ),
    Unit(
        name="foot-candle",
        symbol="fc",
        dimension=ILLUMINANCE,
        factor=10.763910416709722,
        aliases=("footcandle", "foot-candles", "footcandles"),
    ),
    Unit(
        name="phot",
        symbol="ph",
        dimension=ILLUMINANCE,
        factor=1e4,
        aliases=("phots",),
    ),
    Unit(
        name="nit",
        symbol="nt",
        dimension=LUMINANCE,
        factor=1.0,
        aliases=("nits",),
    ),
    Unit(
        name="stilb",
        symbol="sb",
        dimension=LUMINANCE,
        factor=1e4,
        aliases=("stilbs",),
    ),

    # Radiation dose and exposure.
    Unit(
        name="gray",
        symbol="Gy",
        dimension=DOSE,
        factor=1.0,
        aliases=("grays",),
        prefixable=True,
    ),
    Unit(
        name="sievert",
        symbol="Sv",
        dimension=DOSE,
        factor=1.0,
        aliases=("sieverts",),
        prefixable=True,
    ),
    Unit(
        name="rem",
        symbol="rem",
        dimension=DOSE,
        factor=0.01,
        aliases=("rems",),
        prefixable=True,
    ),
    Unit(
        name="roentgen",
        symbol="R",
        dimension=EXPOSURE,
        factor=2.58e-4,
        aliases=("roentgens",),
    ),

    # Viscosity and flow.
    Unit(
        name="poise",
        symbol="P",
        dimension=DYNAMIC_VISCOSITY,
        factor=0.1,
        aliases=("poises",),
        prefixable=True,
    ),
    Unit(
        name="stokes",
        symbol="St",
        dimension=KINEMATIC_VISCOSITY,
        factor=1e-4,
        prefixable=True,
    ),
    Unit(
        name="US gallon per minute",
        symbol="gpm",
        dimension=FLOW,
        factor=3.785411784e-3 / 60,
    ),
    Unit(
        name="cubic foot per minute",
        symbol="cfm",
        dimension=FLOW,
        factor=0.028316846592 / 60,
    ),

    # Pure numbers.
    Unit(
        name="percent",
        symbol="%",
        dimension=DIMENSIONLESS,
        factor=0.01,
        aliases=("pct",),
    ),
    Unit(
        name="permille",
        symbol="‰",
        dimension=DIMENSIONLESS,
        factor=0.001,
    ),
    Unit(
        name="part per million",
        symbol="ppm",
        dimension=DIMENSIONLESS,
        factor=1e-6,
        aliases=("parts per million",),
    ),
    Unit(
        name="part per billion",
        symbol="ppb",
        dimension=DIMENSIONLESS,
        factor=1e-9,
        aliases=("parts per billion",),
    ),
    Unit(
        name="dozen",
        symbol="dz",
        dimension=DIMENSIONLESS,
        factor=12.0,
        aliases=("dozens",),
    ),
    Unit(
        name="gross",
        symbol="gross",
        dimension=DIMENSIONLESS,
        factor=144.0,
    ),
)


# ---------------------------------------------------------------------------
# Finding units
# ---------------------------------------------------------------------------


def _build_index(units: tuple[Unit, ...]) -> tuple[dict[str, Unit], dict[str, Unit], dict[str, Unit]]:
    """Three ways to find a unit: by symbol, by alias as written, by name or alias in any case."""
    by_symbol: dict[str, Unit] = {}
    by_alias: dict[str, Unit] = {}
    by_name: dict[str, Unit] = {}
    for unit in units:
        if unit.symbol in by_symbol:
            raise RuntimeError(f"two units have the symbol {unit.symbol!r}")
        by_symbol[unit.symbol] = unit
    for unit in units:
        for alias in unit.aliases:
            if by_symbol.get(alias, unit) is not unit or by_alias.get(alias, unit) is not unit:
                raise RuntimeError(f"the alias {alias!r} of {unit.name} is taken")
            by_alias[alias] = unit
        for key in {unit.name.lower(), *(alias.lower() for alias in unit.aliases)}:
            if by_name.get(key, unit) is not unit:
                raise RuntimeError(f"the name {key!r} of {unit.name} is taken")
            by_name[key] = unit
    return by_symbol, by_alias, by_name


_BY_SYMBOL, _BY_ALIAS, _BY_NAME = _build_index(UNITS)


def _split_prefix(text: str) -> tuple[Unit, float] | None:
    """"km" -> (metre, 1000.0): an SI prefix before the symbol of a prefixable unit."""
    for prefix in sorted(PREFIXES, key=len, reverse=True):
        if text.startswith(prefix) and len(text) > len(prefix):
            unit = _BY_SYMBOL.get(text[len(prefix) :])
            if unit is not None and unit.prefixable:
                return unit, PREFIXES[prefix]
    return None


def _split_prefix_name(text: str) -> tuple[Unit, float] | None:
    """"kilometres" -> (metre, 1000.0): the same with the prefix and the unit spelt out."""
    lowered = text.lower()
    for name, prefix in PREFIX_NAMES.items():
        if lowered.startswith(name) and len(lowered) > len(name):
            unit = _BY_NAME.get(lowered[len(name) :])
            if unit is not None and unit.prefixable:
                return unit, PREFIXES[prefix]
    return None


def find_unit(text: str) -> tuple[Unit, float]:
    """One unit, maybe prefixed: (the unit, the prefix's factor, 1.0 without one).

    Symbols and aliases as written win over prefixes ("min" is the minute, not a
    milli-inch); names in any case come last.
    """
    text = text.strip()
    for table in (_BY_SYMBOL, _BY_ALIAS):
        if text in table:
            return table[text], 1.0
    found = _split_prefix(text)
    if found is not None:
        return found
    unit = _BY_NAME.get(text.lower())
    if unit is not None:
        return unit, 1.0
    found = _split_prefix_name(text)
    if found is not None:
        return found
    raise UnknownUnit(text)


def units_of(dimension: Dimension) -> list[str]:
    """The symbols of every unit of `dimension`, smallest unit first."""
    return [u.symbol for u in sorted(UNITS, key=lambda u: u.factor) if u.dimension == dimension]


# ---------------------------------------------------------------------------
# Compound units
# ---------------------------------------------------------------------------

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_TERM = re.compile(r"^(?P<name>[^^]+?)(?:\^(?P<power>[+-]?\d+))?$")


def _normalise(text: str) -> str:
    """Write a compound unit with only "*", "/" and "^": "N · m²" -> "N*m^2"."""
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPTS), text.strip())
    text = text.replace("**", "^").replace("·", "*").replace("×", "*").replace("⋅", "*")
    text = re.sub(r"\s*([*/^()])\s*", r"\1", text)
    return re.sub(r"\s+", "*", text)


def _split_term(term: str) -> tuple[str, int]:
    """"km^2" -> ("km", 2); "s" -> ("s", 1)."""
    match = _TERM.match(term)
    if match is None:
        raise UnitError(f"cannot read the unit term {term!r}")
    return match["name"], int(match["power"] or 1)


def _terms(text: str) -> list[tuple[str, int]]:
    """"kg*m^2/s^2" -> [("kg", 1), ("m", 2), ("s", -2)]; every "/" starts a denominator."""
    numerator, *denominators = text.split("/")
    terms: list[tuple[str, int]] = []
    if numerator not in ("", "1"):
        terms.extend(_split_term(t) for t in numerator.split("*") if t)
    elif not denominators:
        raise UnitError(f"no unit in {text!r}")
    for part in denominators:
        part = part.removeprefix("(").removesuffix(")")
        if not part:
            raise UnitError(f"nothing after '/' in {text!r}")
        terms.extend((name, -power) for name, power in map(_split_term, part.split("*")))
    return terms


@dataclass(frozen=True)
class ParsedUnit:
    """A unit string read: how many coherent SI units it is, of which dimension."""

    text: str
    scale: float
    dimension: Dimension
    offset: float = 0.0
    terms: tuple[tuple[Unit, float, int], ...] = ()

    @property
    def is_affine(self) -> bool:
        return self.offset != 0.0


def _term_scale(unit: Unit, prefix: float, power: int) -> float:
    """How many coherent SI units one prefixed unit raised to `power` is."""
    return prefix * unit.factor**power


@lru_cache(maxsize=1024)
def parse_unit(text: str) -> ParsedUnit:
    """Read a unit, simple ("ft", "kilometres", "µs") or compound ("km/h", "kg*m^2/s^2")."""
    text = text.strip()
    if not text:
        raise UnitError("no unit given")
    try:
        unit, prefix = find_unit(text)
    except UnknownUnit:
        pass
    else:
        return ParsedUnit(text, prefix * unit.factor, unit.dimension, unit.offset, ((unit, prefix, 1),))
    scale = 1.0
    dimension = DIMENSIONLESS
    terms = []
    for name, power in _terms(_normalise(text)):
        unit, prefix = find_unit(name)
        if unit.is_affine:
            raise UnitError(
                f"{unit.name} has its own zero and cannot be part of {text!r}; use kelvin (K) there"
            )
        scale *= _term_scale(unit, prefix, power)
        dimension = dimension * unit.dimension**power
        terms.append((unit, prefix, power))
    return ParsedUnit(text, scale, dimension, 0.0, tuple(terms))


def dimension_of(text: str) -> Dimension:
    return parse_unit(text).dimension


def compatible(a: str, b: str) -> bool:
    """Whether a value in unit `a` can be given in unit `b`."""
    return dimension_of(a) == dimension_of(b)


def _check_compatible(source: ParsedUnit, target: ParsedUnit) -> None:
    if source.dimension != target.dimension:
        raise IncompatibleUnits(
            f"cannot convert {source.text} ({source.dimension}) to {target.text} ({target.dimension})"
        )


# ---------------------------------------------------------------------------
# Conversion
# ---------------------------------------------------------------------------


def convert(value: float, source: str, target: str) -> float:
    """`value` in unit `source`, given in unit `target`."""
    src, dst = parse_unit(source), parse_unit(target)
    _check_compatible(src, dst)
    base = (value + src.offset) * src.scale
    return base / dst.scale - dst.offset


def convert_difference(value: float, source: str, target: str) -> float:
    """Like `convert` for a difference of two values: offsets cancel (10 °C warmer = 18 °F)."""
    src, dst = parse_unit(source), parse_unit(target)
    _check_compatible(src, dst)
    return value * src.scale / dst.scale


def si_unit_for(dimension: Dimension) -> str:
    """The coherent SI unit of `dimension` in base units: ENERGY -> "kg·m^2/s^2"."""
    above, below = [], []
    for base, exponent in zip(_BASES, dimension.exponents()):
        symbol = _BASE_SYMBOLS[base]
        if exponent > 0:
            above.append(symbol if exponent == 1 else f"{symbol}^{exponent}")
        elif exponent < 0:
            below.append(symbol if exponent == -1 else f"{symbol}^{-exponent}")
    # Mass first, the way the unit is usually written.
    above.sort(key=lambda s: not s.startswith("kg"))
    text = "·".join(above) or "1"
    if below:
        text += "/" + "·".join(below)
    return text if above or below else ""


def named_si_unit(dimension: Dimension) -> str | None:
    """The symbol of the named SI unit of `dimension`, if there is one: ENERGY -> "J"."""
    for unit in UNITS:
        if unit.dimension == dimension and unit.factor == 1.0 and unit.prefixable:
            return unit.symbol
    return None


def best_prefix(value: float, symbol: str) -> tuple[float, str]:
    """Rescale `value` in the prefixable unit `symbol` so it reads 1 to 999: (0.0042, "m") -> (4.2, "mm")."""
    unit = _BY_SYMBOL.get(symbol)
    if unit is None or not unit.prefixable or value == 0:
        return value, symbol
    exponent = math.floor(math.log10(abs(value)) / 3) * 3
    for prefix in ENGINEERING_PREFIXES:
        factor = PREFIXES.get(prefix, 1.0)
        if math.isclose(factor, 10.0**exponent):
            return value / factor, prefix + symbol
    smallest = ENGINEERING_PREFIXES[0] if exponent < 0 else ENGINEERING_PREFIXES[-1]
    return value / PREFIXES[smallest], smallest + symbol


def describe(text: str) -> str:
    """One line about a unit: "kn: speed, 1 kn = 0.5144 m/s"."""
    parsed = parse_unit(text)
    si = named_si_unit(parsed.dimension) or si_unit_for(parsed.dimension) or "1"
    if parsed.is_affine:
        zero = -parsed.offset * parsed.scale
        return f"{text}: {parsed.dimension}, 0 {text} = {zero:.6g} {si}, steps of {parsed.scale:.6g} {si}"
    return f"{text}: {parsed.dimension}, 1 {text} = {parsed.scale:.6g} {si}"
