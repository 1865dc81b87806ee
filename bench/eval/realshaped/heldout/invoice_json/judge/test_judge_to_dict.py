import json
import unittest
from datetime import date
from decimal import Decimal

from billing.invoice import Invoice, Line

EXPECTED = {
    "number": "2024-017",
    "customer": "Acme Ltd",
    "issued": "2024-03-01",
    "due": "2024-03-31",
    "lines": [
        {"description": "Consulting", "quantity": 3, "unit_price": "450.00", "vat_rate": "0.20"},
        {"description": "Train tickets", "quantity": 1, "unit_price": "87.35", "vat_rate": "0"},
    ],
    "subtotal": "1437.35",
    "vat": "270.00",
    "total": "1707.35",
}


def sample():
    invoice = Invoice("2024-017", "Acme Ltd", date(2024, 3, 1), date(2024, 3, 31))
    invoice.add("Consulting", 3, "450.00")
    invoice.add("Train tickets", 1, "87.35", "0")
    return invoice


class ToDictTest(unittest.TestCase):
    def test_to_dict(self):
        self.assertEqual(sample().to_dict(), EXPECTED)

    def test_json_safe(self):
        self.assertEqual(json.loads(json.dumps(sample().to_dict())), EXPECTED)

    def test_totals_always_have_two_decimals(self):
        invoice = Invoice("9", "B", date(2024, 1, 1), date(2024, 1, 1))
        invoice.add("Thing", 2, "5", "0")
        data = invoice.to_dict()
        self.assertEqual((data["subtotal"], data["vat"], data["total"]), ("10.00", "0.00", "10.00"))
        self.assertEqual(data["lines"][0]["unit_price"], "5")
        empty = Invoice("10", "C", date(2024, 1, 1), date(2024, 1, 2)).to_dict()
        self.assertEqual((empty["lines"], empty["total"]), ([], "0.00"))


class FromDictTest(unittest.TestCase):
    def test_round_trip(self):
        invoice = sample()
        again = Invoice.from_dict(json.loads(json.dumps(invoice.to_dict())))
        self.assertEqual(again, invoice)
        self.assertIsInstance(again.issued, date)
        self.assertIsInstance(again.lines[0].unit_price, Decimal)
        self.assertIsInstance(again.lines[0].vat_rate, Decimal)
        self.assertEqual(again.total, Decimal("1707.35"))

    def test_totals_are_not_needed(self):
        data = {k: v for k, v in EXPECTED.items() if k not in ("subtotal", "vat", "total")}
        invoice = Invoice.from_dict(data)
        self.assertEqual(invoice.lines[1], Line("Train tickets", 1, Decimal("87.35"), Decimal("0")))
        self.assertEqual(invoice.due, date(2024, 3, 31))


if __name__ == "__main__":
    unittest.main()
