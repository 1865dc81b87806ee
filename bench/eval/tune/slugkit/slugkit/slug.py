"""Slugs: lower case ASCII words joined by dashes."""

from __future__ import annotations

from collections.abc import Container

from slugkit.text import collapse_dashes, strip_accents, truncate_at_word, words_to_dashes

MAX_LENGTH = 60


def slugify(title: str, max_length: int = MAX_LENGTH) -> str:
    ascii_title = strip_accents(title)
    # Keep an apostrophe inside a word from splitting it: "don't" -> "dont".
    ascii_title = ascii_title.replace("'", "").replace("\u2019", "")
    slug = collapse_dashes(words_to_dashes(ascii_title))
    return truncate_at_word(slug, max_length)


def unique_slug(title: str, taken: Container[str]) -> str:
    """The slug, or the slug with -2, -3 ... when it is already taken."""
    base = slugify(title) or "untitled"
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def filename(title: str, extension: str) -> str:
    stem = slugify(title, max_length=80) or "file"
    return f"{stem}.{extension.lstrip('.').lower()}"
