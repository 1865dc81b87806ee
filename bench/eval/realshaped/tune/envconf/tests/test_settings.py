import tempfile
import unittest
from pathlib import Path

from shipit.settings import DEFAULTS, SettingsError, load_settings


class SettingsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.path = Path(self._tmp.name) / "shipit.ini"

    def tearDown(self):
        self._tmp.cleanup()

    def test_defaults_without_file(self):
        self.assertEqual(load_settings(None), DEFAULTS)
        self.assertEqual(load_settings(self.path), DEFAULTS)

    def test_file_values_take_the_default_type(self):
        self.path.write_text("[server]\nport = 9000\ndebug = yes\n[deploy]\ntimeout = 12.5\ntarget = prod\n")
        settings = load_settings(self.path)
        self.assertEqual(settings["server"]["port"], 9000)
        self.assertIs(settings["server"]["debug"], True)
        self.assertEqual(settings["deploy"]["timeout"], 12.5)
        self.assertEqual(settings["deploy"]["target"], "prod")
        self.assertEqual(settings["server"]["host"], "127.0.0.1")

    def test_defaults_are_not_modified(self):
        self.path.write_text("[server]\nport = 9000\n")
        load_settings(self.path)
        self.assertEqual(DEFAULTS["server"]["port"], 8000)

    def test_bad_value(self):
        self.path.write_text("[deploy]\nretries = lots\n")
        with self.assertRaisesRegex(SettingsError, "retries"):
            load_settings(self.path)

    def test_unknown_key(self):
        self.path.write_text("[server]\ncolour = red\n")
        with self.assertRaisesRegex(SettingsError, "server.colour"):
            load_settings(self.path)


if __name__ == "__main__":
    unittest.main()
