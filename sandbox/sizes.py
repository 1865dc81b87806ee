"""Sizes as people and Docker write them: 2g, 300m, 512k."""

from __future__ import annotations

import re

from sandbox.base import SandboxError

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)b?\s*")
_SCALE = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_bytes(size: str | int) -> int:
    """ "2g", "300m", "512k" or a number of bytes, as `docker run --memory` reads it."""
    if isinstance(size, int):
        return size
    match = _SIZE.fullmatch(size.lower())
    if match is None:
        raise SandboxError(f"{size!r} is not a size like 2g or 512m; fix it in the settings.")
    return int(float(match.group(1)) * _SCALE[match.group(2)])
