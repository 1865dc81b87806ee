"""A rough strength estimate for the meter under the password field."""

from __future__ import annotations

import math

from passwords.policy import character_classes

POOL_SIZES = {1: 26, 2: 52, 3: 62, 4: 94}


def entropy_bits(password: str) -> float:
    if not password:
        return 0.0
    pool = POOL_SIZES[max(1, character_classes(password))]
    return round(len(password) * math.log2(pool), 1)


def label(password: str) -> str:
    bits = entropy_bits(password)
    if bits < 40:
        return "weak"
    if bits < 70:
        return "fair"
    return "strong"
