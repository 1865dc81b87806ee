"""A small in-process cache whose entries expire `ttl` seconds after they are stored.

Used in front of the feature-flag service and the exchange-rate lookup, which are
slow and change rarely.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

_MISSING = object()


class TTLCache:
    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic, max_size: int = 1024) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        self.ttl = ttl
        self.max_size = max_size
        self._clock = clock
        self._lock = threading.Lock()
        self._data: dict[Hashable, tuple[Any, float]] = {}

    def set(self, key: Hashable, value: Any) -> None:
        with self._lock:
            if key not in self._data and len(self._data) >= self.max_size:
                self._evict_oldest()
            self._data[key] = (value, self._clock())

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return default
            value, stamp = entry
            now = self._clock()
            if now - stamp > self.ttl:
                del self._data[key]
                return default
            self._data[key] = (value, now)
            return value

    def get_or_set(self, key: Hashable, factory: Callable[[], Any]) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = factory()
            self.set(key, value)
        return value

    def __contains__(self, key: Hashable) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def __len__(self) -> int:
        return len(self._data)

    def purge(self) -> int:
        """Drop expired entries; return how many were dropped."""
        with self._lock:
            now = self._clock()
            dead = [k for k, (_, stamp) in self._data.items() if now - stamp > self.ttl]
            for key in dead:
                del self._data[key]
            return len(dead)

    def _evict_oldest(self) -> None:
        oldest = min(self._data, key=lambda k: self._data[k][1])
        del self._data[oldest]
