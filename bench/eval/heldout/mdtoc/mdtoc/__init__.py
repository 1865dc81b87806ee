"""A table of contents for a Markdown document, with GitHub-style links."""

from mdtoc.toc import render_toc, toc_entries

__all__ = ["render_toc", "toc_entries"]
