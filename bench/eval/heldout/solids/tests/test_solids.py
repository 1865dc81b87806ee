import math
import unittest

from solids import concrete_m3, paint_m2, polygon
from solids.shapes import HeptagonalPrism, Hexagon, OctagonalPyramid, Square, SquareFrustum


class PolygonTest(unittest.TestCase):
    def test_square(self):
        self.assertAlmostEqual(Square(3).area(), 9)
        self.assertAlmostEqual(Square(3).interior_angle(), 90)

    def test_hexagon(self):
        self.assertAlmostEqual(Hexagon(2).area(), 6 * math.sqrt(3))
        self.assertEqual(Hexagon(2).diagonals(), 9)
        self.assertTrue(Hexagon(2).contains(0, 0))

    def test_polygon_by_count(self):
        self.assertAlmostEqual(polygon(7, 1).area(), 3.6339124, places=6)


class SolidTest(unittest.TestCase):
    def test_heptagonal_prism(self):
        prism = HeptagonalPrism(1, 2)
        self.assertAlmostEqual(prism.volume(), 7.2678249, places=6)
        self.assertEqual(prism.faces(), 9)

    def test_pyramid_and_frustum(self):
        self.assertAlmostEqual(OctagonalPyramid(1, 3).volume(), 4.8284271, places=6)
        self.assertAlmostEqual(SquareFrustum(2, 1, 3).volume(), 7.0)

    def test_estimates(self):
        self.assertEqual(concrete_m3(7, 1, 2), 7.63)
        self.assertEqual(concrete_m3(4, 2, 0.5), 2.1)
        self.assertEqual(paint_m2(4, 1, 1, coats=1), 5.0)


if __name__ == "__main__":
    unittest.main()
