"""Retrying flaky calls with capped exponential backoff."""

from retry.backoff import delays
from retry.policy import RetryError, RetryPolicy, retry_call

__all__ = ["RetryError", "RetryPolicy", "delays", "retry_call"]
