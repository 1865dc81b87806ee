"""Staff: everyone is an Employee; some kinds are paid differently.

Monthly pay is in pence. Every salaried employee gets the London allowance when based
in London; kinds of staff add to the base pay by overriding `monthly_pay` and calling it.
"""

from __future__ import annotations

from dataclasses import dataclass

LONDON_ALLOWANCE_PENCE = 25_000  # per month


@dataclass
class Employee:
    name: str
    annual_salary_pence: int
    london: bool = False

    def base_monthly(self) -> int:
        return round(self.annual_salary_pence / 12)

    def allowances(self) -> int:
        return LONDON_ALLOWANCE_PENCE if self.london else 0

    def monthly_pay(self) -> int:
        return self.base_monthly() + self.allowances()


@dataclass
class Manager(Employee):
    reports: int = 0
    bonus_per_report_pence: int = 5_000

    def monthly_pay(self) -> int:
        return self.base_monthly() + self.reports * self.bonus_per_report_pence


@dataclass
class Engineer(Employee):
    on_call_weeks: int = 0
    on_call_rate_pence: int = 12_000

    def monthly_pay(self) -> int:
        return super().monthly_pay() + self.on_call_weeks * self.on_call_rate_pence


@dataclass
class Contractor(Employee):
    """Paid by the hour; no salary, no allowances."""

    hours: float = 0.0
    hourly_rate_pence: int = 0
    annual_salary_pence: int = 0

    def allowances(self) -> int:
        return 0

    def monthly_pay(self) -> int:
        return round(self.hours * self.hourly_rate_pence)
