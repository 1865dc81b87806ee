"""A logging.Handler that keeps the last lines in a RingBuffer."""

from __future__ import annotations

import logging

from ringlog.buffer import RingBuffer


class MemoryLog(logging.Handler):
    def __init__(self, capacity: int = 200, level: int = logging.INFO) -> None:
        super().__init__(level)
        self.lines: RingBuffer[str] = RingBuffer(capacity)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def tail(self, n: int = 20) -> list[str]:
        return self.lines.recent(n)
