"""The bit of a note shown under a search hit, with the query words in **bold**."""

from __future__ import annotations

import re


def highlight(text: str, terms: list[str]) -> str:
    for term in terms:
        text = re.sub(rf"\b{re.escape(term)}\b", f"**{term}**", text)
    return text


def snippet(text: str, terms: list[str], width: int = 60) -> str:
    """About `width` characters of `text` around the first query word, on one line."""
    flat = " ".join(text.split())
    positions = [p for p in (flat.find(term) for term in terms) if p >= 0]
    start = max(0, min(positions) - width // 3) if positions else 0
    piece = flat[start : start + width]
    if start > 0:
        piece = "…" + piece
    if start + width < len(flat):
        piece += "…"
    return highlight(piece, terms)
