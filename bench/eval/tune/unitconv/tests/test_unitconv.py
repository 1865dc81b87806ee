import unittest

from unitconv import (
    IncompatibleUnits,
    Quantity,
    UnitError,
    UnknownUnit,
    convert,
    convert_difference,
    describe,
    dimension_of,
    find_unit,
    format_number,
    format_quantity,
    named_si_unit,
    si_unit_for,
    units_of,
)


class ConvertTest(unittest.TestCase):
    def test_lengths(self):
        self.assertAlmostEqual(convert(1, "mi", "km"), 1.609344)
        self.assertAlmostEqual(convert(6, "ft", "in"), 72)
        self.assertAlmostEqual(convert(10, "nmi", "km"), 18.52)

    def test_names_plurals_and_prefixes(self):
        self.assertAlmostEqual(convert(3, "feet", "metres"), 0.9144)
        self.assertAlmostEqual(convert(2, "Kilometres", "m"), 2000)
        self.assertAlmostEqual(convert(2500, "mg", "g"), 2.5)
        self.assertAlmostEqual(convert(1, "kWh", "MJ"), 3.6)
        self.assertAlmostEqual(convert(1, "GiB", "MB"), 1073.741824)

    def test_temperatures(self):
        self.assertAlmostEqual(convert(100, "degC", "degF"), 212)
        self.assertAlmostEqual(convert(-40, "°F", "°C"), -40)
        self.assertAlmostEqual(convert(0, "K", "celsius"), -273.15)
        self.assertAlmostEqual(convert_difference(10, "degC", "degF"), 18)

    def test_speeds(self):
        self.assertAlmostEqual(convert(90, "km/h", "m/s"), 25)
        self.assertAlmostEqual(convert(1, "kn", "km/h"), 1.852)
        self.assertAlmostEqual(convert(60, "mph", "km/h"), 96.56064)

    def test_areas(self):
        self.assertAlmostEqual(convert(1, "km^2", "ha"), 100)
        self.assertAlmostEqual(convert(1, "acre", "ft²"), 43560)
        self.assertAlmostEqual(convert(5000, "cm²", "m^2"), 0.5)

    def test_volumes(self):
        self.assertAlmostEqual(convert(250, "cm^3", "l"), 0.25)
        self.assertAlmostEqual(convert(1, "gal", "l"), 3.785411784)
        self.assertAlmostEqual(convert(1, "gal_imp", "pt_imp"), 8)

    def test_compound_units(self):
        self.assertAlmostEqual(convert(1, "kg*m^2/s^2", "J"), 1)
        self.assertAlmostEqual(convert(3, "N·m", "J"), 3)
        self.assertAlmostEqual(convert(2, "W/(m^2*K)", "W·m⁻²·K⁻¹"), 2)
        self.assertAlmostEqual(convert(1, "psi", "kPa"), 6.894757293)

    def test_errors(self):
        with self.assertRaises(IncompatibleUnits):
            convert(1, "m", "s")
        with self.assertRaises(UnknownUnit):
            convert(1, "furlongs per fortnight", "m/s")
        with self.assertRaises(UnitError):
            convert(1, "degC/s", "K/s")


class LookupTest(unittest.TestCase):
    def test_symbols_win_over_prefixes(self):
        self.assertEqual(find_unit("min")[0].name, "minute")
        self.assertEqual(find_unit("Pa")[0].name, "pascal")
        self.assertEqual(find_unit("nmi")[0].name, "nautical mile")

    def test_dimensions(self):
        energy = dimension_of("kWh")
        self.assertEqual(si_unit_for(energy), "kg·m^2/s^2")
        self.assertEqual(named_si_unit(energy), "J")
        self.assertEqual(str(dimension_of("km/h")), "speed")
        self.assertIn("degF", units_of(dimension_of("K")))

    def test_describe(self):
        self.assertEqual(describe("kn"), "kn: speed, 1 kn = 0.514444 m/s")


class QuantityTest(unittest.TestCase):
    def test_parse_and_convert(self):
        self.assertAlmostEqual(Quantity.parse("12.5 km/h").to("m/s").value, 3.4722222)
        self.assertAlmostEqual(Quantity.parse("-40 °F").to("degC").value, -40)

    def test_arithmetic(self):
        total = Quantity(1, "m") + Quantity(20, "cm")
        self.assertEqual(str(total), "1.2 m")
        self.assertTrue(Quantity(1, "ft") < Quantity(1, "m"))
        with self.assertRaises(UnitError):
            Quantity(20, "degC") + Quantity(5, "degC")

    def test_formatting(self):
        self.assertEqual(format_number(2 / 3), "0.6667")
        self.assertEqual(format_number(0.00002), "2e-5")
        self.assertEqual(format_number(6.02214076e23), "6.022e23")
        self.assertEqual(format_quantity(Quantity(0.0042, "m"), prefix=True), "4.2 mm")
        self.assertEqual(format_quantity(Quantity(15300, "W"), prefix=True), "15.3 kW")


if __name__ == "__main__":
    unittest.main()
