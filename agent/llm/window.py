"""What a server says about its context window and its tokenizer.

Servers say it in their own ways: llama.cpp `GET /props` (n_ctx) and `POST /tokenize`,
vLLM `GET /v1/models` (max_model_len) and `POST /tokenize`, Ollama `POST /api/show`
(`<arch>.context_length`, or a `num_ctx` parameter). Hosted APIs say nothing; then the
profile's configured window (or the safe default) stands. Every probe is short and a
failure of any kind is only "unknown".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from agent.llm.tls import tls_context

PROBE_TIMEOUT_S = 3.0


def server_root(base_url: str) -> str:
    """http://host:port/v1 -> http://host:port (where llama.cpp and Ollama answer)."""
    parts = urlsplit(base_url.rstrip("/"))
    path = parts.path
    for suffix in ("/v1", "/api"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    return urlunsplit((parts.scheme, parts.netloc, path, "", "")).rstrip("/")


async def served_window(base_url: str, model: str) -> int | None:
    """The context window the server at `base_url` declares for `model`, or None.

    Each server's way is asked at once (a server answers one of them; a hosted API none),
    and the first in the order llama.cpp, vLLM, Ollama that declares a window counts.
    Asked without the API key: these are a local server's questions, and a key must go
    nowhere but the requests it is for."""
    root, base = server_root(base_url), base_url.rstrip("/")
    async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S, verify=tls_context(base_url)) as http:
        windows = await asyncio.gather(
            *(_declared(probe(http, root, base, model)) for probe in (_llama_cpp, _vllm, _ollama))
        )
    return next((window for window in windows if window), None)


async def _declared(probe: Awaitable[Any]) -> int | None:
    with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, TypeError):
        window = await probe
        if window and window > 0:
            return int(window)
    return None


async def _llama_cpp(http: httpx.AsyncClient, root: str, base: str, model: str) -> Any:
    reply = await http.get(f"{root}/props")
    reply.raise_for_status()
    data = reply.json()
    settings = data.get("default_generation_settings") or {}
    return settings.get("n_ctx") or data.get("n_ctx")


async def _vllm(http: httpx.AsyncClient, root: str, base: str, model: str) -> Any:
    reply = await http.get(f"{base}/models")
    reply.raise_for_status()
    entries = reply.json().get("data") or []
    for entry in entries:
        if entry.get("id") == model or len(entries) == 1:
            return entry.get("max_model_len") or entry.get("context_length")
    return None


async def _ollama(http: httpx.AsyncClient, root: str, base: str, model: str) -> Any:
    reply = await http.post(f"{root}/api/show", json={"model": model})
    reply.raise_for_status()
    data = reply.json()
    for line in str(data.get("parameters") or "").splitlines():
        name, _, value = line.partition(" ")
        if name == "num_ctx":
            return int(value.strip())
    info = data.get("model_info") or {}
    return next((v for k, v in info.items() if k.endswith(".context_length")), None)


async def served_token_count(base_url: str, text: str) -> int | None:
    """How many tokens the server's own tokenizer makes of `text` (llama.cpp, vLLM), or None."""
    root = server_root(base_url)
    with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, TypeError):
        async with httpx.AsyncClient(timeout=PROBE_TIMEOUT_S, verify=tls_context(base_url)) as http:
            reply = await http.post(f"{root}/tokenize", json={"content": text})
            reply.raise_for_status()
            data = reply.json()
            tokens = data.get("tokens")
            if isinstance(tokens, list):
                return len(tokens)
            count = data.get("count")
            return int(count) if count is not None else None
    return None
