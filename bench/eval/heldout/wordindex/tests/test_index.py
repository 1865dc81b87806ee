import unittest

from search import Index
from search.tokens import tokens


class IndexTest(unittest.TestCase):
    def setUp(self):
        self.index = Index()
        self.index.add("d1", "Python tips", "Python is fun. Use python daily.")
        self.index.add("d2", "Rust notes", "Rust and Python compared")
        self.index.add("d3", "Gardening", "Tomatoes need sun")

    def test_tokens(self):
        self.assertEqual(tokens("The cat's hat is on"), ["cat's", "hat"])

    def test_case_does_not_matter(self):
        self.assertEqual(self.index.search("PYTHON"), ["d1", "d2"])
        self.assertEqual(self.index.search("python rust"), ["d2"])

    def test_ranked_by_count(self):
        self.assertEqual(self.index.search("python")[0], "d1")

    def test_vocabulary_is_lower_case(self):
        self.assertIn("tomatoes", self.index.vocabulary())

    def test_nothing(self):
        self.assertEqual(self.index.search("the"), [])


if __name__ == "__main__":
    unittest.main()
