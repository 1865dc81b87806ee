import unittest

from ttlcache import TTLCache


class Clock:
    def __init__(self):
        self.now = 500.0

    def __call__(self):
        return self.now


class ReadsDoNotExtendTest(unittest.TestCase):
    def setUp(self):
        self.clock = Clock()
        self.cache = TTLCache(ttl=60, clock=self.clock)

    def test_frequent_reads_do_not_keep_an_entry_alive(self):
        self.cache.set("flag", "on")
        for _ in range(12):
            self.clock.now += 5
            self.assertEqual(self.cache.get("flag"), "on")
        self.clock.now += 5  # 65 s after set
        self.assertIsNone(self.cache.get("flag"))

    def test_membership_checks_do_not_extend(self):
        self.cache.set("flag", "on")
        self.clock.now += 50
        self.assertIn("flag", self.cache)
        self.clock.now += 20
        self.assertNotIn("flag", self.cache)

    def test_get_or_set_refetches_after_ttl_even_when_read_often(self):
        values = iter(["v1", "v2"])
        self.assertEqual(self.cache.get_or_set("k", lambda: next(values)), "v1")
        self.clock.now += 40
        self.assertEqual(self.cache.get_or_set("k", lambda: next(values)), "v1")
        self.clock.now += 40
        self.assertEqual(self.cache.get_or_set("k", lambda: next(values)), "v2")

    def test_setting_again_restarts_the_ttl(self):
        self.cache.set("k", 1)
        self.clock.now += 50
        self.cache.set("k", 2)
        self.clock.now += 50
        self.assertEqual(self.cache.get("k"), 2)
        self.clock.now += 11
        self.assertIsNone(self.cache.get("k"))

    def test_purge_after_reads(self):
        self.cache.set("a", 1)
        self.clock.now += 59
        self.cache.get("a")
        self.clock.now += 2
        self.assertEqual(self.cache.purge(), 1)
        self.assertEqual(len(self.cache), 0)


if __name__ == "__main__":
    unittest.main()
