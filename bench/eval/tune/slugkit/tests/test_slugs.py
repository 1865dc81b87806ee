import unittest

from slugkit import filename, slugify, unique_slug


class SlugTest(unittest.TestCase):
    def test_accents_and_case(self):
        self.assertEqual(slugify("Crème Brûlée"), "creme-brulee")

    def test_apostrophes_join(self):
        self.assertEqual(slugify("Don't Panic"), "dont-panic")

    def test_punctuation_never_gives_double_dashes(self):
        self.assertEqual(slugify("Rock -- and -- Roll"), "rock-and-roll")
        self.assertEqual(slugify("C++ & Rust: a -- comparison"), "c-rust-a-comparison")

    def test_truncates_at_a_word(self):
        self.assertEqual(slugify("the quick brown fox jumps", max_length=13), "the-quick")

    def test_unique(self):
        self.assertEqual(unique_slug("Hello", {"hello", "hello-2"}), "hello-3")

    def test_filename(self):
        self.assertEqual(filename("Q3 -- Report", ".PDF"), "q3-report.pdf")


if __name__ == "__main__":
    unittest.main()
