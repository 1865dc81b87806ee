import unittest

from passwords.policy import check
from passwords.strength import label


class PolicyTest(unittest.TestCase):
    def test_a_good_password(self):
        self.assertTrue(check("Tulip-Harbour-42", "ada").ok)

    def test_ten_characters_is_too_short(self):
        verdict = check("Ab3$efghij")
        self.assertFalse(verdict.ok)
        self.assertIn("use at least 12 characters", verdict.problems)

    def test_classes(self):
        self.assertFalse(check("alllowercaseletters").ok)

    def test_user_name(self):
        self.assertIn("do not put your user name in your password", check("Ada-Lovelace-1815", "ada").problems)

    def test_strength(self):
        self.assertEqual(label("abc"), "weak")
        self.assertEqual(label("Tulip-Harbour-42"), "strong")


if __name__ == "__main__":
    unittest.main()
