"""Free time shared by several people, and the first meeting that fits it."""

from __future__ import annotations

import datetime as dt

from scheduler.calendar import Calendar
from scheduler.slots import SLOT_MINUTES, Day, time_of, working_days


def common_free_slots(calendar: Calendar, people: list[str], day: Day) -> list[bool]:
    """For each slot of `day`, whether everyone in `people` is free."""
    busy: set[int] = set()
    for who in people:
        busy |= calendar.busy_slots(who, day)
    return [slot not in busy for slot in day.slots()]


def _fits(free: list[bool], start: int, length: int) -> bool:
    return all(free[start : start + length])


def meeting_starts(free: list[bool], length: int) -> list[int]:
    """Every slot a meeting of `length` slots could start in, the whole meeting free."""
    return [start for start in range(len(free) - length) if _fits(free, start, length)]


def free_windows(free: list[bool]) -> list[tuple[int, int]]:
    """Runs of free slots as (first slot, slot after the last)."""
    windows: list[tuple[int, int]] = []
    start = None
    for slot, is_free in enumerate(free + [False]):
        if is_free and start is None:
            start = slot
        elif not is_free and start is not None:
            windows.append((start, slot))
            start = None
    return windows


def first_meeting(
    calendar: Calendar, people: list[str], minutes: int, start: dt.date, days: int = 5
) -> tuple[dt.date, dt.time] | None:
    """The earliest (date, time) in the next `days` working days that everyone can make."""
    length = -(-minutes // SLOT_MINUTES)
    for day in working_days(start, days):
        starts = meeting_starts(common_free_slots(calendar, people, day), length)
        if starts:
            return day.date, time_of(day, starts[0])
    return None
