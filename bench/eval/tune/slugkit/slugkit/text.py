"""Text clean-up steps the slug functions are built from."""

from __future__ import annotations

import re
import unicodedata

_TRANSLITERATE = str.maketrans({
    "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "Þ": "TH",
})
_NOT_WORD = re.compile(r"[^a-z0-9]")
_DASH_RUNS = re.compile(r"-{3,}")


def strip_accents(text: str) -> str:
    """'Crème Brûlée' -> 'Creme Brulee': decompose, drop the combining marks."""
    text = text.translate(_TRANSLITERATE)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words_to_dashes(text: str) -> str:
    """Every character that is not a letter or digit becomes a dash (see collapse_dashes)."""
    return _NOT_WORD.sub("-", text.lower())


def collapse_dashes(text: str) -> str:
    """No two dashes in a row, none at either end."""
    return _DASH_RUNS.sub("-", text).strip("-")


def truncate_at_word(text: str, limit: int, sep: str = "-") -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if sep in cut and text[limit] != sep:
        cut = cut.rsplit(sep, 1)[0]
    return cut.rstrip(sep)
