import unittest
from datetime import date

from blogkit.posts import PostError, parse_post
from blogkit.slug import slugify, unique_slug


class SlugTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")
        self.assertEqual(slugify("  10 things -- about   C++  "), "10-things-about-c")

    def test_nothing_left(self):
        self.assertEqual(slugify("!!!"), "post")

    def test_truncates_at_a_word(self):
        self.assertEqual(slugify("one two three four", max_length=12), "one-two")
        self.assertEqual(slugify("abcdefghijklmnop", max_length=5), "abcde")

    def test_unique(self):
        self.assertEqual(unique_slug("Hello", {"hello", "hello-2"}), "hello-3")
        self.assertEqual(unique_slug("Hello", set()), "hello")


class PostTest(unittest.TestCase):
    TEXT = "---\ntitle: Moving to Berlin\ndate: 2024-03-05\ntags: Life, travel\n---\n\nWe moved.\n"

    def test_parse(self):
        taken = set()
        post = parse_post(self.TEXT, taken)
        self.assertEqual(post.slug, "moving-to-berlin")
        self.assertEqual(post.published, date(2024, 3, 5))
        self.assertEqual(post.tags, ("life", "travel"))
        self.assertEqual(post.body, "We moved.\n")
        self.assertEqual(post.permalink, "/2024/03/moving-to-berlin/")
        self.assertEqual(taken, {"moving-to-berlin"})

    def test_explicit_slug(self):
        post = parse_post(self.TEXT.replace("tags:", "slug: berlin\ntags:"), set())
        self.assertEqual(post.slug, "berlin")

    def test_second_post_with_same_title(self):
        taken = set()
        parse_post(self.TEXT, taken)
        self.assertEqual(parse_post(self.TEXT, taken).slug, "moving-to-berlin-2")

    def test_errors(self):
        for text in ("no front matter", "---\ntitle: x\n", "---\ntitle: x\n---\n", "---\njunk\n---\n"):
            with self.assertRaises(PostError):
                parse_post(text, set())


if __name__ == "__main__":
    unittest.main()
