import datetime as dt
import unittest
from decimal import Decimal

from budget import Ledger, Transaction, format_amount, load_categories, parse_amount

CATEGORIES = """
# name    limit    payees
groceries 400.00   tesco, aldi, lidl
rent      1200.00  landlord
transport 150.00   tfl, trainline
fun       100.00   cinema, steam
"""

MAY = """
2024-05-01;Landlord Ltd;1200.00
2024-05-03;Tesco Metro;123.40
2024-05-09;Aldi;96.60
2024-05-10;TfL;140.00
2024-05-12;Steam;110.00
2024-05-13;Steam;(5.00)
2024-05-20;Lidl;180.00
2024-05-21;Bakery;7.50
"""


def may_ledger() -> Ledger:
    ledger = Ledger(load_categories(CATEGORIES))
    ledger.add_lines(MAY)
    return ledger


class MoneyTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(parse_amount("1,234.5"), Decimal("1234.50"))
        self.assertEqual(parse_amount("(5.00)"), Decimal("-5.00"))
        self.assertEqual(parse_amount("$0.125"), Decimal("0.13"))

    def test_format(self):
        self.assertEqual(format_amount(Decimal("-1234.5")), "-1,234.50")


class LedgerTest(unittest.TestCase):
    def test_categories_load(self):
        names = [c.name for c in load_categories(CATEGORIES)]
        self.assertEqual(names, ["groceries", "rent", "transport", "fun"])

    def test_transaction_line(self):
        t = Transaction.from_line("2024-05-03; Tesco Metro ;23.40")
        self.assertEqual((t.day, t.payee, t.amount), (dt.date(2024, 5, 3), "Tesco Metro", Decimal("23.40")))

    def test_spent_by_category(self):
        spent = may_ledger().spent()
        self.assertEqual(spent["groceries"], Decimal("400.00"))
        self.assertEqual(spent["fun"], Decimal("105.00"))
        self.assertEqual(spent["other"], Decimal("7.50"))

    def test_status_near_and_over(self):
        ledger = may_ledger()
        self.assertEqual(ledger.status("transport"), "near")
        self.assertEqual(ledger.status("fun"), "over")

    def test_spending_the_whole_limit_is_not_over(self):
        ledger = may_ledger()
        self.assertEqual(ledger.status("rent"), "near")
        self.assertEqual(ledger.status("groceries"), "near")

    def test_overspent_lists_only_categories_past_their_limit(self):
        self.assertEqual(may_ledger().overspent(), ["fun"])

    def test_an_empty_month_is_ok(self):
        ledger = Ledger(load_categories(CATEGORIES))
        self.assertEqual({ledger.status(n) for n in ledger.categories}, {"ok"})
        self.assertEqual(ledger.overspent(), [])

    def test_summary_line(self):
        summary = may_ledger().summary()
        self.assertIn("transport       140.00 of     150.00       10.00 left  near", summary)


if __name__ == "__main__":
    unittest.main()
