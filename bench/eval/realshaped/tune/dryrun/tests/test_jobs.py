import contextlib
import io
import tempfile
import unittest
from datetime import date
from decimal import Decimal
from pathlib import Path

from archiver.cli import main
from archiver.jobs import prune_reports, run, summarize

ROWS = [
    {"date": "2024-03-10", "category": "Food", "amount": "12.50"},
    {"date": "2024-03-10", "category": "travel", "amount": "40"},
    {"date": "2024-03-10", "category": "food ", "amount": "7.25"},
]


class JobsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        self.out = self.root / "reports"

    def tearDown(self):
        self._tmp.cleanup()

    def test_summarize(self):
        self.assertEqual(summarize(ROWS), {"food": Decimal("19.75"), "travel": Decimal("40")})

    def test_run_writes_and_prunes(self):
        self.out.mkdir()
        (self.out / "report-2024-01-01.csv").write_text("old")
        (self.out / "report-2024-03-01.csv").write_text("recent")
        (self.out / "notes.txt").write_text("keep me")
        actions = run(ROWS, self.out, date(2024, 3, 10), keep_days=30)
        self.assertEqual(actions, [f"wrote {self.out / 'report-2024-03-10.csv'}", f"deleted {self.out / 'report-2024-01-01.csv'}"])
        self.assertEqual((self.out / "report-2024-03-10.csv").read_text(), "category,total\nfood,19.75\ntravel,40.00\n")
        self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["notes.txt", "report-2024-03-01.csv", "report-2024-03-10.csv"])

    def test_prune_without_folder(self):
        self.assertEqual(prune_reports(self.out, 30, date(2024, 3, 10)), [])

    def test_cli(self):
        source = self.root / "expenses.csv"
        source.write_text("date,category,amount\n2024-03-10,food,3.00\n")
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            code = main([str(source), "--out", str(self.out), "--today", "2024-03-10"])
        self.assertEqual(code, 0)
        self.assertEqual(buffer.getvalue(), f"wrote {self.out / 'report-2024-03-10.csv'}\n")
        self.assertTrue((self.out / "report-2024-03-10.csv").exists())


if __name__ == "__main__":
    unittest.main()
