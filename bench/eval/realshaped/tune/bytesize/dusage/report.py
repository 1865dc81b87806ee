"""Totals per top-level folder, biggest first."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable

from dusage.sizes import humanize


def totals(files: Iterable[tuple[str, int]]) -> dict[str, int]:
    """(relative path, size) pairs -> size per top-level entry."""
    sums: dict[str, int] = defaultdict(int)
    for path, size in files:
        top = path.replace(os.sep, "/").split("/", 1)[0]
        sums[top] += size
    return dict(sums)


def scan(root: str) -> list[tuple[str, int]]:
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            full = os.path.join(folder, name)
            found.append((os.path.relpath(full, root), os.path.getsize(full)))
    return found


def render(sums: dict[str, int], min_size: int = 0) -> str:
    rows = sorted(((s, name) for name, s in sums.items() if s >= min_size), key=lambda r: (-r[0], r[1]))
    lines = [f"{humanize(size):>10}  {name}" for size, name in rows]
    lines.append(f"{humanize(sum(sums.values())):>10}  total")
    return "\n".join(lines)
