"""Reports over a date range: hours per project, and a table with a column per day."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta

from hours.entries import Entry


def days(start: date, end: date) -> list[date]:
    """The days covered by a report from `start` to `end`."""
    if end < start:
        raise ValueError("the range ends before it starts")
    return [start + timedelta(days=n) for n in range((end - start).days)]


def totals_by_project(entries: Iterable[Entry], start: date, end: date) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for entry in entries:
        if start <= entry.day < end:
            totals[entry.project] += entry.hours
    return dict(sorted(totals.items()))


def _num(hours: float) -> str:
    return f"{hours:g}" if hours else "-"


def weekly_table(entries: Iterable[Entry], start: date, end: date) -> str:
    entries = list(entries)
    columns = days(start, end)
    cells: dict[tuple[str, date], float] = defaultdict(float)
    for entry in entries:
        if entry.day in columns:
            cells[entry.project, entry.day] += entry.hours
    totals = totals_by_project(entries, start, end)
    header = f"{'project':<12}" + "".join(f"{d:%a %d}".rjust(8) for d in columns) + "   total"
    lines = [header]
    projects = sorted({p for p, _ in cells})
    for project in projects:
        row = "".join(_num(cells.get((project, d), 0)).rjust(8) for d in columns)
        lines.append(f"{project:<12}{row}{_num(totals.get(project, 0)).rjust(8)}")
    day_sums = "".join(_num(sum(cells.get((p, d), 0) for p in projects)).rjust(8) for d in columns)
    lines.append(f"{'all':<12}{day_sums}{_num(sum(totals.values())).rjust(8)}")
    return "\n".join(lines)
