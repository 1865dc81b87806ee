"""A week of entries, totalled by day and by client."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from timesheet.entries import Entry, parse_entry


@dataclass
class Sheet:
    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def from_text(cls, text: str) -> Sheet:
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        return cls([parse_entry(ln) for ln in lines])

    def minutes_by_day(self) -> dict[dt.date, int]:
        days: dict[dt.date, int] = defaultdict(int)
        for entry in self.entries:
            days[entry.day] += entry.minutes
        return dict(sorted(days.items()))

    def minutes_by_client(self) -> dict[str, int]:
        clients: dict[str, int] = defaultdict(int)
        for entry in self.entries:
            clients[entry.client] += entry.minutes
        return dict(sorted(clients.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def total_minutes(self) -> int:
        return sum(e.minutes for e in self.entries)
