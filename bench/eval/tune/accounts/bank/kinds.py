"""The kinds of account the bank sells."""

from __future__ import annotations

from dataclasses import dataclass

from bank.base import Account


@dataclass
class SavingsAccount(Account):
    annual_rate_percent: float = 2.0

    def month_end(self) -> None:
        if self.balance > 0:
            interest = round(self.balance * self.annual_rate_percent / 100 / 12)
            if interest:
                self._post("interest", interest)


@dataclass
class CurrentAccount(Account):
    arranged_overdraft: int = 10_000
    monthly_fee: int = 0

    def overdraft_limit(self) -> int:
        return self.arranged_overdraft

    def month_end(self) -> None:
        if self.monthly_fee:
            self._post("fee", -self.monthly_fee)


@dataclass
class StudentAccount(CurrentAccount):
    arranged_overdraft: int = 50_000
