import tempfile
import unittest
from pathlib import Path

from appconfig import load
from appconfig.sources import from_env


class LoaderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "app.ini"
        self.path.write_text("[app]\nport = 9000\ndebug = yes\n")

    def tearDown(self):
        self.dir.cleanup()

    def test_defaults(self):
        settings, origin = load(None, environ={})
        self.assertEqual(settings["port"], 8080)
        self.assertEqual(origin["port"], "default")

    def test_file(self):
        settings, origin = load(self.path, environ={})
        self.assertEqual((settings["port"], settings["debug"]), (9000, True))
        self.assertEqual(origin["debug"], "file")

    def test_env_wins_over_file(self):
        env = {"APP_PORT": "9100", "APP_LOG_LEVEL": "DEBUG", "HOME": "/root"}
        settings, origin = load(self.path, environ=env)
        self.assertEqual(settings["port"], 9100)
        self.assertEqual(settings["log_level"], "debug")
        self.assertEqual(origin["port"], "env")

    def test_unknown_env_names_are_ignored(self):
        self.assertEqual(from_env({"APP_COLOUR": "red", "APP_WORKERS": "4"}), {"workers": 4})


if __name__ == "__main__":
    unittest.main()
