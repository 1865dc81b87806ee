"""Headings of a Markdown document: ATX (# Title) only, fenced code skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


def headings(markdown: str) -> list[Heading]:
    found = []
    in_fence = False
    for number, line in enumerate(markdown.splitlines(), start=1):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        match = _ATX.match(line)
        if match:
            found.append(Heading(len(match[1]), match[2], number))
    return found
