import unittest
from datetime import date
from decimal import Decimal

from billing.invoice import Invoice, Line
from billing.render import render


def sample():
    invoice = Invoice("2024-017", "Acme Ltd", date(2024, 3, 1), date(2024, 3, 31))
    invoice.add("Consulting", 3, "450.00")
    invoice.add("Train tickets", 1, "87.35", "0")
    return invoice


class InvoiceTest(unittest.TestCase):
    def test_totals(self):
        invoice = sample()
        self.assertEqual(invoice.subtotal, Decimal("1437.35"))
        self.assertEqual(invoice.vat, Decimal("270.00"))
        self.assertEqual(invoice.total, Decimal("1707.35"))

    def test_line_rounding(self):
        line = Line("Widget", 3, Decimal("0.335"), Decimal("0.20"))
        self.assertEqual((line.net, line.vat), (Decimal("1.01"), Decimal("0.20")))

    def test_validation(self):
        with self.assertRaises(ValueError):
            Invoice("1", "x", date(2024, 3, 2), date(2024, 3, 1))
        with self.assertRaises(ValueError):
            sample().add("nothing", 0, "1")

    def test_overdue(self):
        self.assertFalse(sample().is_overdue(date(2024, 3, 31)))
        self.assertTrue(sample().is_overdue(date(2024, 4, 1)))

    def test_render(self):
        text = render(sample())
        self.assertIn("Issued: 01 Mar 2024    Due: 31 Mar 2024", text)
        self.assertIn("Consulting                        3 x    450.00   1,350.00", text)
        self.assertTrue(text.endswith(f"{'Total':>48}   1,707.35\n"))


if __name__ == "__main__":
    unittest.main()
