"""What the HTTP backends share: SSE parsing, API keys, base URLs, token estimates."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx

from agent.llm.base import ModelProfile
from agent.llm.reply_caps import ReplyCaps, ReplyWatch
from agent.llm.retry import classify_transport_error, status_error
from agent.llm.tls import tls_context

KILN_API_KEY = "KILN_API_KEY"
# How long a stream's end may take to come after its last event (see read_to_end).
END_OF_STREAM_S = 0.5


@contextlib.asynccontextmanager
async def post_stream(
    http: httpx.AsyncClient,
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    *,
    base_url: str,
    key_hint: str,
) -> AsyncIterator[httpx.Response]:
    """A streaming POST whose failures arrive as retry.Retryable or ModelError.

    Errors in the body of the `async with` (a connection dropped mid-stream) are
    classified too, knowing the server had already answered.
    """
    responded = False
    try:
        async with http.stream("POST", url, json=body, headers=headers) as response:
            responded = True
            if response.status_code >= 400:
                text = (await response.aread()).decode(errors="replace")
                raise status_error(
                    response.status_code,
                    text,
                    base_url,
                    key_hint,
                    response.headers.get("retry-after"),
                )
            yield response
    except httpx.TransportError as exc:
        raise classify_transport_error(exc, responded) from None


async def read_to_end(rest: AsyncIterator[object]) -> None:
    """Read what a stream still sends after its last event (normally only its end), so
    httpx gives its connection back for the next request: a stream left unread is closed
    with its connection, and every request then pays for a new one (to a hosted API, a
    TCP and a TLS handshake). A server that sends nothing more within END_OF_STREAM_S
    has its connection closed, as before; what comes meanwhile is not read as a reply."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(END_OF_STREAM_S):
            async for _ in rest:
                pass


async def sse_events(
    response: httpx.Response, watch: ReplyWatch | None = None
) -> AsyncIterator[tuple[str, str]]:
    """(event name, data) pairs; comment lines (`: keep-alive`) and blank events skipped.
    `watch`'s clock is checked at every line, so keep-alives cannot stretch a reply."""
    event, data = "", list[str]()
    async for line in response.aiter_lines():
        if watch is not None:
            watch.check(0)
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "", []
        elif line.startswith(":"):
            continue
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            event = line[6:].strip()
    if data:
        yield event, "\n".join(data)


def resolve_api_key(profile: ModelProfile, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(key or "", what to tell the person when the server refuses it)."""
    env = os.environ if env is None else env
    named = profile.api_key_env
    if named and env.get(named):
        return env[named], f"check the API key in ${named}"
    if env.get(KILN_API_KEY):
        return env[KILN_API_KEY], f"check the API key in ${KILN_API_KEY}"
    if named:
        return "", f"${named} is empty: set it to your API key"
    return "", f"it needs an API key: set ${KILN_API_KEY} or api_key_env in the model profile"


def with_default_path(base_url: str, default_path: str) -> str:
    """`http://host:8080` means `http://host:8080/v1`; a URL with a path is kept as given."""
    base_url = base_url.rstrip("/")
    if urlsplit(base_url).path in ("", "/"):
        return base_url + default_path
    return base_url


def http_timeout(profile: ModelProfile) -> httpx.Timeout:
    """`request_timeout_s` bounds the wait for the first byte and every byte after it."""
    return httpx.Timeout(profile.request_timeout_s, connect=min(10.0, profile.request_timeout_s))


class HttpModelClient:
    """What the HTTP model clients share: the profile, the caps on one reply, the API key
    (and what to tell the person when a server refuses it), the retries' backoff, and one
    httpx client verifying as `tls.py` says for `base_url`."""

    def __init__(
        self,
        profile: ModelProfile,
        base_url: str,
        *,
        env: Mapping[str, str] | None = None,
        backoff_base_s: float = 1.0,
        caps: ReplyCaps | None = None,
    ) -> None:
        self.profile = profile
        self.caps = caps or ReplyCaps()
        self.base_url = base_url
        self._key, self._key_hint = resolve_api_key(profile, env)
        self._backoff_base_s = backoff_base_s
        self._http = httpx.AsyncClient(timeout=http_timeout(profile), verify=tls_context(base_url))

    async def aclose(self) -> None:
        await self._http.aclose()
