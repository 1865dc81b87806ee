import logging
import unittest

from ringlog import MemoryLog, RingBuffer


class RingTest(unittest.TestCase):
    def test_overwrites_the_oldest(self):
        ring = RingBuffer(3)
        for n in range(5):
            ring.append(n)
        self.assertEqual(ring.items(), [2, 3, 4])

    def test_recent(self):
        ring = RingBuffer(5)
        for n in range(4):
            ring.append(n)
        self.assertEqual(ring.recent(2), [2, 3])
        self.assertEqual(ring.recent(10), [0, 1, 2, 3])

    def test_log_tail(self):
        log = logging.getLogger("ringtest")
        handler = MemoryLog(capacity=10)
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.info("one")
        log.warning("two")
        self.assertEqual(handler.tail(1), ["WARNING ringtest: two"])


if __name__ == "__main__":
    unittest.main()
