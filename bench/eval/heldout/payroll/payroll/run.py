"""One month's payroll run: gross pay, tax withheld, and the payslip lines."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from payroll.staff import Employee

PERSONAL_ALLOWANCE_MONTHLY = 104_750  # pence untaxed each month
BASIC_RATE = 0.20


@dataclass(frozen=True)
class Payslip:
    name: str
    gross: int
    tax: int

    @property
    def net(self) -> int:
        return self.gross - self.tax

    def line(self) -> str:
        return f"{self.name:<16}{self.gross / 100:>10.2f}{self.tax / 100:>10.2f}{self.net / 100:>10.2f}"


def tax_for(gross: int) -> int:
    return round(max(0, gross - PERSONAL_ALLOWANCE_MONTHLY) * BASIC_RATE)


def run_payroll(staff: Iterable[Employee]) -> list[Payslip]:
    slips = []
    for person in staff:
        gross = person.monthly_pay()
        slips.append(Payslip(person.name, gross, tax_for(gross)))
    return sorted(slips, key=lambda s: s.name)


def total_cost(slips: Iterable[Payslip]) -> int:
    return sum(s.gross for s in slips)
