import unittest

from words import count_words, top_words

TEXT = "the cat and the dog and the bird"


class WordTests(unittest.TestCase):
    def test_count(self):
        self.assertEqual(count_words(TEXT)["the"], 3)

    def test_top_two(self):
        self.assertEqual(top_words(TEXT, 2), ["the", "and"])

    def test_top_one(self):
        self.assertEqual(top_words(TEXT, 1), ["the"])


if __name__ == "__main__":
    unittest.main()
