import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from shipit.settings import SettingsError, load_settings


def clean_env(**values):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPIT_")}
    env.update(values)
    return mock.patch.dict(os.environ, env, clear=True)


class EnvironmentOverridesTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.path = Path(self._tmp.name) / "shipit.ini"

    def tearDown(self):
        self._tmp.cleanup()

    def test_variables_override_defaults_with_types(self):
        with clean_env(SHIPIT_SERVER_PORT="9000", SHIPIT_SERVER_DEBUG="yes", SHIPIT_DEPLOY_TIMEOUT="12.5"):
            settings = load_settings(None)
        self.assertEqual(settings["server"]["port"], 9000)
        self.assertIs(settings["server"]["debug"], True)
        self.assertEqual(settings["deploy"]["timeout"], 12.5)
        self.assertEqual(settings["deploy"]["retries"], 3)

    def test_variables_win_over_the_file(self):
        self.path.write_text("[deploy]\ntarget = staging-eu\nretries = 5\n")
        with clean_env(SHIPIT_DEPLOY_TARGET="prod"):
            settings = load_settings(self.path)
        self.assertEqual(settings["deploy"]["target"], "prod")
        self.assertEqual(settings["deploy"]["retries"], 5)

    def test_keys_with_underscores(self):
        with clean_env(SHIPIT_SERVER_MAX_BODY_KB="2048"):
            self.assertEqual(load_settings(None)["server"]["max_body_kb"], 2048)

    def test_false_values(self):
        self.path.write_text("[server]\ndebug = true\n")
        for text in ("0", "false", "no", "off"):
            with clean_env(SHIPIT_SERVER_DEBUG=text):
                self.assertIs(load_settings(self.path)["server"]["debug"], False, text)

    def test_bad_value_names_the_variable(self):
        with clean_env(SHIPIT_SERVER_PORT="eighty"):
            with self.assertRaises(SettingsError) as caught:
                load_settings(None)
        self.assertIn("SHIPIT_SERVER_PORT", str(caught.exception))

    def test_unknown_variables_are_ignored(self):
        with clean_env(SHIPIT_SERVER_COLOUR="red", SHIPIT_TOKEN="abc", OTHER_SERVER_PORT="1"):
            settings = load_settings(None)
        self.assertEqual(settings["server"]["port"], 8000)
        self.assertNotIn("colour", settings["server"])


if __name__ == "__main__":
    unittest.main()
