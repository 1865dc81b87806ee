"""Retrying flaky calls with exponential backoff."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)
log = logging.getLogger(__name__)


def retry(
    attempts: int = 3,
    delay: float = 0.5,
    backoff: float = 2.0,
    max_delay: float = 30.0,
    exceptions: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError),
    sleep: Callable[[float], None] = time.sleep,
) -> Callable[[F], F]:
    """Call the function up to `attempts` times while it raises one of `exceptions`,
    waiting `delay` seconds after the first failure, then `backoff` times longer each
    time, never more than `max_delay`. Other exceptions are raised at once."""
    if attempts < 1:
        raise ValueError("attempts must be at least 1")

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            wait = delay
            for attempt in range(attempts + 1):
                try:
                    return func(*args, **kwargs)
                except exceptions as exc:
                    log.warning("%s failed (attempt %d of %d): %s", func.__name__, attempt + 1, attempts, exc)
                    sleep(wait)
                    wait = min(wait * backoff, max_delay)
                    if attempt == attempts:
                        raise

        return wrapper  # type: ignore[return-value]

    return decorate
