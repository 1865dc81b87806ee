"""The row of page links under a list: 1 … 4 5 [6] 7 8 … 20."""

from __future__ import annotations

GAP = None


def page_links(current: int, pages: int, around: int = 2) -> list[int | None]:
    """Page numbers to link, with None where a gap ("…") goes."""
    if pages <= 1:
        return [1]
    shown = {1, pages, *range(current - around, current + around + 1)}
    numbers = sorted(n for n in shown if 1 <= n <= pages)
    links: list[int | None] = []
    for n in numbers:
        if links and links[-1] is not GAP and n - links[-1] > 1:  # type: ignore[operator]
            links.append(GAP)
        links.append(n)
    return links
