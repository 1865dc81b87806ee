"""Retries for model requests: backoff with jitter, Retry-After, one-sentence errors.

A backend writes one attempt as an async generator that raises `Retryable` for what may
pass (429, 5xx, connection errors, timeouts, a stream cut mid-way) and `ModelError` for
what will not (4xx). `retrying` runs attempts until one finishes. Before each new attempt
it yields a `RetryNotice`: text already streamed from the failed attempt is void, and a
front end resets the partial reply when it sees the notice. Cancelling the consuming task
raises CancelledError inside the attempt, whose `async with` closes the HTTP stream at once.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import ssl
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import httpx

from agent.errors import ModelError
from agent.llm.base import ModelEvent, RetryNotice

MAX_DELAY_S = 60.0


@dataclass
class Retryable(Exception):
    """One failed attempt that may succeed if tried again."""

    kind: str  # rate_limit | server | connect | timeout | cut
    detail: str
    retry_after: float | None = None

    def __str__(self) -> str:
        return self.detail


class RequestRefused(ModelError):
    """A request the server refused for good (a 4xx): its one sentence, and the status and
    body as sent, which a client that adapts to refusals reads (`llm/adapt.py`)."""

    def __init__(self, message: str, status: int, body: str) -> None:
        super().__init__(message)
        self.status = status
        self.body = body


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)


def backoff_delay(attempt: int, base_s: float, retry_after: float | None) -> float:
    """The server's Retry-After wins; otherwise exponential backoff with full jitter."""
    if retry_after is not None:
        return min(retry_after, MAX_DELAY_S)
    ceiling = min(MAX_DELAY_S, base_s * (2**attempt))
    return random.uniform(ceiling / 2, ceiling)


def classify_transport_error(exc: httpx.TransportError, started_response: bool) -> Retryable:
    if isinstance(exc, httpx.TimeoutException):
        return Retryable("timeout", "the request timed out")
    if _untrusted_certificate(exc):  # will not heal by trying again: said at once
        return Retryable("certificate", str(exc))
    if not started_response:
        return Retryable("connect", f"cannot connect ({exc.__class__.__name__})")
    return Retryable("cut", f"the stream was cut off ({exc})")


def _untrusted_certificate(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLCertVerificationError) or (
            "CERTIFICATE_VERIFY_FAILED" in str(seen)
        ):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def status_error(
    status: int, body: str, base_url: str, key_hint: str, retry_after: str | None = None
) -> Exception:
    """A Retryable for 429/5xx; a one-sentence RequestRefused for every other 4xx."""
    if status == 429 or status >= 500:
        kind = "rate_limit" if status == 429 else "server"
        return Retryable(kind, f"HTTP {status}", parse_retry_after(retry_after))
    detail = _short(body)
    if status in (401, 403):
        return RequestRefused(
            f"The model server at {base_url} refused the request ({status}): {key_hint}.",
            status,
            body,
        )
    if status == 404:
        return RequestRefused(
            f"The model server at {base_url} has no such endpoint or model (404{detail}): "
            "check --base-url and --model.",
            status,
            body,
        )
    return RequestRefused(
        f"The model server at {base_url} rejected the request ({status}{detail}); "
        "check the model profile.",
        status,
        body,
    )


def exhausted(error: Retryable, base_url: str, attempts: int, timeout_s: float) -> ModelError:
    tries = f"{attempts} attempt{'s' if attempts != 1 else ''}"
    if error.kind == "certificate":
        return ModelError(
            f"The model server at {base_url} presented a certificate kiln does not trust: "
            "add the CA that signed it to the bundle SSL_CERT_FILE names, or fix the server's."
        )
    if error.kind == "connect":
        return ModelError(
            f"Cannot reach the model server at {base_url}: start it or set --base-url "
            "(docs/models/index.md)."
        )
    if error.kind == "timeout":
        return ModelError(
            f"The model server at {base_url} did not answer within {timeout_s:g}s in {tries}: "
            "check the server or raise request_timeout_s."
        )
    if error.kind == "rate_limit":
        return ModelError(
            f"The model server at {base_url} was still rate-limiting after {tries}: "
            "wait a while or use fewer parallel jobs."
        )
    what = "cutting the stream off" if error.kind == "cut" else f"failing ({error.detail})"
    return ModelError(
        f"The model server at {base_url} kept {what} in {tries}: check its logs and try again."
    )


async def retrying(
    attempt: Callable[[], AsyncIterator[ModelEvent]],
    *,
    base_url: str,
    max_retries: int,
    timeout_s: float,
    backoff_base_s: float = 1.0,
) -> AsyncIterator[ModelEvent]:
    """Run `attempt()` until one completes, yielding RetryNotice between attempts."""
    for number in range(max_retries + 1):
        try:
            async for event in attempt():
                yield event
            return
        except Retryable as error:
            if number >= max_retries or error.kind == "certificate":
                raise exhausted(error, base_url, number + 1, timeout_s) from None
            delay = backoff_delay(number, backoff_base_s, error.retry_after)
            yield RetryNotice(attempt=number + 1, delay_s=delay, reason=error.detail)
            await asyncio.sleep(delay)


def error_fields(body: str) -> tuple[str, str, str]:
    """(message, param, code) of a server's error body: OpenAI's `{"error": {...}}`, vLLM's
    older flat one, Gemini's list of one; the body itself when it is not JSON."""
    try:
        data = json.loads(body)
    except ValueError:
        return body, "", ""
    if isinstance(data, list) and data:
        data = data[0]
    err = data.get("error", data) if isinstance(data, dict) else data
    if not isinstance(err, dict):
        return str(err), "", ""
    param, code = err.get("param"), err.get("code")
    return (
        str(err.get("message", "")),
        param if isinstance(param, str) else "",
        code if isinstance(code, str) else "",
    )


def _short(body: str) -> str:
    """The server's own error message, if it sent one, kept to one line."""
    message = " ".join(error_fields(body)[0].split())[:200].rstrip(".")
    return f": {message}" if message else ""
