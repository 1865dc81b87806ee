"""The account every kind of account is: a balance in pence and a history."""

from __future__ import annotations

from dataclasses import dataclass, field

from bank.errors import AccountFrozen, InsufficientFunds


@dataclass
class Entry:
    kind: str  # "deposit" | "withdrawal" | "interest" | "fee"
    amount: int
    balance_after: int


@dataclass
class Account:
    account_id: str
    owner: str
    balance: int = 0
    frozen: bool = False
    history: list[Entry] = field(default_factory=list)

    def overdraft_limit(self) -> int:
        """How far below zero the balance may go; kinds of account override this."""
        return 0

    def available(self) -> int:
        return self.balance - self.overdraft_limit()

    def deposit(self, amount: int) -> None:
        self._check_open()
        if amount <= 0:
            raise ValueError("deposits must be positive")
        self._post("deposit", amount)

    def withdraw(self, amount: int) -> None:
        self._check_open()
        if amount <= 0:
            raise ValueError("withdrawals must be positive")
        if amount > self.available():
            raise InsufficientFunds(self.account_id, amount, self.available())
        self._post("withdrawal", -amount)

    def month_end(self) -> None:
        """Interest and fees, as each kind of account defines them."""

    def _post(self, kind: str, amount: int) -> None:
        self.balance += amount
        self.history.append(Entry(kind, abs(amount), self.balance))

    def _check_open(self) -> None:
        if self.frozen:
            raise AccountFrozen(self.account_id)
