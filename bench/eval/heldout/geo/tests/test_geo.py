import unittest

from geo import Point, bearing_deg, bounding_box, distance_km

LONDON = Point(51.5074, -0.1278)
PARIS = Point(48.8566, 2.3522)
NEW_YORK = Point(40.7128, -74.0060)


class DistanceTest(unittest.TestCase):
    def test_london_paris(self):
        self.assertAlmostEqual(distance_km(LONDON, PARIS), 343.5, delta=1.0)

    def test_london_new_york(self):
        self.assertAlmostEqual(distance_km(LONDON, NEW_YORK), 5570, delta=10)

    def test_same_point(self):
        self.assertEqual(distance_km(PARIS, PARIS), 0)

    def test_bearing(self):
        self.assertAlmostEqual(bearing_deg(LONDON, PARIS), 148.1, delta=0.5)


class BoxTest(unittest.TestCase):
    def test_box(self):
        box = bounding_box([LONDON, PARIS, NEW_YORK])
        self.assertEqual((box.south, box.west), (40.7128, -74.0060))
        self.assertTrue(box.contains(Point(45, -30)))

    def test_parse_and_print(self):
        self.assertEqual(str(Point.parse("51.5074, -0.1278")), "51.5074°N 0.1278°W")


if __name__ == "__main__":
    unittest.main()
