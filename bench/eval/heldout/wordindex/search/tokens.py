"""Words from text: letters and digits, apostrophes inside words kept, stop words out."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
STOP_WORDS = frozenset("a an and are as at be by for from in is it of on or the to with".split())


def tokens(text: str) -> list[str]:
    """The words of `text` in order, as written (case is the index's business)."""
    return [w for w in _WORD.findall(text) if w.lower() not in STOP_WORDS]


def normalise(word: str) -> str:
    return word.lower()
