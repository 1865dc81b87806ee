"""Which MCP servers a session uses: kiln's own config, a trusted repository's `.mcp.json`,
and the ones an ACP client hands over in `session/new`.

`.mcp.json` is Claude Code's shape, `{"mcpServers": {NAME: {command, args, env}}}` or
`{NAME: {"type": "http", url, headers}}`; `[mcp_servers.NAME]` in config.toml is Codex's.
A repository's file names commands that would run on the person's machine, so its servers
start only once the person trusted the repository (`kiln trust`) with the file as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.errors import ConfigError
from agent.settings import trust
from agent.settings.config import McpServer, Settings, mcp_server

# Keys of a `.mcp.json` entry kiln reads; the rest (a client's own extras) are left alone.
_CLAUDE_KEYS = {"command", "args", "env", "url", "headers"}


@dataclass
class ChosenServers:
    servers: dict[str, McpServer] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # said at the session's start


def read_mcp_json(path: Path) -> dict[str, McpServer]:
    """The servers a `.mcp.json` names, each checked as `[mcp_servers.NAME]` is."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{path} is not valid JSON ({exc}); fix or remove it.") from None
    entries = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise ConfigError(f'{path} should hold {{"mcpServers": {{NAME: {{...}}}}}}; fix it.')
    servers: dict[str, McpServer] = {}
    for name, entry in entries.items():
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: `{name}` should be an object with a command or a url.")
        kind = str(entry.get("type", "stdio" if "command" in entry else "http"))
        if kind not in ("stdio", "http", "streamable-http"):
            raise ConfigError(
                f"{path}: `{name}` is a {kind} server; kiln speaks stdio and streamable HTTP."
            )
        values = {k: v for k, v in entry.items() if k in _CLAUDE_KEYS}
        servers[name] = mcp_server(
            name, values, {f"mcp_servers.{name}.{k}": str(path) for k in values}
        )
    return servers


def choose_servers(
    repo: Path, settings: Settings, given: dict[str, McpServer] | None = None
) -> ChosenServers:
    """kiln's config first; a trusted `.mcp.json` adds servers of other names; a client's
    own (ACP) are used as given, in place of one of the same name."""
    chosen = ChosenServers(dict(settings.mcp_servers))
    path = repo / trust.MCP_FILE
    if path.is_file() and trust.is_trusted(repo, trust.MCP_FILE):
        for name, server in read_mcp_json(path).items():
            chosen.servers.setdefault(name, server)
    elif path.is_file() and trust.suspended(repo):
        chosen.notes.append(
            f"kiln applied changes to this repository since you trusted its {trust.MCP_FILE}, "
            "so its MCP servers do not start: read what was applied (`git diff`, `git log`), "
            "then `kiln trust` to start them again."
        )
    elif path.is_file() and trust.was_trusted(repo, trust.MCP_FILE):
        chosen.notes.append(
            f"The repository's {trust.MCP_FILE}, or a file its servers run, changed since you "
            "trusted it, so its MCP servers do not start: read the change (`git diff`), then "
            "`kiln trust` to start them again."
        )
    # Untrusted, it is not read further: `trust.ignored_runs` names its servers.
    chosen.servers.update(given or {})
    chosen.servers = {n: s for n, s in chosen.servers.items() if s.enabled}
    return chosen


def server_from_client(entry: dict[str, Any]) -> tuple[str, McpServer]:
    """An ACP `mcpServers` item: {name, command, args, env: [{name, value}]} or
    {type: "http", name, url, headers: [{name, value}]}."""
    name = str(entry.get("name") or "")
    if entry.get("type") not in (None, "stdio", "http"):
        raise ConfigError(
            f"The client's MCP server {name} is a {entry.get('type')} server; kiln speaks "
            "stdio and streamable HTTP (it says so in initialize)."
        )
    pairs = {"env": entry.get("env") or [], "headers": entry.get("headers") or []}
    values: dict[str, Any] = {
        key: {str(p.get("name")): str(p.get("value")) for p in items if isinstance(p, dict)}
        for key, items in pairs.items()
        if items
    }
    for key in ("command", "args", "url"):
        if entry.get(key):
            values[key] = entry[key]
    source = "the ACP client's session/new"
    return name, mcp_server(name, values, {f"mcp_servers.{name}.{k}": source for k in values})
