import unittest

from shipping import Parcel, ParcelError, UnknownCountry, quote, zone_for


class ZoneTest(unittest.TestCase):
    def test_zones_ignore_case_and_spaces(self):
        self.assertEqual(zone_for(" fr "), "europe")
        self.assertEqual(zone_for("GB"), "domestic")

    def test_unknown_country(self):
        with self.assertRaises(UnknownCountry):
            zone_for("XX")


class ParcelTest(unittest.TestCase):
    def test_too_heavy(self):
        with self.assertRaises(ParcelError):
            Parcel(31, 10, 10, 10)

    def test_volumetric_weight(self):
        self.assertEqual(Parcel(1, 50, 40, 30).volumetric_kg, 12.0)


class QuoteTest(unittest.TestCase):
    def test_small_heavy_parcel_is_billed_by_weight(self):
        q = quote(Parcel(2.2, 20, 15, 10), "GB")
        self.assertEqual(q.billable_kg, 2.5)
        self.assertEqual(q.pence, 350 + 225)

    def test_bulky_light_parcel_is_billed_by_volume(self):
        q = quote(Parcel(1.0, 50, 40, 30), "DE")
        self.assertEqual(q.billable_kg, 12.0)
        self.assertEqual(q.pounds, "£37.80")

    def test_oversize_surcharge(self):
        q = quote(Parcel(5, 140, 45, 40), "GB")
        self.assertEqual(q.billable_kg, 50.5)
        self.assertEqual(q.pence, 350 + 4545 + 1200)


if __name__ == "__main__":
    unittest.main()
