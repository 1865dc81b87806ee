import unittest

from ttlcache import TTLCache


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class TTLCacheTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()
        self.cache = TTLCache(ttl=60, clock=self.clock)

    def test_get_before_expiry(self):
        self.cache.set("rate", 1.08)
        self.clock.now += 59
        self.assertEqual(self.cache.get("rate"), 1.08)

    def test_missing_key_gives_default(self):
        self.assertIsNone(self.cache.get("nope"))
        self.assertEqual(self.cache.get("nope", 0), 0)

    def test_untouched_entry_expires(self):
        self.cache.set("rate", 1.08)
        self.clock.now += 61
        self.assertIsNone(self.cache.get("rate"))
        self.assertEqual(len(self.cache), 0)

    def test_get_or_set_calls_factory_once(self):
        calls = []

        def factory():
            calls.append(1)
            return "on"

        self.assertEqual(self.cache.get_or_set("flag", factory), "on")
        self.assertEqual(self.cache.get_or_set("flag", factory), "on")
        self.assertEqual(len(calls), 1)

    def test_purge_counts_dropped_entries(self):
        self.cache.set("a", 1)
        self.clock.now += 30
        self.cache.set("b", 2)
        self.clock.now += 31
        self.assertEqual(self.cache.purge(), 1)
        self.assertIn("b", self.cache)

    def test_max_size_evicts_oldest(self):
        cache = TTLCache(ttl=60, clock=self.clock, max_size=2)
        cache.set("a", 1)
        self.clock.now += 1
        cache.set("b", 2)
        self.clock.now += 1
        cache.set("c", 3)
        self.assertNotIn("a", cache)
        self.assertEqual(len(cache), 2)

    def test_ttl_must_be_positive(self):
        with self.assertRaises(ValueError):
            TTLCache(ttl=0)


if __name__ == "__main__":
    unittest.main()
