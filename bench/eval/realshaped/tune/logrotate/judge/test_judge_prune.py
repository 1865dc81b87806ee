import tempfile
import unittest
from datetime import datetime
from pathlib import Path

from rotlog.rotate import archives, prune, rotate


class PruneKeepsNewestTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def names(self):
        return sorted(p.name for p in archives(self.dir, "app"))

    def test_prune_deletes_the_oldest(self):
        for day in range(1, 9):
            (self.dir / f"app-2024030{day}-120000.log").write_text(str(day))
        deleted = prune(self.dir, "app", keep=5)
        self.assertEqual(self.names(), [f"app-2024030{d}-120000.log" for d in range(4, 9)])
        self.assertEqual(sorted(p.name for p in deleted), [f"app-2024030{d}-120000.log" for d in (1, 2, 3)])

    def test_order_is_by_timestamp_across_months_and_times(self):
        names = ["app-20231231-235959.log", "app-20240101-000001.log", "app-20240101-000000.log", "app-20240215-080000.log"]
        for name in names:
            (self.dir / name).write_text("x")
        prune(self.dir, "app", keep=2)
        self.assertEqual(self.names(), ["app-20240101-000001.log", "app-20240215-080000.log"])

    def test_keep_zero_deletes_all_archives_but_not_the_live_log(self):
        (self.dir / "app.log").write_text("live")
        (self.dir / "app-20240301-000000.log").write_text("x")
        prune(self.dir, "app", keep=0)
        self.assertEqual(self.names(), [])
        self.assertEqual((self.dir / "app.log").read_text(), "live")

    def test_a_week_of_rotations_keeps_the_latest_five(self):
        log = self.dir / "app.log"
        for day in range(1, 8):
            log.write_text(f"day {day}\n")
            rotate(log, keep=5, now=datetime(2024, 3, day, 0, 0, 0))
        kept = self.names()
        self.assertEqual(kept, [f"app-2024030{d}-000000.log" for d in range(3, 8)])
        self.assertEqual((self.dir / "app-20240307-000000.log").read_text(), "day 7\n")
        self.assertEqual(log.read_text(), "")


if __name__ == "__main__":
    unittest.main()
