class BankError(Exception):
    """Something a customer asked for that the bank refuses."""


class InsufficientFunds(BankError):
    def __init__(self, account_id: str, wanted: int, available: int) -> None:
        super().__init__(f"{account_id}: wanted {wanted}, only {available} available")
        self.wanted = wanted
        self.available = available


class AccountFrozen(BankError):
    pass
