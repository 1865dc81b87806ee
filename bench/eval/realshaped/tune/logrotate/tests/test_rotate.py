import tempfile
import unittest
from datetime import datetime
from pathlib import Path

from rotlog.rotate import archive_name, archives, prune, rotate


class RotateTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)
        self.log = self.dir / "app.log"

    def tearDown(self):
        self._tmp.cleanup()

    def test_archive_name(self):
        self.assertEqual(archive_name("app", datetime(2024, 3, 1, 4, 5, 6)), "app-20240301-040506.log")

    def test_rotate_moves_the_log_aside(self):
        self.log.write_text("hello\n")
        written = rotate(self.log, keep=3, now=datetime(2024, 3, 1, 0, 0, 0))
        self.assertEqual(written.name, "app-20240301-000000.log")
        self.assertEqual(written.read_text(), "hello\n")
        self.assertEqual(self.log.read_text(), "")

    def test_empty_log_is_left_alone(self):
        self.log.write_text("")
        self.assertIsNone(rotate(self.log, keep=3))
        self.assertEqual(archives(self.dir, "app"), [])

    def test_other_files_are_not_archives(self):
        for name in ("app.log", "app-20240301-000000.log", "other-20240301-000000.log", "app-notes.txt"):
            (self.dir / name).write_text("x")
        self.assertEqual([p.name for p in archives(self.dir, "app")], ["app-20240301-000000.log"])

    def test_prune_keeps_everything_when_under_the_limit(self):
        for day in (1, 2, 3):
            (self.dir / f"app-2024030{day}-000000.log").write_text("x")
        self.assertEqual(prune(self.dir, "app", keep=5), [])
        self.assertEqual(len(archives(self.dir, "app")), 3)

    def test_negative_keep(self):
        with self.assertRaises(ValueError):
            prune(self.dir, "app", keep=-1)


if __name__ == "__main__":
    unittest.main()
