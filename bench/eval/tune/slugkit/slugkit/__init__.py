"""URL slugs and file-safe names from arbitrary titles."""

from slugkit.slug import filename, slugify, unique_slug

__all__ = ["filename", "slugify", "unique_slug"]
