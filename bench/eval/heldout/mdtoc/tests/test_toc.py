import unittest

from mdtoc import render_toc, toc_entries

DOC = """# kiln

## Quick start

## Install from source

### `kiln local` set-up

```sh
# not a heading
```

## FAQ

## FAQ
"""


class TocTest(unittest.TestCase):
    def test_entries_skip_the_title_and_code(self):
        titles = [e.title for e in toc_entries(DOC)]
        self.assertEqual(titles, ["Quick start", "Install from source", "kiln local set-up", "FAQ", "FAQ"])

    def test_anchors_like_github(self):
        anchors = [e.anchor for e in toc_entries(DOC)]
        self.assertEqual(
            anchors, ["quick-start", "install-from-source", "kiln-local-set-up", "faq", "faq-1"]
        )

    def test_render(self):
        self.assertEqual(
            render_toc("## Read me\n### Why?\n").splitlines(),
            ["- [Read me](#read-me)", "  - [Why?](#why)"],
        )


if __name__ == "__main__":
    unittest.main()
