"""People's busy times, read from lines like "ana 2024-06-03 10:00-11:30"."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from scheduler.slots import Day, slot_of


@dataclass(frozen=True)
class Busy:
    who: str
    date: dt.date
    start: dt.time
    end: dt.time


def parse_busy(line: str) -> Busy:
    who, date, span = line.split()
    start, end = span.split("-")
    return Busy(who.lower(), dt.date.fromisoformat(date), _time(start), _time(end))


def _time(text: str) -> dt.time:
    hours, minutes = text.split(":")
    return dt.time(int(hours), int(minutes))


class Calendar:
    def __init__(self, entries: list[Busy] | None = None):
        self.entries: dict[str, list[Busy]] = defaultdict(list)
        for entry in entries or []:
            self.add(entry)

    @classmethod
    def from_text(cls, text: str) -> Calendar:
        return cls([parse_busy(ln) for ln in text.splitlines() if ln.strip()])

    def add(self, entry: Busy) -> None:
        self.entries[entry.who].append(entry)

    def busy_slots(self, who: str, day: Day) -> set[int]:
        """The slots of `day` that `who` has anything in, even partly."""
        taken: set[int] = set()
        for entry in self.entries.get(who.lower(), []):
            if entry.date != day.date:
                continue
            first = slot_of(day, entry.start)
            last = slot_of(day, entry.end, round_up=True)
            taken.update(range(first, last))
        return taken
