import random
import unittest

from retry import RetryError, RetryPolicy, delays, retry_call


class BackoffTest(unittest.TestCase):
    def test_delays_double(self):
        self.assertEqual(list(delays(5, base=1.0)), [1.0, 2.0, 4.0, 8.0, 16.0])

    def test_capped(self):
        self.assertEqual(list(delays(4, base=10.0, cap=25.0)), [10.0, 20.0, 25.0, 25.0])

    def test_jitter_stays_under_the_delay(self):
        for got, limit in zip(delays(5, base=1.0, jitter=True, rng=random.Random(7)),
                              [1, 2, 4, 8, 16]):
            self.assertTrue(0 <= got <= limit)


class RetryCallTest(unittest.TestCase):
    def test_succeeds_after_failures(self):
        calls, slept = [], []

        def flaky():
            calls.append(1)
            if len(calls) < 3:
                raise ConnectionError("reset")
            return "ok"

        policy = RetryPolicy(retries=4, base_s=0.5, jitter=False, sleep=slept.append)
        self.assertEqual(retry_call(flaky, policy), "ok")
        self.assertEqual(slept, [0.5, 1.0])

    def test_gives_up(self):
        def down():
            raise TimeoutError("slow")

        with self.assertRaises(RetryError) as caught:
            retry_call(down, RetryPolicy(retries=2, sleep=lambda s: None))
        self.assertEqual(caught.exception.attempts, 3)

    def test_other_errors_are_not_retried(self):
        with self.assertRaises(KeyError):
            retry_call(lambda: {}["x"], RetryPolicy(sleep=lambda s: None))


if __name__ == "__main__":
    unittest.main()
