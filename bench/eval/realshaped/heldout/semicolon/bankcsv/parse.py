"""Reading a statement: a header row naming Date, Description and Amount, then one row per
transaction. Column order does not matter and other columns are ignored."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

REQUIRED = ("date", "description", "amount")


class StatementError(ValueError):
    pass


@dataclass(frozen=True)
class Transaction:
    day: date
    description: str
    amount: Decimal


def parse_amount(text: str) -> Decimal:
    """'1,234.56' -> Decimal('1234.56'); a leading minus means money out."""
    cleaned = text.strip().replace(",", "").replace(" ", "")
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount") from None


def read_transactions(text: str) -> list[Transaction]:
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(reader, None)
    if header is None:
        raise StatementError("the file is empty")
    names = [h.strip().lower() for h in header]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        raise StatementError(f"missing column(s): {', '.join(missing)}")
    where = {name: names.index(name) for name in REQUIRED}
    transactions = []
    for line, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        try:
            transactions.append(Transaction(
                date.fromisoformat(row[where["date"]].strip()),
                row[where["description"]].strip(),
                parse_amount(row[where["amount"]]),
            ))
        except (IndexError, ValueError) as exc:
            raise StatementError(f"line {line}: {exc}") from None
    return transactions
