"""URL slugs from post titles: lower case ASCII letters and digits joined by single hyphens."""

from __future__ import annotations

import re
from collections.abc import Collection

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(title: str, max_length: int = 60) -> str:
    slug = _NOT_SLUG.sub("-", title.lower()).strip("-")
    if len(slug) > max_length:
        cut = slug[: max_length + 1]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else slug[:max_length]
    return slug or "post"


def unique_slug(title: str, taken: Collection[str], max_length: int = 60) -> str:
    """slugify(title), with -2, -3, ... appended if that slug is already taken."""
    base = slugify(title, max_length)
    slug, n = base, 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    return slug
