"""The weekly report: hours as H:MM, days and clients in columns."""

from __future__ import annotations

from timesheet.sheet import Sheet


def hours_minutes(minutes: int) -> str:
    """125 -> "2:05": hours, then minutes always as two digits."""
    hours, rest = divmod(minutes, 60)
    return f"{hours}:{rest}"


def decimal_hours(minutes: int) -> str:
    return f"{minutes / 60:.2f}"


def report(sheet: Sheet) -> str:
    lines = ["Day         Hours"]
    for day, minutes in sheet.minutes_by_day().items():
        lines.append(f"{day:%a %d %b}  {hours_minutes(minutes):>6}")
    lines.append("")
    lines.append("Client      Hours  Decimal")
    for client, minutes in sheet.minutes_by_client().items():
        lines.append(f"{client:<10}{hours_minutes(minutes):>7}  {decimal_hours(minutes):>7}")
    lines.append(f"{'total':<10}{hours_minutes(sheet.total_minutes):>7}")
    return "\n".join(lines)
