import unittest

from bank.base import Account
from bank.errors import AccountFrozen, InsufficientFunds
from bank.kinds import CurrentAccount, SavingsAccount, StudentAccount
from bank.transfers import transfer


class AccountTest(unittest.TestCase):
    def test_plain_account_cannot_go_below_zero(self):
        acc = Account("A1", "Ada", balance=500)
        with self.assertRaises(InsufficientFunds):
            acc.withdraw(501)
        acc.withdraw(500)
        self.assertEqual(acc.balance, 0)

    def test_savings_interest(self):
        acc = SavingsAccount("S1", "Ada", balance=120_000, annual_rate_percent=3.0)
        acc.month_end()
        self.assertEqual(acc.balance, 120_300)

    def test_current_account_uses_its_overdraft(self):
        acc = CurrentAccount("C1", "Bo", balance=2_000, arranged_overdraft=5_000)
        self.assertEqual(acc.available(), 7_000)
        acc.withdraw(6_000)
        self.assertEqual(acc.balance, -4_000)
        with self.assertRaises(InsufficientFunds):
            acc.withdraw(1_001)

    def test_student_overdraft_is_larger(self):
        acc = StudentAccount("U1", "Cy")
        acc.withdraw(40_000)
        self.assertEqual(acc.history[-1].balance_after, -40_000)

    def test_frozen(self):
        acc = SavingsAccount("S2", "Di", frozen=True)
        with self.assertRaises(AccountFrozen):
            acc.deposit(1)

    def test_transfer_into_a_frozen_account_gives_the_money_back(self):
        src = CurrentAccount("C2", "Ed", balance=1_000)
        dst = SavingsAccount("S3", "Fa", frozen=True)
        with self.assertRaises(AccountFrozen):
            transfer(src, dst, 800)
        self.assertEqual(src.balance, 1_000)


if __name__ == "__main__":
    unittest.main()
