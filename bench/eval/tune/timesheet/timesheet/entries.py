"""One stretch of work, parsed from a line like "2024-03-04 09:15-12:40 acme design"."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_LINE = re.compile(
    r"^(?P<day>\d{4}-\d{2}-\d{2})\s+(?P<start>\d{1,2}:\d{2})-(?P<end>\d{1,2}:\d{2})"
    r"\s+(?P<client>\S+)(?:\s+(?P<note>.*))?$"
)


class EntryError(ValueError):
    pass


@dataclass(frozen=True)
class Entry:
    day: dt.date
    start: dt.time
    end: dt.time
    client: str
    note: str = ""

    @property
    def minutes(self) -> int:
        start = self.start.hour * 60 + self.start.minute
        end = self.end.hour * 60 + self.end.minute
        if end <= start:
            raise EntryError(f"{self.day}: the end {self.end} is not after the start")
        return end - start


def parse_entry(line: str) -> Entry:
    match = _LINE.match(line.strip())
    if not match:
        raise EntryError(f"cannot read {line!r}")
    return Entry(
        day=dt.date.fromisoformat(match["day"]),
        start=_time(match["start"]),
        end=_time(match["end"]),
        client=match["client"].lower(),
        note=(match["note"] or "").strip(),
    )


def _time(text: str) -> dt.time:
    hours, minutes = (int(part) for part in text.split(":"))
    return dt.time(hours, minutes)
