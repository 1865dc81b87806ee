"""The MCP servers of one session as tools for the model: `mcp__SERVER__TOOL`.

Every server starts at once (each within its startup timeout); one that fails is a note
at the start and the session goes on without it. The tools are sorted by name, cut to
`[mcp] max_tools` (with a warning), and fixed until the session ends: the request prefix,
and so the server's cache of it, stays the same from the first request on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.llm.base import ToolSpec
from agent.mcp.client import Channel, McpFailure, connect
from agent.settings.config import McpServer
from agent.tools.base import ToolResult
from sandbox.frozen import frozen

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")  # what every model API takes in a tool's name
NAME_LIMIT = 64


@dataclass
class ServerState:
    name: str
    server: McpServer
    channel: Channel | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""  # why it did not start


@frozen
class _Offered:
    server: str
    tool: str  # the server's own name for it
    spec: ToolSpec


def tool_name(server: str, tool: str) -> str:
    return f"mcp__{server}__{_UNSAFE.sub('_', tool)}"[:NAME_LIMIT]


class McpTools:
    """Implements agent.tools.external.ExternalTools for the session's servers."""

    def __init__(self, states: list[ServerState], max_tools: int) -> None:
        self.states = {s.name: s for s in states}
        self.notes = [f"MCP server {s.name} did not start: {s.error}" for s in states if s.error]
        offered: dict[str, _Offered] = {}
        for state in states:
            for tool in state.tools:
                name = tool_name(state.name, str(tool["name"]))
                offered.setdefault(
                    name, _Offered(state.name, str(tool["name"]), _spec(name, state.name, tool))
                )
        names = sorted(offered)
        if len(names) > max_tools:
            left = names[max_tools:]
            self.notes.append(
                f"The MCP servers offer {len(names)} tools; [mcp] max_tools is {max_tools}, so "
                f"{len(left)} are left out ({', '.join(left[:5])}{', ...' if len(left) > 5 else ''})."
            )
            names = names[:max_tools]
        self._offered = {name: offered[name] for name in names}
        self._specs = tuple(offered[name].spec for name in names)

    @classmethod
    async def start(
        cls,
        servers: dict[str, McpServer],
        cwd: Path,
        max_tools: int,
        key_vars: Iterable[str] = (),
    ) -> McpTools:
        """Start every server; stdio ones get the person's environment without the model
        keys (the well-known variables and `key_vars`) unless a server's `env_vars` names one."""
        states = [ServerState(name, server) for name, server in sorted(servers.items())]
        key_vars = tuple(key_vars)
        await asyncio.gather(*(_start(state, cwd, key_vars) for state in states))
        return cls(states, max_tools)

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        return self._specs

    def owns(self, name: str) -> bool:
        return name in self._offered

    def allowed(self, name: str) -> bool:
        offered = self._offered[name]
        return offered.tool in self.states[offered.server].server.allow

    def tools_of(self, server: str) -> list[str]:
        return [o.tool for o in self._offered.values() if o.server == server]

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        offered = self._offered[name]
        state = self.states[offered.server]
        assert state.channel is not None, "only started servers offer tools"
        params = {"name": offered.tool, "arguments": arguments}
        try:
            result = await state.channel.request(
                "tools/call", params, state.server.tool_timeout_sec
            )
        except McpFailure as failure:
            return ToolResult(False, f"{failure} The session goes on; use other tools instead.")
        return _as_result(result)

    async def close(self) -> None:
        for state in self.states.values():
            if state.channel is not None:
                with contextlib.suppress(Exception):
                    await state.channel.close()


async def _start(state: ServerState, cwd: Path, key_vars: tuple[str, ...]) -> None:
    try:
        state.channel, state.tools = await connect(state.name, state.server, cwd, key_vars)
    except McpFailure as failure:
        state.error = str(failure)


def _spec(name: str, server: str, tool: dict[str, Any]) -> ToolSpec:
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        schema = {"type": "object", "properties": {}}
    description = str(tool.get("description") or "").strip()
    return ToolSpec(name, f"(MCP server {server}) {description}".strip(), schema)


def _as_result(result: Any) -> ToolResult:
    """A `tools/call` result as the model reads it: its text, and whether it is an error."""
    if not isinstance(result, dict):
        return ToolResult(False, "The MCP server answered without a result.")
    parts: list[str] = []
    for item in result.get("content") or []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "text":
            parts.append(str(item.get("text", "")))
        elif kind == "resource" and isinstance(item.get("resource"), dict):
            resource = item["resource"]
            parts.append(str(resource.get("text") or f"[resource {resource.get('uri', '')}]"))
        elif kind == "resource_link":
            parts.append(f"[resource {item.get('uri', '')}]")
        else:
            parts.append(f"[{kind} content, not shown]")
    if not parts and result.get("structuredContent") is not None:
        parts.append(json.dumps(result["structuredContent"], ensure_ascii=False))
    return ToolResult(not result.get("isError"), "\n".join(parts) or "(no output)")
