"""Full collections held back while a reply streams.

A full collection walks every object the session made since its survivors were last
frozen (tui/app.py): late in a 1,000-step session one took 60-80 ms, and one that fell
while a reply streamed was a frame that late. While a reply streams, the collector's
young generations still run (they take the cycles streaming makes); the full
collections wait until the reply ends, between replies, where no one watches a frame.
"""

from __future__ import annotations

import gc

HELD = 1_000_000  # young collections before a full one: none comes while held

_held_from: int | None = None  # the full collections' threshold before the hold


def hold_full_collections() -> None:
    global _held_from
    if _held_from is None:
        young, middle, _held_from = gc.get_threshold()
        gc.set_threshold(young, middle, HELD)


def release_full_collections() -> None:
    global _held_from
    if _held_from is not None:
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, _held_from)
        _held_from = None
