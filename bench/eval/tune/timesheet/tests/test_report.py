import unittest

from timesheet.entries import EntryError, parse_entry
from timesheet.report import decimal_hours, hours_minutes, report
from timesheet.sheet import Sheet

WEEK = """
# week 10
2024-03-04 09:15-12:40 acme design review
2024-03-04 13:30-14:35 Globex
2024-03-05 09:00-10:00 acme
"""


class ReportTest(unittest.TestCase):
    def test_hours_minutes_pads(self):
        self.assertEqual(hours_minutes(125), "2:05")
        self.assertEqual(hours_minutes(60), "1:00")
        self.assertEqual(hours_minutes(59), "0:59")

    def test_decimal(self):
        self.assertEqual(decimal_hours(90), "1.50")

    def test_parse(self):
        entry = parse_entry("2024-03-04 9:05-9:50 ACME call")
        self.assertEqual((entry.client, entry.minutes, entry.note), ("acme", 45, "call"))

    def test_end_before_start(self):
        with self.assertRaises(EntryError):
            parse_entry("2024-03-04 10:00-09:00 acme").minutes

    def test_report(self):
        text = report(Sheet.from_text(WEEK))
        self.assertIn("Mon 04 Mar    4:30", text)
        self.assertIn("acme         4:25     4.42", text)
        self.assertIn("globex       1:05     1.08", text)
        self.assertTrue(text.endswith("total        5:30"))


if __name__ == "__main__":
    unittest.main()
