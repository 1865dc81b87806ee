import unittest

from units import UnitError, convert, parse_quantity
from units.convert import (
    celsius_to_fahrenheit,
    feet_to_metres,
    gallons_to_litres,
    kilowatt_hours_to_joules,
    litres_to_gallons,
    pounds_to_kilograms,
)


class NamedConversionsTest(unittest.TestCase):
    def test_length_and_mass(self):
        self.assertAlmostEqual(feet_to_metres(10), 3.048)
        self.assertAlmostEqual(pounds_to_kilograms(2), 0.90718474)

    def test_volume(self):
        self.assertAlmostEqual(gallons_to_litres(2), 7.570823568)
        self.assertAlmostEqual(litres_to_gallons(3.785411784), 1.0)

    def test_energy_and_temperature(self):
        self.assertEqual(kilowatt_hours_to_joules(1), 3.6e6)
        self.assertEqual(celsius_to_fahrenheit(100), 212)


class GenericTest(unittest.TestCase):
    def test_symbols(self):
        self.assertAlmostEqual(convert(1, "mi", "km"), 1.609344)

    def test_different_categories(self):
        with self.assertRaises(UnitError):
            convert(1, "kg", "m")

    def test_quantities_add_in_the_first_unit(self):
        total = parse_quantity("1 gal") + parse_quantity("2 qt")
        self.assertEqual(str(total), "1.5 gallon")
        self.assertAlmostEqual(parse_quantity("1 gal").to("l").value, 3.785411784)


if __name__ == "__main__":
    unittest.main()
