"""Events, read from lines like:  2024-03-02T04:30:00Z 60 Call with the Denver office"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone


class EventError(ValueError):
    pass


@dataclass(frozen=True, order=True)
class Event:
    start: datetime  # aware, UTC
    minutes: int
    title: str


def parse_event(line: str) -> Event:
    parts = line.split(maxsplit=2)
    if len(parts) != 3:
        raise EventError(f"expected 'START MINUTES TITLE': {line!r}")
    try:
        start = datetime.fromisoformat(parts[0])
        minutes = int(parts[1])
    except ValueError as exc:
        raise EventError(str(exc)) from None
    if start.tzinfo is None:
        raise EventError(f"start time needs a timezone: {parts[0]}")
    if minutes <= 0:
        raise EventError("an event lasts at least a minute")
    return Event(start.astimezone(timezone.utc), minutes, parts[2].strip())


def load_events(text: str) -> list[Event]:
    return sorted(parse_event(line) for line in text.splitlines() if line.strip() and not line.startswith("#"))
