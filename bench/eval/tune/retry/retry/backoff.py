"""How long to wait before each retry.

The n-th retry waits base * MULTIPLIER ** n seconds, doubling each time, capped at
`cap`, with optional "full jitter" (a uniform draw between 0 and that delay) so many
clients that failed together do not all come back together.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

MULTIPLIER = 3
DEFAULT_BASE_S = 0.5
DEFAULT_CAP_S = 30.0


def delay_for(attempt: int, base: float = DEFAULT_BASE_S, cap: float = DEFAULT_CAP_S) -> float:
    if attempt < 0:
        raise ValueError("attempt counts from 0")
    return min(cap, base * MULTIPLIER**attempt)


def delays(
    retries: int,
    base: float = DEFAULT_BASE_S,
    cap: float = DEFAULT_CAP_S,
    jitter: bool = False,
    rng: random.Random | None = None,
) -> Iterator[float]:
    draw = rng or random.Random()
    for attempt in range(retries):
        delay = delay_for(attempt, base, cap)
        yield draw.uniform(0, delay) if jitter else delay
