"""Model servers running on 127.0.0.1, and the models a server serves.

Local servers are found by asking each well-known port for `GET /v1/models` with a short
timeout, all at once, so the command answers in well under a second when none runs.
"""

from __future__ import annotations

import asyncio

import httpx

from agent.llm.tls import tls_context
from sandbox.frozen import frozen

# (server, port) where the usual local inference servers listen by default.
LOCAL_PORTS: tuple[tuple[str, int], ...] = (
    ("Ollama", 11434),
    ("llama.cpp", 8080),
    ("vLLM", 8000),
    ("LM Studio", 1234),
)
PROBE_TIMEOUT_S = 0.5
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@frozen
class FoundServer:
    server: str
    base_url: str
    models: tuple[str, ...]


async def probe_local_servers(
    ports: tuple[tuple[str, int], ...] = LOCAL_PORTS, timeout_s: float = PROBE_TIMEOUT_S
) -> list[FoundServer]:
    """Every port that answers `/v1/models` like an OpenAI-compatible server."""
    local = tls_context("http://127.0.0.1")
    async with httpx.AsyncClient(timeout=timeout_s, verify=local) as client:
        found = await asyncio.gather(*(_probe(client, name, port) for name, port in ports))
    return [server for server in found if server is not None]


async def list_models(base_url: str, timeout_s: float = PROBE_TIMEOUT_S) -> list[str] | None:
    """Model ids a server offers at `/v1/models`, or None when nothing answers there."""
    async with httpx.AsyncClient(timeout=timeout_s, verify=tls_context(base_url)) as client:
        ids = await _model_ids(client, base_url)
    return None if ids is None else list(ids)


async def _probe(client: httpx.AsyncClient, name: str, port: int) -> FoundServer | None:
    base_url = f"http://127.0.0.1:{port}/v1"
    ids = await _model_ids(client, base_url)
    return None if ids is None else FoundServer(name, base_url, ids)


async def _model_ids(client: httpx.AsyncClient, base_url: str) -> tuple[str, ...] | None:
    try:
        response = await client.get(f"{base_url.rstrip('/')}/models")
        data = response.json().get("data") if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
    if not isinstance(data, list):
        return None
    return tuple(str(item["id"]) for item in data if isinstance(item, dict) and "id" in item)
