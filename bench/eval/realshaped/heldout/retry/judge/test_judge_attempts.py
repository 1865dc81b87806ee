import unittest

from netutil.fetch import make_rate_fetcher
from netutil.retry import retry


class AlwaysFails:
    def __init__(self, exc=ConnectionError):
        self.exc = exc
        self.calls = 0
        self.__name__ = "always_fails"

    def __call__(self, *args, **kwargs):
        self.calls += 1
        raise self.exc(f"failure {self.calls}")


class AttemptsTest(unittest.TestCase):
    def setUp(self):
        self.sleeps = []

    def test_attempts_is_the_total_number_of_calls(self):
        func = AlwaysFails()
        with self.assertRaises(ConnectionError) as caught:
            retry(attempts=3, sleep=self.sleeps.append)(func)()
        self.assertEqual(func.calls, 3)
        self.assertEqual(self.sleeps, [0.5, 1.0])
        self.assertEqual(str(caught.exception), "failure 3")

    def test_single_attempt_never_sleeps(self):
        func = AlwaysFails(TimeoutError)
        with self.assertRaises(TimeoutError):
            retry(attempts=1, sleep=self.sleeps.append)(func)()
        self.assertEqual((func.calls, self.sleeps), (1, []))

    def test_backoff_and_cap_over_all_attempts(self):
        func = AlwaysFails()
        with self.assertRaises(ConnectionError):
            retry(attempts=5, delay=10, backoff=3, max_delay=50, sleep=self.sleeps.append)(func)()
        self.assertEqual(func.calls, 5)
        self.assertEqual(self.sleeps, [10, 30, 50, 50])

    def test_success_on_the_last_attempt(self):
        calls = []

        def func():
            calls.append(1)
            if len(calls) < 3:
                raise ConnectionError("not yet")
            return "ok"

        self.assertEqual(retry(attempts=3, sleep=self.sleeps.append)(func)(), "ok")
        self.assertEqual(self.sleeps, [0.5, 1.0])

    def test_rate_fetcher_gives_up_after_four_calls(self):
        get = AlwaysFails()
        fetch = make_rate_fetcher(get, sleep=self.sleeps.append)
        with self.assertRaises(ConnectionError):
            fetch("usd")
        self.assertEqual(get.calls, 4)
        self.assertEqual(self.sleeps, [1.0, 2.0, 4.0])


if __name__ == "__main__":
    unittest.main()
