import unittest

from palindrome import is_palindrome


class PalindromeTests(unittest.TestCase):
    def test_simple(self):
        self.assertTrue(is_palindrome("level"))
        self.assertFalse(is_palindrome("kiln"))

    def test_ignores_case(self):
        self.assertTrue(is_palindrome("Racecar"))

    def test_ignores_spaces(self):
        self.assertTrue(is_palindrome("never odd or even"))


if __name__ == "__main__":
    unittest.main()
