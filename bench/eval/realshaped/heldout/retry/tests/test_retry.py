import json
import unittest

from netutil.fetch import make_rate_fetcher
from netutil.retry import retry


class Flaky:
    def __init__(self, failures, exc=ConnectionError):
        self.failures = failures
        self.exc = exc
        self.calls = 0
        self.__name__ = "flaky"

    def __call__(self, *args):
        self.calls += 1
        if self.calls <= self.failures:
            raise self.exc("boom")
        return "ok"


class RetryTest(unittest.TestCase):
    def setUp(self):
        self.sleeps = []

    def test_first_call_succeeds(self):
        flaky = Flaky(0)
        self.assertEqual(retry(sleep=self.sleeps.append)(flaky)(), "ok")
        self.assertEqual((flaky.calls, self.sleeps), (1, []))

    def test_succeeds_after_failures_with_backoff(self):
        flaky = Flaky(2)
        self.assertEqual(retry(attempts=5, delay=1, sleep=self.sleeps.append)(flaky)(), "ok")
        self.assertEqual(flaky.calls, 3)
        self.assertEqual(self.sleeps, [1, 2])

    def test_max_delay(self):
        flaky = Flaky(4)
        retry(attempts=10, delay=10, backoff=3, max_delay=50, sleep=self.sleeps.append)(flaky)()
        self.assertEqual(self.sleeps, [10, 30, 50, 50])

    def test_other_exceptions_are_not_retried(self):
        flaky = Flaky(1, exc=KeyError)
        with self.assertRaises(KeyError):
            retry(sleep=self.sleeps.append)(flaky)()
        self.assertEqual(flaky.calls, 1)

    def test_keeps_the_name(self):
        @retry()
        def fetch_thing():
            pass

        self.assertEqual(fetch_thing.__name__, "fetch_thing")

    def test_bad_attempts(self):
        with self.assertRaises(ValueError):
            retry(attempts=0)

    def test_rate_fetcher(self):
        answers = [ConnectionError("reset"), json.dumps({"rates": {"USD": "1.08"}}).encode()]

        def get(url):
            self.assertIn("base=EUR", url)
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

        fetch = make_rate_fetcher(get, sleep=self.sleeps.append)
        self.assertEqual(fetch("eur"), {"USD": 1.08})
        self.assertEqual(self.sleeps, [1.0])


if __name__ == "__main__":
    unittest.main()
