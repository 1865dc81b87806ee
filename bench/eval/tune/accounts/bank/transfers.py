"""Moving money between two accounts: both sides or neither."""

from __future__ import annotations

from bank.base import Account


def transfer(source: Account, target: Account, amount: int) -> None:
    source.withdraw(amount)
    try:
        target.deposit(amount)
    except Exception:
        source.deposit(amount)  # put it back: a transfer never loses money
        raise
