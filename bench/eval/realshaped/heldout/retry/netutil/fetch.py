"""Fetching the exchange rates, which the provider's API sometimes fails to serve."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable

from netutil.retry import retry

RATES_URL = "https://rates.example.com/v1/latest?base={base}"


def _http_get(url: str, timeout: float = 10.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


def make_rate_fetcher(get: Callable[[str], bytes] = _http_get, sleep=None) -> Callable[[str], dict[str, float]]:
    options = {"attempts": 4, "delay": 1.0}
    if sleep is not None:
        options["sleep"] = sleep

    @retry(**options)
    def fetch_rates(base: str) -> dict[str, float]:
        data = json.loads(get(RATES_URL.format(base=base.upper())))
        return {code: float(rate) for code, rate in data["rates"].items()}

    return fetch_rates
