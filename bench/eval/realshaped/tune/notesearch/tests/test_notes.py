import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from notes.cli import main
from notes.index import Index, load_folder
from notes.snippet import highlight, snippet


class IndexTest(unittest.TestCase):
    def setUp(self):
        self.index = Index()
        self.index.add("git.md", "rebase onto main, then force push")
        self.index.add("shell.txt", "use set -e in scripts; push and pop dirs with pushd")

    def test_every_word_must_match(self):
        self.assertEqual(self.index.search("push"), ["git.md", "shell.txt"])
        self.assertEqual(self.index.search("force push"), ["git.md"])
        self.assertEqual(self.index.search("force scripts"), [])

    def test_empty_query(self):
        self.assertEqual(self.index.search("  ...  "), [])

    def test_re_adding_replaces(self):
        self.index.add("git.md", "bisect")
        self.assertEqual(self.index.search("rebase"), [])
        self.assertEqual(self.index.search("bisect"), ["git.md"])
        self.assertEqual(len(self.index), 2)


class SnippetTest(unittest.TestCase):
    def test_highlight_whole_words(self):
        self.assertEqual(highlight("push and pushd", ["push"]), "**push** and pushd")

    def test_snippet_centres_on_first_hit(self):
        text = "x " * 50 + "the answer is here " + "y " * 50
        piece = snippet(text, ["answer"], width=40)
        self.assertTrue(piece.startswith("…") and piece.endswith("…"))
        self.assertIn("**answer**", piece)

    def test_short_note_is_whole(self):
        self.assertEqual(snippet("rebase\nonto main", ["main"]), "rebase onto **main**")


class CliTest(unittest.TestCase):
    def test_search_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "sub").mkdir()
            (folder / "sub" / "a.md").write_text("deploy with make release")
            (folder / "b.txt").write_text("release notes go in CHANGES")
            (folder / "c.bin").write_text("release")
            self.assertEqual(len(load_folder(folder)), 2)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = main(["search", "release", "--dir", tmp])
        self.assertEqual(code, 0)
        self.assertEqual(out.getvalue().splitlines(), [
            "b.txt: **release** notes go in CHANGES",
            "sub/a.md: deploy with make **release**",
        ])


if __name__ == "__main__":
    unittest.main()
