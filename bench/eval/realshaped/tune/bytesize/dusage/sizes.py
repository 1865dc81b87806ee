"""Sizes for people: binary units (1 KiB = 1024 bytes), one decimal place."""

from __future__ import annotations

import re

UNITS = ["B", "KiB", "MiB", "GiB", "TiB"]
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$", re.IGNORECASE)


def humanize(n: int) -> str:
    """1536 -> '1.5 KiB'. Plain bytes are shown without decimals."""
    if n < 0:
        raise ValueError("a size cannot be negative")
    if n < 1024:
        return f"{n} B"
    value = float(n)
    unit = 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    return f"{value:.1f} {UNITS[unit]}"


def parse_size(text: str) -> int:
    """'1.5G', '200 MiB', '512' -> bytes. Used by --min-size."""
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"not a size: {text!r}")
    number, prefix = match.groups()
    power = "BKMGT".index(prefix.upper() or "B")
    return int(float(number) * 1024**power)
