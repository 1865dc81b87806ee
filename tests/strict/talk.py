"""Plain-httpx helpers for the strict servers' own tests (no kiln client involved)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.strict.server import StrictServer


def post(
    server: StrictServer, path: str, body: Any, headers: dict[str, str] | None = None
) -> httpx.Response:
    """POST `body` to `path` under the server's base URL (or its root when `path` starts
    with `//`)."""
    url = server.root_url + path[1:] if path.startswith("//") else server.base_url + path
    return httpx.post(url, json=body, headers=headers or {}, timeout=10)


def sse_data(response: httpx.Response) -> list[Any]:
    """Every `data:` payload of an SSE reply (`[DONE]` kept as the string)."""
    out: list[Any] = []
    for line in response.text.splitlines():
        if line.startswith("data: "):
            raw = line[len("data: ") :]
            out.append(raw if raw == "[DONE]" else json.loads(raw))
    return out


def sse_events(response: httpx.Response) -> list[tuple[str, Any]]:
    """(event name, data) pairs of an SSE reply that names its events."""
    out: list[tuple[str, Any]] = []
    event = ""
    for line in response.text.splitlines():
        if line.startswith("event: "):
            event = line[len("event: ") :]
        elif line.startswith("data: "):
            out.append((event, json.loads(line[len("data: ") :])))
            event = ""
    return out


def message(response: httpx.Response) -> str:
    """The error message of an OpenAI- or Anthropic-shaped error body."""
    return str(response.json()["error"]["message"])
