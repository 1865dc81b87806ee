"""Lending and returning, and the fine owed when an item comes back late."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from library.catalog import DAILY_FINE_PENCE, LOAN_DAYS, MAX_FINE_PENCE, Catalog
from library.dates import days_late, due_date


@dataclass
class Loan:
    barcode: str
    member: str
    borrowed: dt.date
    due: dt.date
    returned: dt.date | None = None


class Desk:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.loans: dict[str, Loan] = {}

    def lend(self, barcode: str, member: str, day: dt.date) -> Loan:
        item = self.catalog.get(barcode)
        if not item.lendable:
            raise ValueError(f"{item.title} cannot be borrowed")
        if barcode in self.loans:
            raise ValueError(f"{item.title} is already out")
        loan = Loan(barcode, member, day, due_date(day, LOAN_DAYS[item.kind]))
        self.loans[barcode] = loan
        return loan

    def give_back(self, barcode: str, day: dt.date) -> int:
        """Close the loan; returns the fine in pence."""
        loan = self.loans.pop(barcode)
        loan.returned = day
        return fine_pence(self.catalog.get(barcode).kind, loan.due, day)


def fine_pence(kind: str, due: dt.date, returned: dt.date) -> int:
    return min(MAX_FINE_PENCE, days_late(due, returned) * DAILY_FINE_PENCE[kind])
