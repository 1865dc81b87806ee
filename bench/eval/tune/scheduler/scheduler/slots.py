"""A working day cut into fixed slots of SLOT_MINUTES, numbered from the opening time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

SLOT_MINUTES = 30


def _minutes(t: dt.time) -> int:
    return t.hour * 60 + t.minute


@dataclass(frozen=True)
class Day:
    date: dt.date
    opens: dt.time = dt.time(9, 0)
    closes: dt.time = dt.time(17, 0)

    @property
    def slot_count(self) -> int:
        return (_minutes(self.closes) - _minutes(self.opens)) // SLOT_MINUTES

    def slots(self) -> range:
        return range(self.slot_count)

    def is_weekend(self) -> bool:
        return self.date.weekday() >= 5


def slot_of(day: Day, t: dt.time, *, round_up: bool = False) -> int:
    """The slot `t` falls in (or, with round_up, the first slot starting at or after it)."""
    offset = _minutes(t) - _minutes(day.opens)
    slot, rest = divmod(offset, SLOT_MINUTES)
    if round_up and rest:
        slot += 1
    return max(0, min(slot, day.slot_count))


def time_of(day: Day, slot: int) -> dt.time:
    """When slot number `slot` starts."""
    total = _minutes(day.opens) + slot * SLOT_MINUTES
    return dt.time(total // 60, total % 60)


def working_days(start: dt.date, count: int) -> list[Day]:
    """The next `count` weekdays from `start` on (start included when it is one)."""
    days: list[Day] = []
    date = start
    while len(days) < count:
        day = Day(date)
        if not day.is_weekend():
            days.append(day)
        date += dt.timedelta(days=1)
    return days
