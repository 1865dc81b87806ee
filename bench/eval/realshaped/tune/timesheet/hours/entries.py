"""Time entries, one per line:  2024-03-04 3.5 acme fixed the login page"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


class EntryError(ValueError):
    pass


@dataclass(frozen=True)
class Entry:
    day: date
    hours: float
    project: str
    note: str = ""


def parse_line(line: str, number: int) -> Entry:
    parts = line.split(maxsplit=3)
    if len(parts) < 3:
        raise EntryError(f"line {number}: expected 'DATE HOURS PROJECT [NOTE]'")
    try:
        day = date.fromisoformat(parts[0])
        hours = float(parts[1])
    except ValueError as exc:
        raise EntryError(f"line {number}: {exc}") from None
    if not 0 < hours <= 24:
        raise EntryError(f"line {number}: {hours} hours in one entry?")
    return Entry(day, hours, parts[2].lower(), parts[3] if len(parts) > 3 else "")


def read_entries(text: str) -> list[Entry]:
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            entries.append(parse_line(line, number))
    return entries
