import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from archiver.cli import main


def snapshot(folder: Path):
    if not folder.exists():
        return None
    return {p.name: p.read_bytes() for p in folder.iterdir()}


class DryRunTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        self.out = self.root / "reports"
        self.source = self.root / "expenses.csv"
        self.source.write_text("date,category,amount\n2024-03-10,food,3.00\n2024-03-10,rent,900\n")

    def tearDown(self):
        self._tmp.cleanup()

    def cli(self, *extra):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            code = main([str(self.source), "--out", str(self.out), "--today", "2024-03-10", "--keep-days", "30", *extra])
        self.assertEqual(code, 0)
        return buffer.getvalue().splitlines()

    def test_dry_run_changes_nothing_and_lists_actions(self):
        self.out.mkdir()
        (self.out / "report-2024-01-01.csv").write_text("old one")
        (self.out / "report-2024-02-01.csv").write_text("old two")
        (self.out / "report-2024-03-01.csv").write_text("recent")
        before = snapshot(self.out)
        lines = self.cli("--dry-run")
        self.assertEqual(snapshot(self.out), before)
        self.assertCountEqual(
            lines,
            [
                f"would write {self.out / 'report-2024-03-10.csv'}",
                f"would delete {self.out / 'report-2024-01-01.csv'}",
                f"would delete {self.out / 'report-2024-02-01.csv'}",
            ],
        )

    def test_dry_run_does_not_overwrite_todays_report(self):
        self.out.mkdir()
        (self.out / "report-2024-03-10.csv").write_text("earlier run")
        self.cli("--dry-run")
        self.assertEqual((self.out / "report-2024-03-10.csv").read_text(), "earlier run")

    def test_dry_run_without_the_folder_creates_nothing(self):
        lines = self.cli("--dry-run")
        self.assertFalse(self.out.exists())
        self.assertEqual(lines, [f"would write {self.out / 'report-2024-03-10.csv'}"])

    def test_real_run_still_works(self):
        self.out.mkdir()
        (self.out / "report-2024-01-01.csv").write_text("old")
        lines = self.cli()
        self.assertEqual(lines, [f"wrote {self.out / 'report-2024-03-10.csv'}", f"deleted {self.out / 'report-2024-01-01.csv'}"])
        self.assertEqual(sorted(snapshot(self.out)), ["report-2024-03-10.csv"])


if __name__ == "__main__":
    unittest.main()
