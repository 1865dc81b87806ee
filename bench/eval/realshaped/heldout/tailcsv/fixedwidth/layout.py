"""Where each field sits in a record line, and how to read it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation


class RecordError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Field:
    name: str
    start: int
    width: int
    kind: str = "text"  # "text", "date" (YYYYMMDD) or "amount"

    def read(self, record: str, line: int) -> str | date | Decimal:
        raw = record[self.start : self.start + self.width].strip()
        if self.kind == "date":
            try:
                return datetime.strptime(raw, "%Y%m%d").date()
            except ValueError:
                raise RecordError(line, f"{self.name}: {raw!r} is not a YYYYMMDD date") from None
        if self.kind == "amount":
            try:
                return Decimal(raw)
            except InvalidOperation:
                raise RecordError(line, f"{self.name}: {raw!r} is not an amount") from None
        return raw


STATEMENT = (
    Field("date", 0, 8, "date"),
    Field("description", 8, 30),
    Field("amount", 38, 12, "amount"),
    Field("reference", 50, 10),
)
