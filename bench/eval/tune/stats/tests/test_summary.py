import unittest

from stats.central import median, modes
from stats.spread import percentile, variance
from stats.summary import summarise


class SummaryTest(unittest.TestCase):
    def test_summary_of_a_series(self):
        s = summarise([4, 1, 3, 2, 10])
        self.assertEqual((s.count, s.mean, s.median, s.low, s.high), (5, 4.0, 3.0, 1, 10))
        self.assertEqual(s.describe().split()[:3], ["n=5", "mean=4.00", "median=3.00"])

    def test_summary_of_nothing(self):
        s = summarise([])
        self.assertEqual(s.count, 0)
        self.assertIsNone(s.median)
        self.assertIsNone(s.mean)
        self.assertEqual(s.describe(), "no values")

    def test_median_even(self):
        self.assertEqual(median([1, 2, 3, 4]), 2.5)

    def test_median_of_nothing(self):
        self.assertIsNone(median([]))

    def test_one_value_has_no_sample_variance(self):
        self.assertIsNone(variance([5]))
        self.assertEqual(variance([5], sample=False), 0)

    def test_percentile(self):
        self.assertEqual(percentile([1, 2, 3, 4, 5], 50), 3)
        self.assertAlmostEqual(percentile([10, 20], 90), 19.0)

    def test_modes(self):
        self.assertEqual(modes([3, 1, 3, 1, 2]), [1, 3])


if __name__ == "__main__":
    unittest.main()
