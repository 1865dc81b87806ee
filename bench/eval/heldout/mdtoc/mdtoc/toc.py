"""The table of contents: one nested list item per heading below the title."""

from __future__ import annotations

from dataclasses import dataclass

from mdtoc.anchors import AnchorMaker, plain_text
from mdtoc.headings import headings


@dataclass(frozen=True)
class Entry:
    level: int
    title: str
    anchor: str


def toc_entries(markdown: str, min_level: int = 2, max_level: int = 3) -> list[Entry]:
    maker = AnchorMaker()
    entries = []
    for h in headings(markdown):
        anchor = maker.anchor(h.text)  # every heading takes an anchor, shown or not
        if min_level <= h.level <= max_level:
            entries.append(Entry(h.level, plain_text(h.text), anchor))
    return entries


def render_toc(markdown: str, min_level: int = 2, max_level: int = 3) -> str:
    lines = []
    for e in toc_entries(markdown, min_level, max_level):
        indent = "  " * (e.level - min_level)
        lines.append(f"{indent}- [{e.title}](#{e.anchor})")
    return "\n".join(lines)
