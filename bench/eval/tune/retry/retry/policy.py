"""A retry policy: which errors to retry, how many times, how long to wait between."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from retry.backoff import DEFAULT_BASE_S, DEFAULT_CAP_S, delays

T = TypeVar("T")


class RetryError(Exception):
    def __init__(self, attempts: int, last: BaseException) -> None:
        super().__init__(f"gave up after {attempts} attempts: {last}")
        self.attempts = attempts
        self.last = last


@dataclass
class RetryPolicy:
    retries: int = 4
    base_s: float = DEFAULT_BASE_S
    cap_s: float = DEFAULT_CAP_S
    jitter: bool = True
    retry_on: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError)
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def schedule(self) -> list[float]:
        return list(delays(self.retries, self.base_s, self.cap_s, jitter=False))


def retry_call(fn: Callable[[], T], policy: RetryPolicy | None = None) -> T:
    policy = policy or RetryPolicy()
    waits = delays(policy.retries, policy.base_s, policy.cap_s, jitter=policy.jitter)
    attempts = 0
    while True:
        attempts += 1
        try:
            return fn()
        except policy.retry_on as exc:
            wait = next(waits, None)
            if wait is None:
                raise RetryError(attempts, exc) from exc
            policy.sleep(wait)
