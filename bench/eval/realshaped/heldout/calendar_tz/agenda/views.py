"""What a reader sees: the events of one day, or of a week, in their timezone."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta, tzinfo

from agenda.events import Event


def event_line(event: Event, tz: tzinfo) -> str:
    start = event.start.astimezone(tz)
    end = start + timedelta(minutes=event.minutes)
    return f"{start:%H:%M}-{end:%H:%M} {event.title}"


def day_view(events: Iterable[Event], day: date, tz: tzinfo) -> list[str]:
    return [event_line(e, tz) for e in sorted(events) if e.start.date() == day]


def week_view(events: Iterable[Event], monday: date, tz: tzinfo) -> dict[date, list[str]]:
    if monday.weekday() != 0:
        raise ValueError(f"{monday} is not a Monday")
    week: dict[date, list[str]] = {monday + timedelta(days=n): [] for n in range(7)}
    for event in sorted(events):
        day = event.start.date()
        if day in week:
            week[day].append(event_line(event, tz))
    return week


def render_week(week: dict[date, list[str]]) -> str:
    out = []
    for day, lines in week.items():
        out.append(f"{day:%a %d %b}")
        out.extend(f"  {line}" for line in lines or ["-"])
    return "\n".join(out)
