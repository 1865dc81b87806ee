"""Date arithmetic the loan rules need: days late, due dates that skip closed days."""

from __future__ import annotations

import datetime as dt

CLOSED_WEEKDAYS = {6}  # Sunday


def next_open_day(day: dt.date) -> dt.date:
    while day.weekday() in CLOSED_WEEKDAYS:
        day += dt.timedelta(days=1)
    return day


def due_date(borrowed: dt.date, loan_days: int) -> dt.date:
    """The day the item is due back; a due date on a closed day moves to the next open one."""
    return next_open_day(borrowed + dt.timedelta(days=loan_days))


def days_late(due: dt.date, returned: dt.date) -> int:
    """Whole days after the due date (returning on the due date is not late)."""
    return max(0, (returned - due).days - 1)
