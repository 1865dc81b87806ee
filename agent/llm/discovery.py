"""`kiln models`: the configured model profiles, and model servers running on 127.0.0.1.

Local servers are found by asking each well-known port for `GET /v1/models` with a short
timeout, all at once, so the command answers in well under a second when none runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.table import Table

from agent.settings.config import Settings, load_settings

# (server, port) where the usual local inference servers listen by default.
LOCAL_PORTS: tuple[tuple[str, int], ...] = (
    ("Ollama", 11434),
    ("llama.cpp", 8080),
    ("vLLM", 8000),
    ("LM Studio", 1234),
)
PROBE_TIMEOUT_S = 0.5
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class FoundServer:
    server: str
    base_url: str
    models: tuple[str, ...]


async def probe_local_servers(
    ports: tuple[tuple[str, int], ...] = LOCAL_PORTS, timeout_s: float = PROBE_TIMEOUT_S
) -> list[FoundServer]:
    """Every port that answers `/v1/models` like an OpenAI-compatible server."""
    async with httpx.AsyncClient(timeout=timeout_s) as client:
        found = await asyncio.gather(*(_probe(client, name, port) for name, port in ports))
    return [server for server in found if server is not None]


async def list_models(base_url: str, timeout_s: float = PROBE_TIMEOUT_S) -> list[str] | None:
    """Model ids a server offers at `/v1/models`, or None when nothing answers there."""
    async with httpx.AsyncClient(timeout=timeout_s) as client:
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


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """--base-url/--model/--provider as dotted settings keys for `[models.main]`."""
    pairs = {"base_url": "base_url", "model": "model", "provider": "provider"}
    return {
        f"models.main.{key}": getattr(args, attr)
        for attr, key in pairs.items()
        if getattr(args, attr, None)
    }


def profiles_table(settings: Settings, env: dict[str, str] | None = None) -> Table:
    env = dict(os.environ) if env is None else env
    table = Table(title="Configured model profiles", title_justify="left")
    for column in ("profile", "provider", "base URL", "model", "tools", "API key", "from"):
        table.add_column(column)
    for name, p in settings.models.items():
        key_var = p.api_key_env or "KILN_API_KEY"
        key_state = f"${key_var} {'set' if env.get(key_var) else 'not set'}"
        if not p.api_key_env and urlsplit(p.base_url).hostname in LOCAL_HOSTS:
            key_state = "not needed"
        source = settings.sources.get(f"models.{name}.base_url") or settings.sources.get(
            f"models.{name}.model", "default"
        )
        table.add_row(
            name, p.provider, p.base_url or "-", p.model or "-", p.tool_protocol, key_state, source
        )
    return table


def servers_table(found: list[FoundServer]) -> Table:
    table = Table(title="Model servers running on 127.0.0.1", title_justify="left")
    for column in ("server (by port)", "base URL", "models"):
        table.add_column(column)
    for server in found:
        table.add_row(server.server, server.base_url, ", ".join(server.models) or "-")
    return table


def main(
    args: argparse.Namespace,
    ports: tuple[tuple[str, int], ...] = LOCAL_PORTS,
    console: Console | None = None,
) -> int:
    console = console or Console()
    repo = Path(getattr(args, "repo", None) or ".")
    settings = load_settings(repo if repo.is_dir() else None, flag_overrides(args))
    if settings.models:
        console.print(profiles_table(settings))
    else:
        console.print(
            "No model profile is configured (\\[models.main] in .kiln.toml or --base-url)."
        )
    found = asyncio.run(probe_local_servers(ports))
    if found:
        console.print(servers_table(found))
        first = found[0]
        model = f" --model {first.models[0]}" if first.models else ""
        console.print(f"Use one with: kiln --base-url {first.base_url}{model}")
    else:
        checked = ", ".join(f"{name} {port}" for name, port in ports)
        console.print(f"No model server answers on 127.0.0.1 (checked {checked}).")
    return 0
