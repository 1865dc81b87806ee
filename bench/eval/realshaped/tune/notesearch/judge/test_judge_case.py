import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from notes.cli import main
from notes.index import Index
from notes.snippet import highlight, snippet


class CaseInsensitiveSearchTest(unittest.TestCase):
    def setUp(self):
        self.index = Index()
        self.index.add("tricks.md", "Python Tricks\n\nUse enumerate() instead of range(len(x)).")
        self.index.add("snakes.txt", "a PYTHON is not venomous")
        self.index.add("go.md", "Go has no enumerate")

    def test_lower_case_query_finds_capitalised_words(self):
        self.assertEqual(self.index.search("python"), ["snakes.txt", "tricks.md"])

    def test_upper_case_query_finds_lower_case_words(self):
        self.assertEqual(self.index.search("ENUMERATE"), ["go.md", "tricks.md"])
        self.assertEqual(self.index.search("Python Enumerate"), ["tricks.md"])

    def test_replacing_a_note_still_works(self):
        self.index.add("tricks.md", "nothing here")
        self.assertEqual(self.index.search("python"), ["snakes.txt"])


class CaseInsensitiveHighlightTest(unittest.TestCase):
    def test_highlight_keeps_the_note_spelling(self):
        self.assertEqual(highlight("Python Tricks and python", ["python"]), "**Python** Tricks and **python**")
        self.assertEqual(highlight("a PYTHON is", ["Python"]), "a **PYTHON** is")

    def test_still_whole_words_only(self):
        self.assertEqual(highlight("Push and Pushd", ["push"]), "**Push** and Pushd")

    def test_snippet_finds_the_word_in_any_case(self):
        text = "x " * 50 + "and then Python appears " + "y " * 50
        piece = snippet(text, ["python"], width=40)
        self.assertTrue(piece.startswith("…"))
        self.assertIn("**Python** appears", piece)


class CliTest(unittest.TestCase):
    def test_search_prints_hits_highlighted(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "tricks.md").write_text("Python Tricks")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = main(["search", "python", "--dir", tmp])
        self.assertEqual(code, 0)
        self.assertEqual(out.getvalue(), "tricks.md: **Python** Tricks\n")


if __name__ == "__main__":
    unittest.main()
