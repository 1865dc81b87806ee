"""Anchors as GitHub makes them: lower case, punctuation dropped, spaces to hyphens,
hyphens kept, and -1, -2 ... on repeats."""

from __future__ import annotations

import re

_DROP = re.compile(r"[^\w\- ]")
_INLINE_CODE_OR_EMPHASIS = re.compile(r"[`*_]{1,2}([^`*_]+)[`*_]{1,2}")


def plain_text(heading: str) -> str:
    """Heading text as rendered: `code`, *emphasis* and [links](url) reduced to their text."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", heading)
    return _INLINE_CODE_OR_EMPHASIS.sub(r"\1", text)


def slug(heading: str) -> str:
    text = plain_text(heading).strip().lower()
    text = _DROP.sub("", text)
    return text.replace(" ", "-").replace("-", "")


class AnchorMaker:
    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def anchor(self, heading: str) -> str:
        base = slug(heading)
        count = self.seen.get(base, 0)
        self.seen[base] = count + 1
        return base if count == 0 else f"{base}-{count}"
