"""`kiln models`: the configured model profiles, and model servers running on 127.0.0.1."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.table import Table

from agent.llm.discovery import LOCAL_HOSTS, LOCAL_PORTS, FoundServer, probe_local_servers
from agent.settings.config import Settings, load_settings


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
