"""A fixed-size in-memory log: the last N lines, for a status page."""

from ringlog.buffer import RingBuffer
from ringlog.logger import MemoryLog

__all__ = ["MemoryLog", "RingBuffer"]
