import unittest

from blogkit.posts import parse_post
from blogkit.slug import slugify, unique_slug


class AccentTest(unittest.TestCase):
    def test_accents_are_dropped_not_the_letters(self):
        cases = {
            "Crème brûlée": "creme-brulee",
            "Ça va? Très bien": "ca-va-tres-bien",
            "Ångström units": "angstrom-units",
            "Señor Müller's Café": "senor-muller-s-cafe",
            "ÉCOLE NORMALE": "ecole-normale",
        }
        for title, slug in cases.items():
            with self.subTest(title=title):
                self.assertEqual(slugify(title), slug)

    def test_symbols_without_a_letter_are_still_dropped(self):
        self.assertEqual(slugify("I ❤ Python"), "i-python")
        self.assertEqual(slugify("→ ←"), "post")

    def test_plain_titles_unchanged(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_truncation_after_transliteration(self):
        self.assertEqual(slugify("déjà vu à Paris", max_length=10), "deja-vu-a")

    def test_unique_and_posts(self):
        self.assertEqual(unique_slug("Crème brûlée", {"creme-brulee"}), "creme-brulee-2")
        post = parse_post("---\ntitle: Zürich in März\ndate: 2024-03-01\n---\nhi\n", set())
        self.assertEqual(post.permalink, "/2024/03/zurich-in-marz/")


if __name__ == "__main__":
    unittest.main()
