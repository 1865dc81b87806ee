"""A ring buffer: appends overwrite the oldest item once it is full."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class RingBuffer(Generic[T]):
    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._items: list[T | None] = [None] * capacity
        self._next = 0  # where the next append goes
        self._size = 0

    def append(self, item: T) -> None:
        self._items[self._next] = item
        self._next = (self._next + 1) % self.capacity
        self._size = min(self._size + 1, self.capacity)

    def __len__(self) -> int:
        return self._size

    def items(self) -> list[T]:
        """Oldest first."""
        start = (self._next - self._size) % self.capacity
        return [self._items[(start + i) % self.capacity] for i in range(self._size)]  # type: ignore[misc]

    def recent(self, n: int) -> list[T]:
        """The newest `n` items, oldest of them first."""
        if n <= 0:
            return []
        return self.items()[-n:-1]
